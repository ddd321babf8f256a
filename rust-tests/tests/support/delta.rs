//! Values of `schemas/delta.pkt` that the delta tests of every language
//! share.

use pkt_runtime::delta::Delta;
use pkt_runtime::{Decode, DecodeErrorKind, Limits};
use pkt_rust_tests::test::delta::{Entity, Vec3, World};

pub fn entity(id: u32) -> Entity {
    Entity {
        pos: Vec3 {
            x: id as f32,
            y: 1.0,
            z: -2.5,
        },
        health: 100,
        inventory: vec![id, 7],
        name: format!("e{id}"),
        ..Entity::default()
    }
}

pub fn world(n: u32) -> World {
    World {
        tick: 1,
        entities: (0..n).map(|i| (i, entity(i))).collect(),
        ..World::default()
    }
}

/// Changed `@delta` map entries at the budget: deltas of `World` changing
/// `k` entities (each with an empty delta), whose count every language
/// charges `M(K) + max(M(V), P(V))` per entry (docs/security.md): 8 entries
/// under a budget that holds them by 3 bytes, under 1 byte less than they
/// need, and 9 entries under the first budget.
pub fn changed_entries_at_the_budget() -> Vec<(World, Vec<u8>, Limits)> {
    let base = world(10);
    let changed = |k: u32| {
        let mut body = vec![1, 0b10, 0, 0, 0, 0, 0, 0, 0, 0];
        body.extend(k.to_le_bytes());
        for key in 0..k {
            body.extend(key.to_le_bytes());
            body.extend([1, 0, 0, 0, 0]);
        }
        let mut out = (body.len() as u32).to_le_bytes().to_vec();
        out.extend(body);
        out
    };
    let budget = |b: usize| Limits {
        decode_budget_base: b,
        decode_budget_per_byte: 0,
        ..Limits::DEFAULT
    };
    // The least budget that applies `bytes`.
    let least = |bytes: &[u8]| {
        let (mut lo, mut hi) = (0, 1 << 20);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let mut v = base.clone();
            if pkt_runtime::delta::apply(&mut v, bytes, &budget(mid)).is_ok() {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    };
    let (eight, nine) = (changed(8), changed(9));
    let need = least(&eight);
    // One entry more costs the rule's charge, here the patch model: an
    // entity's patch (an `Option` per field, a map patch for `tags`) is
    // charged more than the entity's model.
    assert_eq!(Entity::PATCH_MEMORY, 559);
    const { assert!(Entity::PATCH_MEMORY > Entity::MEMORY) };
    assert_eq!(least(&nine) - need, u32::MEMORY + Entity::PATCH_MEMORY);
    // Rejected at the count of the changed entries, before any is read.
    for (bytes, b) in [(&eight, need - 1), (&nine, need + 3)] {
        let e = pkt_runtime::delta::apply(&mut base.clone(), bytes, &budget(b)).unwrap_err();
        assert!(
            matches!(e.kind(), DecodeErrorKind::BudgetExceeded { .. }) && e.offset() == 14,
            "{e:?}"
        );
    }
    vec![
        (base.clone(), eight.clone(), budget(need + 3)),
        (base.clone(), eight, budget(need - 1)),
        (base, nine, budget(need + 3)),
    ]
}

//! The delta-snapshot benchmark's claims that do not depend on timing
//! (docs/benchmarks.md, "Delta snapshots"): the simulation changes what it
//! says it changes, applying every tick's delta to the previous world gives
//! exactly the tick's world, and the byte targets hold. The sizes are
//! deterministic, so these are exact checks, not measurements.

use std::sync::OnceLock;

use pkt_bench::world::{
    changed_entities, deltas, mean, total, Delta, Run, Sizes, CHANGED_PER_TICK, ENTITIES, TICKS,
};
use pkt_runtime::Encode;

fn run() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(Run::new)
}

#[test]
fn a_tenth_of_the_world_changes_every_tick() {
    let run = run();
    assert_eq!(run.full.len(), TICKS + 1);
    let mut respawns = 0;
    for (t, w) in run.full.windows(2).enumerate() {
        let (a, b) = (&w[0].entities, &w[1].entities);
        assert_eq!(b.len(), ENTITIES, "tick {}", t + 1);
        let changed = changed_entities(a, b);
        // A respawn adds a despawned and a spawned entity to the moved ones.
        assert!(
            changed == CHANGED_PER_TICK || changed == CHANGED_PER_TICK + 2,
            "tick {}: {changed} entities changed",
            t + 1
        );
        respawns += usize::from(changed != CHANGED_PER_TICK);
    }
    assert!(
        (10..=60).contains(&respawns),
        "{respawns} ticks respawned an entity"
    );
    // Every variant holds the same world; the quantized one within a step.
    for t in [0, TICKS / 2, TICKS] {
        assert_eq!(run.delta[t].encode_to_vec(), run.full[t].encode_to_vec());
        assert_eq!(run.mirror[t].entities.len(), run.full[t].entities.len());
        for (id, e) in &run.full[t].entities {
            let q = &run.quantized[t].entities[id];
            assert!((q.position.x - e.position.x).abs() <= 0.025 + 1e-3);
            assert!((q.rotation.y - e.rotation.y).abs() <= 0.005 + 1e-4);
            assert!((q.velocity.z - e.velocity.z).abs() <= 0.0005 + 1e-5);
            assert_eq!(q.inventory.len(), e.inventory.len());
        }
    }
}

/// A client that starts from the first world and applies each tick's delta
/// ends every tick with exactly the server's world.
fn replays<T: Delta>(worlds: &[T], variant: &str) {
    let mut client = worlds[0].clone();
    for (t, delta) in deltas(worlds).iter().enumerate() {
        let tick = t + 1;
        client
            .apply(delta)
            .unwrap_or_else(|e| panic!("{variant}: tick {tick}: {e}"));
        assert!(client == worlds[tick], "{variant}: tick {tick} differs");
        assert_eq!(
            client.encode_to_vec(),
            worlds[tick].encode_to_vec(),
            "{variant}: tick {tick}"
        );
    }
}

#[test]
fn applying_every_delta_rebuilds_every_tick() {
    let run = run();
    replays(&run.delta, "delta");
    replays(&run.quantized, "delta + quantized");
}

#[test]
fn delta_and_quantization_meet_the_byte_targets() {
    let s = Sizes::measure(run());
    for sizes in [&s.full, &s.delta, &s.quantized, &s.bitcode] {
        assert_eq!(sizes.len(), TICKS);
    }
    let (full, quantized, bitcode) = (total(&s.full), total(&s.quantized), total(&s.bitcode));
    eprintln!(
        "bytes per tick: pktc full {:.0}, delta {:.0}, delta + quantized {:.0}, bitcode {:.0}",
        mean(&s.full),
        mean(&s.delta),
        mean(&s.quantized),
        mean(&s.bitcode),
    );
    assert!(
        quantized * 8 <= full,
        "delta + quantized sends {quantized} bytes, pktc full {full}: less than 8x fewer"
    );
    assert!(
        quantized < bitcode,
        "delta + quantized sends {quantized} bytes, bitcode {bitcode}"
    );
    assert!(total(&s.quantized) < total(&s.delta));
    assert!(total(&s.delta) < total(&s.bitcode));
}

//! One error per input: the generated `decode`, `decode_into`, `view` and
//! `pktc inspect` (which decodes with the IR alone) accept the same inputs
//! and reject the others with the same error kind at the same offset; for
//! an accepted input, the value the generated decoder builds is the value
//! inspect shows (inspect's JSON of the input and of the decoded value
//! encoded again are equal, up to the order of map entries, which decoding
//! does not keep). The
//! inputs are the committed fuzz corpus and mutations of random valid
//! encodings of every type. Also: the decoded-size model each generated type
//! states is the IR's, and bounds the type's real size.

mod support;

use std::path::Path;

use pkt_rust_tests::{Entry, MODELS, TYPES};
use pkt_test_support::scaled;
use pktc::ir::{Ir, TypeId, TypeKind};
use pktc::tools::inspect;
use support::{ir, qualified, Gen, Rng};

/// What inspect makes of `bytes`: its JSON as a value (whose objects, maps
/// included, compare without regard to order), or the error.
fn inspect_value(ir: &Ir, id: TypeId, bytes: &[u8]) -> Result<serde_json::Value, (String, usize)> {
    match inspect::decode(ir, id, bytes, inspect::Limits::DEFAULT) {
        (tree, None) => {
            let json = as_decoded(ir, &tree, inspect::to_json(&tree));
            Ok(serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}")))
        }
        (_, Some(e)) => Err((format!("{:?}", e.kind), e.offset)),
    }
}

/// Inspect's JSON without the unknown fields of messages that do not
/// preserve them, which the generated decoders skip by design. Inspect
/// writes them last in the message's object, as `"@unknown":"<hex>"`.
fn as_decoded(ir: &Ir, tree: &inspect::Tree<'_>, mut json: String) -> String {
    let mut stack = vec![tree.root()];
    while let Some(node) = stack.pop() {
        stack.extend(tree.children(node));
        let inspect::Kind::Message { id, unknown } = tree.node(node).kind else {
            continue;
        };
        let TypeKind::Message {
            preserve_unknown, ..
        } = ir.ty(id).kind
        else {
            unreachable!("a message node has a message type");
        };
        if preserve_unknown || unknown.1 == 0 {
            continue;
        }
        let hex = pkt_test_support::hex::encode(tree.bytes(unknown));
        let field = format!("\"@unknown\":\"{hex}\"}}");
        json = if json.contains(&format!(",{field}")) {
            json.replacen(&format!(",{field}"), "}", 1)
        } else {
            json.replacen(&format!("{{{field}"), "{}", 1)
        };
    }
    json
}

/// Checks one input; returns whether it was rejected.
fn agree(ir: &Ir, id: TypeId, entry: &Entry, bytes: &[u8], what: &str) -> bool {
    let [decoded, into] = (entry.outcomes)(bytes);
    let inspected = inspect_value(ir, id, bytes);
    assert_eq!(decoded, into, "{what}: decode and decode_into disagree");
    assert_eq!(
        decoded,
        inspected.as_ref().map(drop).map_err(Clone::clone),
        "{what}: decode and inspect disagree"
    );
    if let Ok(json) = &inspected {
        let again = (entry.reencode)(bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(
            Ok(json),
            inspect_value(ir, id, &again).as_ref(),
            "{what}: the decoded value is not the value inspect shows"
        );
    }
    (entry.each)(bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
    if let Some(viewed) = (entry.view)(bytes) {
        let viewed = viewed.unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(decoded, viewed, "{what}: decode and view disagree");
    }
    decoded.is_err()
}

fn entries(ir: &Ir) -> Vec<(TypeId, &'static Entry)> {
    (0..ir.types.len())
        .map(|i| {
            let name = qualified(ir, TypeId(i));
            let entry = TYPES.iter().find(|e| e.name == name).expect("generated");
            (TypeId(i), entry)
        })
        .collect()
}

#[test]
fn corpus_and_mutations_get_one_answer_from_every_decoder() {
    let ir = ir();
    let entries = entries(&ir);
    let by_selector = |sel: u8| {
        let entry = &TYPES[sel as usize % TYPES.len()];
        *entries
            .iter()
            .find(|(_, e)| e.name == entry.name)
            .expect("every entry has a type")
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/decode");
    let (mut n, mut rejected) = (0, 0);
    for file in std::fs::read_dir(&dir).expect("fuzz/corpus/decode exists") {
        let path = file.expect("entry").path();
        let data = std::fs::read(&path).expect("readable");
        let Some((&sel, input)) = data.split_first() else {
            continue;
        };
        let (id, entry) = by_selector(sel);
        rejected += usize::from(agree(&ir, id, entry, input, &path.display().to_string()));
        n += 1;
    }
    let mut rng = Rng(0xA11C_E5EE_D000_0001);
    let cases = pkt_test_support::scaled(4_000u64, 20_000);
    for case in 0..cases {
        let (id, entry) = entries[(case % entries.len() as u64) as usize];
        let mut bytes = Gen::new(&ir, case).encode(id);
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(bytes.len() as u64 + 1) as usize;
            match rng.below(5) {
                0 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
                1 if at < bytes.len() => bytes[at] = 0xFF,
                2 => bytes.insert(at, rng.next() as u8),
                3 => bytes.truncate(at),
                _ => {
                    let n = rng.below(1 << 20) as u32;
                    let at = at.min(bytes.len().saturating_sub(4));
                    if bytes.len() >= 4 {
                        bytes[at..at + 4].copy_from_slice(&n.to_le_bytes());
                    }
                }
            }
        }
        let what = format!("case {case} ({})", entry.name);
        rejected += usize::from(agree(&ir, id, entry, &bytes, &what));
        // decode_into over a different value reuses its parts, and still
        // gives the same answer. The value must decode: a random one may be
        // over the decode budget of its own small encoding (a map of large
        // sparse arrays), so the next seeds are tried.
        let prior = (0..8)
            .map(|k| Gen::new(&ir, case + 7 + (k << 32)).encode(id))
            .find(|p| (entry.outcomes)(p)[0].is_ok())
            .unwrap_or_else(|| panic!("{what}: no valid prior value in 8 seeds"));
        let [decoded, _] = (entry.outcomes)(&bytes);
        assert_eq!(
            (entry.outcome_over)(&bytes, &prior),
            decoded,
            "{what}: decode_into over another value disagrees"
        );
        n += 1;
    }
    // Enough of both: errors to compare, and accepted values. A quarter of
    // the types are the 62 structs of schemas/hostile.pkt's map chain,
    // whose values almost no mutation leaves valid, so a sixth of the
    // cases are required to be accepted (about a quarter are).
    assert!(
        n > cases as usize && rejected > cases as usize / 4 && n - rejected > cases as usize / 6,
        "{n} inputs, {rejected} rejected"
    );
}

/// The types with `@max` on their elements, keys and values
/// (`schemas/limits.pkt`): valid encodings with one prefix set just past a
/// limit get one answer from every decoder, inspect included, and every
/// kind of part is rejected by its own limit, named alike.
#[test]
fn element_limits_get_one_answer_from_every_decoder() {
    let ir = ir();
    let entries = entries(&ir);
    let limited: Vec<_> = entries
        .iter()
        .filter(|(_, e)| e.name.starts_with("test.limits."))
        .collect();
    assert_eq!(limited.len(), 3, "Chat, Line and Packet");
    let mut rng = Rng(0xE1E_3E47_0000_0001);
    let mut parts: std::collections::BTreeMap<String, usize> = Default::default();
    for case in 0..scaled(4_000, 20_000) {
        let &&(id, entry) = &limited[(case % limited.len() as u64) as usize];
        let mut bytes = Gen::new(&ir, case).encode(id);
        if bytes.len() < 4 {
            continue;
        }
        // One past the limits of `schemas/limits.pkt`, or far past them.
        let n = [3u32, 4, 5, 6, 7, 9, 11, 25, 33, 257, 1 << 20][rng.below(11) as usize];
        let at = rng.below(bytes.len() as u64 - 3) as usize;
        bytes[at..at + 4].copy_from_slice(&n.to_le_bytes());
        let what = format!("case {case} ({})", entry.name);
        agree(&ir, id, entry, &bytes, &what);
        let [decoded, _] = (entry.outcomes)(&bytes);
        if let Err((kind, _)) = decoded {
            if let Some(field) = kind
                .strip_prefix("FieldTooLong { field: \"")
                .and_then(|k| k.split('"').next())
            {
                *parts.entry(field.to_string()).or_default() += 1;
            }
        }
    }
    // Every bounded part, each element, key and value of every depth.
    for part in [
        "test.limits.Chat.mentions",
        "test.limits.Chat.mentions[]",
        "test.limits.Chat.tags[key]",
        "test.limits.Chat.tags[value]",
        "test.limits.Chat.notes[]",
        "test.limits.Chat.grid",
        "test.limits.Chat.grid[]",
        "test.limits.Chat.grid[][]",
        "test.limits.Chat.slots[]",
        "test.limits.Chat.groups[value]",
        "test.limits.Line.words[]",
        "test.limits.Line.keys[key]",
        "test.limits.Packet.Say[]",
        "test.limits.Packet.Lines[value]",
    ] {
        assert!(
            parts.get(part).is_some_and(|&n| n > 0),
            "{part} never rejected: {parts:?}"
        );
    }
}

#[test]
fn item_eight_inputs_get_the_canonical_errors() {
    let ir = ir();
    let entries = entries(&ir);
    let limited = entries
        .iter()
        .find(|(_, e)| e.name == "test.amplify.Limited")
        .expect("Limited");
    // `s: string @max(3)` with a length of 4 and no bytes after it.
    let mut bytes = vec![8, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
    let [decoded, _] = (limited.1.outcomes)(&bytes);
    let (kind, at) = decoded.expect_err("rejected");
    assert!(kind.starts_with("FieldTooLong"), "{kind}");
    assert_eq!(at, 4);
    assert!(agree(&ir, limited.0, limited.1, &bytes, "@max"));
    // `flags: [bool; 3]` cut after its first byte: the second bool is missing.
    bytes = vec![6, 0, 0, 0, 0, 0, 0, 0, 1, 0];
    bytes.truncate(9);
    bytes[0] = 5;
    let [decoded, _] = (limited.1.outcomes)(&bytes);
    let (kind, at) = decoded.expect_err("rejected");
    assert!(kind.starts_with("UnexpectedEnd"), "{kind}");
    assert_eq!(at, 9, "the offset of the first bool that is not there");
    assert!(agree(&ir, limited.0, limited.1, &bytes, "[bool; 3]"));
}

#[test]
fn every_generated_type_states_the_ir_model_which_bounds_its_size() {
    let mut checked = 0;
    for entry in TYPES {
        let (_, model) = MODELS
            .iter()
            .find(|(name, _)| *name == entry.name)
            .expect("every type has a model");
        assert_eq!(
            entry.memory as u64, *model,
            "{}: Decode::MEMORY",
            entry.name
        );
        assert!(
            *model >= entry.size as u64,
            "{}: model {model} below size_of {}",
            entry.name,
            entry.size
        );
        checked += 1;
    }
    assert_eq!(checked, MODELS.len());
}

/// A message whose one field is a list of `count` copies of `elem`.
fn list_message(elem: &[u8], count: usize) -> Vec<u8> {
    let mut body = (count as u32).to_le_bytes().to_vec();
    for _ in 0..count {
        body.extend_from_slice(elem);
    }
    let mut out = (body.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(&body);
    out
}

#[test]
fn budget_errors_agree_on_every_amplifier() {
    let ir = ir();
    let entries = entries(&ir);
    let find = |name: &str| {
        *entries
            .iter()
            .find(|(_, e)| e.name == name)
            .expect("amplifier type")
    };
    let shapes: [(&str, &[u8]); 6] = [
        ("test.amplify.OptionalBigs", &[0]),
        ("test.amplify.Bigs", &[0, 0, 0, 0]),
        ("test.amplify.VariantList", &[1, 0, 0, 0, 9]),
        ("test.amplify.VariantList", &[5, 0, 0, 0, 2, 0, 0, 0, 0]),
        ("test.amplify.Defaults", &[0, 0, 0, 0]),
        ("test.amplify.Strings", &[0, 0, 0, 0]),
    ];
    let mut over = 0;
    for (name, elem) in shapes {
        let (id, entry) = find(name);
        for count in [
            1, 10, 30, 31, 32, 33, 40, 100, 250, 300, 1000, 1100, 1200, 5000,
        ] {
            let bytes = list_message(elem, count);
            let [decoded, _] = (entry.outcomes)(&bytes);
            if let Err((kind, _)) = &decoded {
                assert!(
                    kind.starts_with("BudgetExceeded"),
                    "{name} x {count}: {kind}"
                );
                over += 1;
            }
            agree(&ir, id, entry, &bytes, &format!("{name} x {count}"));
        }
    }
    assert!(over > 10, "only {over} inputs went over the budget");
}

//! Every generated type of every example schema: no panic, decode and
//! decode_into agreeing on every input (error kind and offset), allocation
//! within the bound of the decode budget, decode → encode → decode
//! stability, and `pktc inspect` (which decodes with the IR alone) giving
//! the same answer as the generated decoder.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pkt_rust_tests::{fuzzing, TYPES};
use pktc::tools::inspect;
use pktc::ir::Ir;

pkt_test_support::counting_allocator!();

fn measure(f: &mut dyn FnMut()) -> usize {
    pkt_test_support::alloc::measure(f).1.bytes
}

/// The IR of the schemas the generated types come from.
fn ir() -> &'static Ir {
    static IR: OnceLock<Ir> = OnceLock::new();
    IR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
        let mut schemas: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("schemas/ is readable")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "pkt"))
            .collect();
        schemas.sort();
        pktc::check(&schemas).unwrap_or_else(|f| panic!("{f}")).ir
    })
}

fuzz_target!(|data: &[u8]| {
    if let Err(e) = fuzzing::decode(data, measure) {
        panic!("{e}");
    }
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let entry = &TYPES[selector as usize % TYPES.len()];
    let id = inspect::find_type(ir(), entry.name).expect("every generated type is in the IR");
    let inspected = inspect::decode(ir(), id, input, inspect::Limits::DEFAULT)
        .1
        .map(|e| (format!("{:?}", e.kind), e.offset));
    let [decoded, _] = (entry.outcomes)(input);
    assert_eq!(
        decoded.err(),
        inspected,
        "{}: decode and inspect disagree",
        entry.name
    );
});

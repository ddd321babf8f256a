//! Runs one operation on one recursive shape at one depth on a thread with a
//! given stack, and exits 0 if it finished (a stack overflow aborts the
//! process). `docs/security.md` gives the script that searches for the
//! smallest stack each depth needs:
//!
//! ```text
//! cargo run --release -p pkt-rust-tests --example stack_probe -- DeepBig decode 64 2048
//! ```
//!
//! Arguments: shape (`DeepBig`, `BigRec`, `BigTree`, `LinkedNode`,
//! `TreeNode`, `BinaryExpr`, `CallExpr`, `ArrayTree`, `ArrayForest`),
//! operation (`decode`, `decode_into`, `encode`, `view`: view and its owned
//! value), nesting depth in messages and unions, stack size in KiB.

use pkt_rust_tests::deep::{Deep, Op};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [shape, op, depth, kib] = args.as_slice() else {
        eprintln!("usage: stack_probe SHAPE decode|decode_into|encode|view DEPTH STACK_KIB");
        std::process::exit(2);
    };
    let op = match op.as_str() {
        "decode" => Op::Decode,
        "decode_into" => Op::DecodeInto,
        "encode" => Op::Encode,
        "view" => Op::View,
        other => panic!("no operation {other}"),
    };
    let depth: u32 = depth.parse().expect("depth is a number");
    let kib: usize = kib.parse().expect("stack size is a number");
    let value = Deep::new(shape, depth);
    let bytes = value.encode_unchecked();
    let result = std::thread::Builder::new()
        .stack_size(kib << 10)
        .spawn(move || value.run(op, &bytes))
        .expect("thread starts")
        .join()
        .expect("no panic");
    println!("{result:?}");
}

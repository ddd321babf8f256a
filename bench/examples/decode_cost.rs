//! Decodes one data set of the benchmark matrix many times with one codec,
//! for comparing instruction counts under `valgrind --tool=callgrind`:
//!
//! ```text
//! cargo build --release -p pkt-bench --example decode_cost
//! valgrind --tool=callgrind target/release/examples/decode_cost Inventory pktc 1000
//! ```
//!
//! The setup (building and encoding every codec's value) is the same for
//! any count, so the difference between two counts divided by the
//! difference in count is the cost of one decode. `decode_into` as the codec
//! name runs pktc's `decode_into`; a read-side row is named by codec and
//! operation, e.g. `"pktc view/all fields"`; `encode:CODEC` encodes instead
//! (into the codec's reused buffer, as the encode rows do).

use std::hint::black_box;

use pkt_bench::codec::Codec;
use pkt_bench::suite::{self, Visitor};
use rkyv::util::AlignedVec;

struct Run {
    codec: String,
    n: usize,
    ran: bool,
}

impl Visitor for Run {
    fn codec<T, C>(&mut self, _dataset: &'static str, codec: &'static str, value: &T, mut c: C)
    where
        T: Clone + PartialEq + core::fmt::Debug,
        C: Codec<T>,
    {
        if let Some(encoder) = self.codec.strip_prefix("encode:") {
            if codec == encoder {
                for _ in 0..self.n {
                    black_box(c.encode(black_box(value)));
                }
                self.ran = true;
            }
            return;
        }
        if codec != self.codec {
            return;
        }
        let mut wire = AlignedVec::<16>::new();
        wire.extend_from_slice(c.encode(value));
        for _ in 0..self.n {
            black_box(c.decode(black_box(&wire)));
        }
        self.ran = true;
    }

    fn decode_into<T>(
        &mut self,
        _dataset: &'static str,
        value: &T,
        wire: Vec<u8>,
        into: fn(&[u8], &mut T),
    ) where
        T: Clone + PartialEq + core::fmt::Debug,
    {
        if self.codec != "decode_into" {
            return;
        }
        let mut target = value.clone();
        for _ in 0..self.n {
            into(black_box(&wire), &mut target);
            black_box(&target);
        }
        self.ran = true;
    }

    fn read(
        &mut self,
        _dataset: &'static str,
        codec: &'static str,
        op: &'static str,
        wire: &[u8],
        read: fn(&[u8]) -> u64,
        _expected: u64,
    ) {
        if self.codec != format!("{codec}/{op}") {
            return;
        }
        let mut aligned = AlignedVec::<16>::new();
        aligned.extend_from_slice(wire);
        for _ in 0..self.n {
            black_box(read(black_box(&aligned)));
        }
        self.ran = true;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dataset, codec, n] = args.as_slice() else {
        eprintln!("usage: decode_cost DATASET CODEC COUNT");
        std::process::exit(2);
    };
    let mut run = Run {
        codec: codec.clone(),
        n: n.parse().expect("count is a number"),
        ran: false,
    };
    suite::run(&mut run, Some(dataset));
    if !run.ran {
        eprintln!("no codec {codec} on a data set matching {dataset}");
        std::process::exit(1);
    }
}

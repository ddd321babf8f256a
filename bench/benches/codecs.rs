//! Criterion benchmarks: every codec on every data set (see `pkt_bench::suite`).
//!
//! `cargo bench -p pkt-bench` runs them all; `cargo bench -p pkt-bench --
//! Mesh` runs the ones whose id matches the regular expression "Mesh" (ids
//! are `{data set}/{codec}/{operation}`, e.g. `Mesh/pktc view/all fields`;
//! `-- 'pktc view|rkyv access'` runs the read-side rows). Then
//! `cargo run -p pkt-bench --release --bin report` writes docs/benchmarks.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use pkt_bench::codec::Codec;
use pkt_bench::suite::{self, Visitor};
use rkyv::util::AlignedVec;

struct Bench<'a> {
    c: &'a mut Criterion,
}

impl Visitor for Bench<'_> {
    fn codec<T, C>(&mut self, dataset: &'static str, codec: &'static str, value: &T, mut c: C)
    where
        T: Clone + PartialEq + core::fmt::Debug,
        C: Codec<T>,
    {
        let mut g = self.c.benchmark_group(dataset);
        g.bench_function(format!("{codec}/encode"), |b| {
            b.iter(|| black_box(c.encode(black_box(value)).len()));
        });
        let mut wire = AlignedVec::<16>::new();
        wire.extend_from_slice(c.encode(value));
        // The decoded value is dropped inside the timed loop, as it would be
        // in a server loop.
        g.bench_function(format!("{codec}/decode"), |b| {
            b.iter(|| black_box(c.decode(black_box(&wire))));
        });
        g.finish();
    }

    fn decode_into<T>(
        &mut self,
        dataset: &'static str,
        value: &T,
        wire: Vec<u8>,
        into: fn(&[u8], &mut T),
    ) where
        T: Clone + PartialEq + core::fmt::Debug,
    {
        let mut target = value.clone();
        let mut g = self.c.benchmark_group(dataset);
        g.bench_function("pktc/decode_into", |b| {
            b.iter(|| {
                into(black_box(&wire), &mut target);
                black_box(&target);
            });
        });
        g.finish();
    }

    fn read(
        &mut self,
        dataset: &'static str,
        codec: &'static str,
        op: &'static str,
        wire: &[u8],
        read: fn(&[u8]) -> u64,
        expected: u64,
    ) {
        assert_eq!(read(wire), expected, "{dataset}/{codec}/{op}");
        let mut g = self.c.benchmark_group(dataset);
        g.bench_function(format!("{codec}/{op}"), |b| {
            b.iter(|| black_box(read(black_box(wire))));
        });
        g.finish();
    }
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .without_plots()
        .configure_from_args();
    suite::run(&mut Bench { c: &mut c }, None);
    c.final_summary();
}

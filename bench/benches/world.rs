//! Criterion benchmarks of the delta-snapshot world (`pkt_bench::world`):
//! each iteration sends or receives all 300 ticks of the run, so a tick costs
//! the median divided by [`TICKS`]. Ids are `World deltas/{way}/{operation}`:
//!
//! - `pktc full`, `bitcode`: encode every tick's whole world into a reused
//!   buffer; decode every tick's encoding into a new world;
//! - `pktc delta`, `pktc delta + quantized`: encode every tick's delta from
//!   the tick before into a reused `Vec`; apply them in order to a copy of
//!   the first world (copied outside the timed loop).
//!
//! `cargo bench -p pkt-bench --bench world`, then
//! `cargo run -p pkt-bench --release --bin report -- --delta-only` writes
//! the section of docs/benchmarks.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, BenchmarkGroup, Criterion};
use pkt_bench::world::{deltas, Delta, Run, DATASET, TICKS};
use pkt_runtime::{Decode, Encode};

type Group<'a> = BenchmarkGroup<'a, criterion::measurement::WallTime>;

fn full<T: Encode + Decode>(g: &mut Group<'_>, way: &str, worlds: &[T]) {
    let mut buf = Vec::new();
    g.bench_function(format!("{way}/encode"), |b| {
        b.iter(|| {
            for w in &worlds[1..] {
                buf.clear();
                w.encode_into(&mut buf).expect("within limits");
                black_box(buf.len());
            }
        });
    });
    let wires: Vec<Vec<u8>> = worlds[1..]
        .iter()
        .map(|w| w.encode_to_vec().expect("within limits"))
        .collect();
    g.bench_function(format!("{way}/decode"), |b| {
        b.iter(|| {
            for wire in &wires {
                black_box(T::decode(black_box(wire)).expect("its own encoding"));
            }
        });
    });
}

fn delta<T: Delta>(g: &mut Group<'_>, way: &str, worlds: &[T]) {
    let mut buf = Vec::new();
    g.bench_function(format!("{way}/encode"), |b| {
        b.iter(|| {
            for w in worlds.windows(2) {
                buf.clear();
                w[1].delta_into(&w[0], &mut buf);
                black_box(buf.len());
            }
        });
    });
    let wires = deltas(worlds);
    g.bench_function(format!("{way}/apply"), |b| {
        b.iter_batched_ref(
            || worlds[0].clone(),
            |client| {
                for wire in &wires {
                    client.apply(black_box(wire)).expect("its own delta");
                }
                black_box(&*client);
            },
            BatchSize::LargeInput,
        );
    });
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .sample_size(20)
        .without_plots()
        .configure_from_args();
    let run = Run::new();
    assert_eq!(run.full.len(), TICKS + 1);
    let mut g = c.benchmark_group(DATASET);
    full(&mut g, "pktc full", &run.full);
    delta(&mut g, "pktc delta", &run.delta);
    delta(&mut g, "pktc delta + quantized", &run.quantized);
    let mut buffer = bitcode::Buffer::new();
    g.bench_function("bitcode/encode", |b| {
        b.iter(|| {
            for w in &run.mirror[1..] {
                black_box(buffer.encode(w).len());
            }
        });
    });
    let wires: Vec<Vec<u8>> = run.mirror[1..].iter().map(bitcode::encode).collect();
    g.bench_function("bitcode/decode", |b| {
        b.iter(|| {
            for wire in &wires {
                black_box(
                    buffer
                        .decode::<pkt_bench::world::mirror::World>(black_box(wire))
                        .expect("its own encoding"),
                );
            }
        });
    });
    g.finish();
    c.final_summary();
}

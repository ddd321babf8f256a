#!/usr/bin/env bash
# Runs every fuzz target for a share of the given number of seconds.
#
#   scripts/fuzz.sh 300            # 300 s in total, split across targets
#   scripts/fuzz.sh 600 decode     # one target
#
# Targets: decode, schema, apply_delta (deltas applied to every @delta
# type), view_maps (views of the types that hold maps).
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). cargo-fuzz uses nightly
# compiler flags; on a stable toolchain RUSTC_BOOTSTRAP=1 enables them.
# Crashes are written to fuzz/artifacts/<target>/; add each to the corpus
# (fuzz/corpus/<target>/) once fixed, so `cargo test` replays it.
set -euo pipefail
cd "$(dirname "$0")/.."

total=${1:-300}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(decode schema apply_delta view_maps)
fi
each=$(( total / ${#targets[@]} ))

if ! command -v cargo-fuzz >/dev/null 2>&1; then
    echo "error: cargo-fuzz is not installed (cargo install cargo-fuzz)" >&2
    exit 2
fi
for seeded in decode apply_delta view_maps; do
    if [ ! -d "fuzz/corpus/$seeded" ] || [ -z "$(ls -A "fuzz/corpus/$seeded")" ]; then
        cargo run -q -p pkt-rust-tests --example fuzz_seeds -- "fuzz/corpus/$seeded" "$seeded"
    fi
done

export RUSTC_BOOTSTRAP=1
for t in "${targets[@]}"; do
    echo "== $t: ${each}s"
    cargo fuzz run --fuzz-dir fuzz "$t" "fuzz/corpus/$t" -- \
        -max_total_time="$each" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        2>&1 | tee "target/fuzz-$t.log" | grep -E "^#[0-9]+ +(DONE|pulse|NEW)|^stat::|Done|ERROR|panicked" | tail -n 12
done

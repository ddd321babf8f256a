#!/usr/bin/env bash
# Regenerates the Bebop Rust code for the benchmark from bench.bop.
# The generated file is committed, so building the benchmarks needs neither
# npm nor bebopc; run this only after changing bench.bop.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(cd "$here/../../src/peers/bebop" && pwd)/generated.rs"
tools="$(mktemp -d)"
trap 'rm -rf "$tools"' EXIT
# bebop-tools ships a native bebopc per platform; no install scripts needed.
(cd "$tools" && npm install --silent --no-save --ignore-scripts bebop-tools@3.2.3 >/dev/null)
case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "no bebopc for $(uname -m)" >&2; exit 1 ;;
esac
bebopc="$tools/node_modules/bebop-tools/tools/linux/$arch/bebopc"
chmod +x "$bebopc"
(cd "$here" && "$bebopc" -i bench.bop build -g "rust:$out")
echo "wrote $out"

#!/bin/sh
# The many-core runbook (docs/testing.md, "On a many-core machine") in one command, for a machine
# with many cores and perhaps no Node, from a checkout with dist/ built:
#
#   sh bench/many-core.sh OUTDIR
#
# 1. Node: the one on PATH, else .node/node.xz (a copy of this checkout's, git-ignored).
# 2. The P suite (node bench/run.mjs --only P): writes bench/results.json and docs/benchmarks.md,
#    copied to OUTDIR with its log.
# 3. The scatters' native thread test in a Release build, on real pools of every size from 2 to the
#    cores (at most 64): OUTDIR/native.log.
# OUTDIR/machine.txt: nproc and lscpu. Stops at the first step that fails.
set -eu
out=${1:?usage: sh bench/many-core.sh OUTDIR}
mkdir -p "$out"
if ! command -v node >/dev/null 2>&1; then
  xz -dc .node/node.xz > .node/node && chmod +x .node/node
  PATH="$PWD/.node:$PATH"
fi
cores=$(nproc)
{ echo "nproc: $cores"; lscpu 2>/dev/null || true; } > "$out/machine.txt"
node bench/run.mjs --only P > "$out/p.log" 2>&1 || { tail -20 "$out/p.log"; exit 1; }
cp bench/results.json docs/benchmarks.md "$out/"
cmake -DCMAKE_BUILD_TYPE=Release -S . -B build-rel > "$out/native-build.log" 2>&1
cmake --build build-rel --target test_scatter_threads --parallel "$cores" >> "$out/native-build.log" 2>&1
most=$((cores < 64 ? cores : 64))
build-rel/test_scatter_threads --pools "$(seq -s, 2 "$most")" > "$out/native.log" 2>&1 || { tail -20 "$out/native.log"; exit 1; }
tail -1 "$out/native.log"

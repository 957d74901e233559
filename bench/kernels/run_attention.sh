#!/bin/sh
# Builds bench/kernels/attention_bench.cu (unless $ATTENTION_BIN names a built
# binary) and runs it: the correctness checks of every attention variant, then
# the timings (skipped with "quick"). Registers and spills of every kernel
# instance land in <build-dir>/regs.txt.
# Usage: bench/kernels/run_attention.sh [build-dir] [quick]
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/attention_bench}
mkdir -p "$out"
bin=${ATTENTION_BIN:-$out/attention_bench}
if [ -z "$ATTENTION_BIN" ]; then
  ${NVCC:-/usr/local/cuda/bin/nvcc} -std=c++17 -O3 \
    -gencode=arch=compute_90a,code=sm_90a -Xptxas -v \
    -I "$here/../../lib/Strategies/Kernels" "$here/attention_bench.cu" \
    -o "$bin" >"$out/ptxas.log" 2>&1 || { cat "$out/ptxas.log"; exit 1; }
  grep -E "Compiling entry|registers|spill" "$out/ptxas.log" >"$out/regs.txt" || true
fi
"$bin" $2

#!/bin/sh
# Builds bench/kernels/wgmma_bench.cu (unless $WGMMA_BIN names a built binary)
# and runs it. Usage: bench/kernels/run_wgmma.sh [build-dir] [quick]
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/wgmma_bench}
mkdir -p "$out"
bin=${WGMMA_BIN:-$out/wgmma_bench}
if [ -z "$WGMMA_BIN" ]; then
  ${NVCC:-/usr/local/cuda/bin/nvcc} -std=c++17 -O3 \
    -gencode=arch=compute_90a,code=sm_90a -Xptxas -v "$here/wgmma_bench.cu" \
    -lcublas -o "$bin" >"$out/ptxas.log" 2>&1 || { cat "$out/ptxas.log"; exit 1; }
  grep -E "Compiling entry|registers|spill" "$out/ptxas.log" >"$out/regs.txt" || true
fi
"$bin" $2

#!/bin/sh
# Builds bench/kernels/gemm_bench.cu (one object per kernel family and operand orientation, in
# parallel) and runs it. Usage: bench/kernels/run.sh [build-dir] [shape filter]
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/gemm_bench}
mkdir -p "$out"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
flags="-std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -Xptxas -v"
pids=""
for fam in SIMT TF32; do
  for ta in 0 1; do
    for tb in 0 1; do
      $nvcc $flags -DPART_$fam -DPTA=$ta -DPTB=$tb -c "$here/gemm_bench.cu" \
        -o "$out/$fam$ta$tb.o" >"$out/ptxas_$fam$ta$tb.log" 2>&1 &
      pids="$pids $!"
    done
  done
done
$nvcc $flags -DPART_WGTF32 -c "$here/gemm_bench.cu" -o "$out/WGTF32.o" \
  >"$out/ptxas_WGTF32.log" 2>&1 &
pids="$pids $!"
$nvcc $flags -DPART_MAIN -c "$here/gemm_bench.cu" -o "$out/main.o" >"$out/ptxas_main.log" 2>&1 &
pids="$pids $!"
fail=0
for p in $pids; do wait $p || fail=1; done
if [ $fail = 1 ]; then cat "$out"/ptxas_*.log; exit 1; fi
$nvcc -gencode=arch=compute_90a,code=sm_90a "$out"/*.o -lcublas -o "$out/gemm_bench"
# Registers and spills per kernel.
cat "$out"/ptxas_SIMT*.log "$out"/ptxas_TF32*.log "$out"/ptxas_WGTF32.log | grep -E "Compiling entry|registers|spill" |
  sed -e 's/.*Compiling entry function .\(_Z[^ ]*\).*/\1/' >"$out/regs.txt" || true
if [ -n "$NO_RUN" ]; then exit 0; fi
NVIDIA_TF32_OVERRIDE=0 "$out/gemm_bench" $2

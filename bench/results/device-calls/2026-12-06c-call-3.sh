#!/bin/sh
# Device call 3 of 2026-12-06 (third session), H100: the wgmma 3xTF32 kernel
# (GemmWgmmaTf32.cuh at fa18f9f) against cuBLAS sgemm on linear-layer
# shapes. Built on the host with `NO_RUN=1 bench/kernels/run.sh
# .bundle/gemm_bench`; carried: .bundle/gemm_bench.
# Results: bench/results/gemm-wgmma-tf32-2026-12-06c-h100{,-ragged}.log.
# (Call 1 timed the mma.sync 3xTF32 kernel on the same shapes,
# gemm-3xtf32-2026-12-06c-h100-linear.log, and hung on a first wgmma
# version that asked setmaxnreg for more registers than the block had;
# call 2 timed a first working version that split both operands in the producer: 51.8 TFLOP/s at 4096^3.)
cd .bundle/gemm_bench
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH NVIDIA_TF32_OVERRIDE=0
timeout 40 ./gemm_bench linear_ragged wgtf32 > $OUT/wg1.log 2>&1
for f in llama bert linear_4096 transposed_b; do
  timeout 60 ./gemm_bench $f wgtf32 2>&1 | grep -E "^==|  wgtf32|rc "
done > $OUT/wg2.log 2>&1

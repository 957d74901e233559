#!/bin/bash
# Device call 0 (2026-12-07, fourteenth session): gemm_wgmma_3xtf32 with A
# split by the producer and both operands read from shared memory (two
# partial sums in turn, so that a stage's adds overlap the next stage's
# products) against the kernel of main at 358c32f. Carry: .bundle/gb
# (bench/kernels/gemm_bench of 358c32f, `NO_RUN=1 bench/kernels/run.sh`)
# and .bundle/gb2 (the same with the new GemmWgmmaTf32.cuh).
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results0; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
for S in "llama" "linear_4096" "linear_ragged" "bert" "matmul_transposed_b"; do
  for V in gb gb2; do
    echo "=== $V $S" >> $R/gemm-wgtf32.log
    timeout 100 env NVIDIA_TF32_OVERRIDE=0 .bundle/$V/gemm_bench "$S" wgtf32 >> $R/gemm-wgtf32.log 2>&1
  done
  tar -czf $OUT/results.tgz -C $R .
done

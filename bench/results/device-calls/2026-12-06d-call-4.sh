#!/bin/bash
# Device call 4 (2026-12-06, fourth session; call 3, the whole CUDA lit
# suite, was taken back by the machine before it returned anything): the
# CUDA lit tests of the wgmma families and of substituted winners (the
# GemmWgmma.cuh frame changed under them, launches carry tensor maps), the
# CUDA target's unit tests, then stark-eval timing the first candidate of
# gemm_wgmma_tma and of gemm_wgmma on the suite's matmul_rect_bf16.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results4; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
D=test/Integration/CUDA
timeout 200 /tmp/stark/run-tests.sh -v $D/templates/gemm-wgmma-tma.mlir $D/substitute-cuda-tma-winner.mlir $D/templates/gemm-wgmma.mlir $D/templates/gemm-wgmma-3xtf32.mlir $D/substitute-cuda-winner.mlir $D/faults > $R/cuda-lit-tma.log 2>&1; echo "rc=$?" >> $R/cuda-lit-tma.log
tar -czf $OUT/results.tgz -C $R .
timeout 40 /tmp/stark/unittests/Target/StarkCudaTargetTests > $R/unit-cuda-target.log 2>&1; echo "rc=$?" >> $R/unit-cuda-target.log
tar -czf $OUT/results.tgz -C $R .
/tmp/stark/bin/stark-opt bench/problems/matmul_rect_bf16.mlir --stark-hot-ops=top-k=0 --stark-outline=dir=/tmp/o > /dev/null 2>&1
q=$(ls -S /tmp/o/*.mlir | head -1)
for f in gemm_wgmma_tma gemm_wgmma; do
  /tmp/stark/bin/stark-template --problem $q --family $f > /tmp/$f.mlir
  timeout 60 /tmp/stark/bin/stark-eval --target cuda --problem $q --candidate /tmp/$f.mlir > $R/eval-matmul_rect_bf16-$f.log 2>&1
done
tar -czf $OUT/results.tgz -C $R .

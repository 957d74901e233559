#!/bin/bash
# Device call 1 (2026-12-06, eighth session): what call 4 of the seventh
# session would have run, without the LLaMA block (it runs after the fusion
# changes of this session). A bundle of main at 861859b (carried as
# .bundle/b5/stark-bundle.tar.xz) and the wgmma bench (carried).
# 1. The wgmma bench's "tma" mode: the 64 x 128 tile (bm=64, one consumer
#    warpgroup) on the odd shapes (checked) and on the LLaMA projections
#    against cuBLAS.
# 2. GPU tests never run or changed since their last run:
#    templates/gemm-wgmma-tma.mlir (the 64-row tile), intermediate-rounding-
#    cuda.mlir, stark-pipeline-cuda.mlir (min-speedup=1), and the planted
#    and correct-candidate suites as a check of the judge's changes, and
#    templates/attention.mlir (heads read and written as [S, H, D]).
B=/tmp/stark-$(md5sum .bundle/b5/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b5/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 90 .bundle/wgmma_bench/wgmma_bench tma > $R/wgmma-bench-tma.log 2>&1; echo "rc=$?" >> $R/wgmma-bench-tma.log
tar -czf $OUT/results.tgz -C $R .
timeout 300 $B/run-tests.sh -v test/Integration/CUDA/templates/gemm-wgmma-tma.mlir \
  test/Integration/CUDA/intermediate-rounding-cuda.mlir test/Integration/CUDA/stark-pipeline-cuda.mlir \
  test/Integration/CUDA/planted-bugs.mlir test/Integration/CUDA/correct-candidates.mlir \
  test/Integration/CUDA/faults test/Integration/CUDA/templates/attention.mlir > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
tar -czf $OUT/results.tgz -C $R .

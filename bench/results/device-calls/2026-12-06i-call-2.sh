#!/bin/bash
# Device call 2 (2026-12-06, ninth session): split-K in gemm_wgmma_3xtf32.
# A bundle of main at e3e71ea (carried as .bundle/b6/stark-bundle.tar.xz).
# 1. GPU tests: templates/gemm-wgmma-3xtf32.mlir (three split plans and a
#    planted wrong split) and templates/gemm-split-k.mlir (the embedded-kernel
#    families' split-K, whose proposal code moved).
# 2. bench/kernels/run_wgmma_split_k.sh: the family's first pick (split)
#    against split_k=1 and gemm_3xtf32's first pick, on the BERT-base and
#    LLaMA f32 projections, B as N x K and as K x N.
B=/tmp/stark-$(md5sum .bundle/b6/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b6/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results2; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 200 $B/run-tests.sh -v test/Integration/CUDA/templates/gemm-wgmma-3xtf32.mlir \
  test/Integration/CUDA/templates/gemm-split-k.mlir > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
tar -czf $OUT/results.tgz -C $R .
timeout 330 bench/kernels/run_wgmma_split_k.sh $B/bin $R/split > $R/split-k.log 2>&1; echo "rc=$?" >> $R/split-k.log
rm -f $R/split/*.mlir
tar -czf $OUT/results.tgz -C $R .

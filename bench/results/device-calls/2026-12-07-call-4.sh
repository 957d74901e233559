#!/bin/bash
# NOT RUN: no device machine could be started this session (thirteen attempts,
# about 1640 of the 1800 device-seconds spent on failed starts).
# Device call 4 (2026-12-07, tenth session): what twelve failed starts left
# room for. A bundle of main at 20e3652 (.bundle/b12).
# 1. GPU tests: templates/gemm-skinny.mlir, faults/faults-races-sanitizer.mlir,
#    templates/gemm-wgmma-tma.mlir (see call 2).
# 2. run_gemm_skinny.sh on VGG-16's first classifier layer at batch 1 and
#    8 only: gemm_skinny's first plan against gemm_3xtf32's first pick.
B=/tmp/stark-$(md5sum .bundle/b12/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b12/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results4; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 80 $B/run-tests.sh -v test/Integration/CUDA/templates/gemm-skinny.mlir \
  test/Integration/CUDA/faults/faults-races-sanitizer.mlir \
  test/Integration/CUDA/templates/gemm-wgmma-tma.mlir > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
tar -czf $OUT/results.tgz -C $R .
SKINNY_SHAPES="1 4096 25088 kn;8 4096 25088 kn" SKINNY_PLANS=1 timeout 45 bench/kernels/run_gemm_skinny.sh $B/bin $R/skinny > $R/skinny.log 2>&1; echo "rc=$?" >> $R/skinny.log
tar -czf $OUT/results.tgz -C $R .

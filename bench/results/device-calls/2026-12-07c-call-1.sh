#!/bin/bash
# Device call 1 (2026-12-07, twelfth session), bundle of main at efda4db
# (.bundle/b12). Nothing of the tenth and eleventh sessions has run on a GPU.
# 1. The GPU suite (test/Integration/CUDA but the full-size tests). New since
#    its last run: templates/gemm-skinny.mlir, the deep split first sets in
#    templates/gemm-split-k.mlir, faults/faults-races-sanitizer.mlir (one
#    candidate run under the tool), gate-host-programs.mlir (whole programs
#    timed with their launches queued first), coverage-fallback-cuda.mlir
#    (gemm_skinny's first pick crashed by a stand-in worker).
# 2. bench/kernels/run_split_k_deep.sh (VGG-16's deep 3x3 convolutions: the
#    split first sets against the unsplit ones) and
#    bench/kernels/run_gemm_skinny.sh (few-row products of the zoo).
BUNDLE=.bundle/b12/stark-bundle.tar.xz
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 360 $B/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $R/cuda-lit-all.log 2>&1; echo "rc=$?" >> $R/cuda-lit-all.log
tar -czf $OUT/results.tgz -C $R .
timeout 90 bench/kernels/run_split_k_deep.sh $B/bin $R/split-k-deep > $R/split-k-deep.log 2>&1; echo "rc=$?" >> $R/split-k-deep.log
tar -czf $OUT/results.tgz -C $R .
timeout 90 bench/kernels/run_gemm_skinny.sh $B/bin $R/skinny > $R/skinny.log 2>&1; echo "rc=$?" >> $R/skinny.log
tar -czf $OUT/results.tgz -C $R .

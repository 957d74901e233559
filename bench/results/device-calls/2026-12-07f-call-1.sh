#!/bin/bash
# Device call 1 (2026-12-07, fifteenth session). Carry: .bundle/b1 (bundle
# of main with stark-eval --graph-host-programs, the runtime's lookups
# remembered (efe2718, never run on a GPU), and the refactors that cut the
# repeated code in lib/).
# 1. The CUDA-target unit tests.
# 2. VGG-16's 3x3 convolutions with gemm_wgmma_3xtf32 gathering A first
#    (im2col) against the other families' first picks
#    (bench/kernels/run_conv_im2col.sh).
# 3. The whole GPU suite but the full-size cases (the fourteenth session's
#    run: 50 of 51, gemm-kernels cut by the call's time), with
#    graph-host-programs.mlir and the convolutions of
#    templates/gemm-wgmma-3xtf32.mlir new, in what is left of the call.
T0=$(date +%s)
BUNDLE=.bundle/b1/stark-bundle.tar.xz
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
for t in $B/unittests/Target/*CudaTarget*; do timeout 60 $t > $R/$(basename $t).log 2>&1; echo "rc=$?" >> $R/$(basename $t).log; done
tar -czf $OUT/results.tgz -C $R .
timeout 170 sh bench/kernels/run_conv_im2col.sh $B/bin /tmp/convbench > $R/conv-im2col.log 2>&1; echo "rc=$?" >> $R/conv-im2col.log
tar -czf $OUT/results.tgz -C $R .
LEFT=$((${TOTAL:-570} - ($(date +%s) - T0)))
echo "suite limit ${LEFT}s" > $R/cuda-lit-all.log
timeout $LEFT $B/run-tests.sh -v --filter-out full-size test/Integration/CUDA >> $R/cuda-lit-all.log 2>&1; echo "rc=$?" >> $R/cuda-lit-all.log
tar -czf $OUT/results.tgz -C $R .

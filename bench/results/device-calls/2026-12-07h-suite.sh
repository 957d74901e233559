#!/bin/bash
# Device call for the GPU suite and the evaluation-cost probe (planned
# 2026-12-07; no device was lent in that session, so it has not run).
# Carry: .bundle/b1 (a bundle of main, scripts/make-bundle.sh).
# 1. The CUDA-target unit tests.
# 2. The whole GPU suite but the full-size cases, within SUITE (300) s.
# 3. Where one evaluation's wall time goes (bench/kernels/eval_phases.sh:
#    the LLaMA gate projection's first gemm_wgmma_3xtf32 candidate).
# 4. bench/kernels/run_conv_im2col.sh in what is left of TOTAL (575) s.
T0=$(date +%s)
BUNDLE=.bundle/b1/stark-bundle.tar.xz
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
for t in $B/unittests/Target/*CudaTarget*; do timeout 60 $t > $R/$(basename $t).log 2>&1; echo "rc=$?" >> $R/$(basename $t).log; done
tar -czf $OUT/results.tgz -C $R .
timeout ${SUITE:-300} $B/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $R/cuda-lit-all.log 2>&1; echo "rc=$?" >> $R/cuda-lit-all.log
tar -czf $OUT/results.tgz -C $R .
bash bench/kernels/eval_phases.sh $B/bin $R
tar -czf $OUT/results.tgz -C $R .
LEFT=$((${TOTAL:-575} - ($(date +%s) - T0)))
[ $LEFT -gt 30 ] && { timeout $LEFT sh bench/kernels/run_conv_im2col.sh $B/bin /tmp/convbench > $R/conv-im2col.log 2>&1; echo "rc=$?" >> $R/conv-im2col.log; }
tar -czf $OUT/results.tgz -C $R .

#!/bin/bash
# Device call 1 (2026-12-06, sixth session): causal attention. The kernel
# bench (bench/kernels/attention_bench.cu, built here with run_attention.sh's
# flags and carried: every variant on odd shapes with NaN in Q, inf in K,
# an all -inf mask row and inf in a V row most causal rows do not see; the
# causal -inf selected and added; then B=8 H=16 S=2048 D=128 timings, the
# causal ones including the scan), then the whole CUDA lit suite but the
# full-size tests (templates/attention.mlir with its causal evaluations
# among them).
B=/tmp/stark-$(md5sum .bundle/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 80 .bundle/attention_bench/attention_bench > $R/attention-bench.log 2>&1; echo "rc=$?" >> $R/attention-bench.log
tar -czf $OUT/results.tgz -C $R .
timeout 470 $B/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $R/cuda-lit-all.log 2>&1; echo "rc=$?" >> $R/cuda-lit-all.log
tar -czf $OUT/results.tgz -C $R .

#!/bin/bash
# Device call for the GPU suite and the evaluation-cost probe (planned
# 2026-12-07; no device was lent in that session, so it has not run).
# Carry: .bundle/b1 (a bundle of main, scripts/make-bundle.sh).
# 1. The CUDA-target unit tests.
# 2. The whole GPU suite but the full-size cases, within SUITE (300) s.
# 3. Where one evaluation's wall time goes (as PROBE in 2026-12-07h-models.sh:
#    the LLaMA gate projection's first gemm_wgmma_3xtf32 candidate, the
#    judge's phases with glibc's default allocator and with large blocks
#    kept, and under nsys where it exists).
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
which nsys perf > $R/probe-tools.txt 2>&1
$B/bin/stark-template --problem bench/kernels/inputs/llama-gate-f32.mlir --family gemm_wgmma_3xtf32 > /tmp/gate-cand.mlir 2> $R/probe-template.log
for V in default keep; do
  E=X=1; [ $V = keep ] && E=GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967296
  /usr/bin/time -f "%e s wall, %U s user, %S s sys, %M KB" env $E timeout 100 $B/bin/stark-eval --target cuda --json --problem bench/kernels/inputs/llama-gate-f32.mlir --candidate /tmp/gate-cand.mlir > $R/probe-$V.json 2> $R/probe-$V.time
done
tar -czf $OUT/results.tgz -C $R .
if which nsys > /dev/null 2>&1; then
  timeout 120 nsys profile -t cuda,osrt --stats=true -o /tmp/probe-nsys --force-overwrite true $B/bin/stark-eval --target cuda --json --problem bench/kernels/inputs/llama-gate-f32.mlir --candidate /tmp/gate-cand.mlir > $R/probe-nsys.txt 2>&1
  tar -czf $OUT/results.tgz -C $R .
fi
LEFT=$((${TOTAL:-575} - ($(date +%s) - T0)))
[ $LEFT -gt 30 ] && { timeout $LEFT sh bench/kernels/run_conv_im2col.sh $B/bin /tmp/convbench > $R/conv-im2col.log 2>&1; echo "rc=$?" >> $R/conv-im2col.log; }
tar -czf $OUT/results.tgz -C $R .

#!/bin/bash
# Device call 1 of 2026-12-07i: the CUDA-target unit tests, what one
# evaluation costs under the timing rules before and after f8fded3, and the
# GPU suite but its full-size cases. Carry: .bundle/b3 (scripts/make-bundle.sh
# of main at 5469592 or later).
# 1. StarkCudaTargetTests.
# 2. stark-eval of the LLaMA gate projection's first gemm_wgmma_3xtf32
#    candidate (bench/kernels/inputs/llama-gate-f32.mlir), each twice:
#    default options; --target-median-error=0 (the spread rule alone, as
#    before f8fded3, the settled baseline still sitting out); and screened
#    as a search screens a loser (--screen-below-speedup=1000: one trial, the
#    timed runs, stop), with and without the median rule.
# 3. The GPU suite without full-size, within SUITE (240) s.
T0=$(date +%s)
BUNDLE=${BUNDLE:-.bundle/b3/stark-bundle.tar.xz}
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
for t in $B/unittests/Target/*CudaTarget*; do timeout 60 $t > $R/$(basename $t).log 2>&1; echo "rc=$?" >> $R/$(basename $t).log; done
tar -czf $OUT/results.tgz -C $R .
P=bench/kernels/inputs/llama-gate-f32.mlir
$B/bin/stark-template --problem $P --family gemm_wgmma_3xtf32 > /tmp/cand.mlir 2> $R/template.log
run() { # name, stark-eval options
  N=$1; shift
  /usr/bin/time -f "%e s wall, %U s user, %S s sys" timeout 120 $B/bin/stark-eval --target cuda --json --problem $P --candidate /tmp/cand.mlir "$@" > $R/eval-$N.json 2> $R/eval-$N.time
}
for i in 1 2; do
  run default-$i
  run spread-only-$i --target-median-error=0
  run screened-$i --screen-below-speedup=1000
  run screened-spread-only-$i --screen-below-speedup=1000 --target-median-error=0
done
tar -czf $OUT/results.tgz -C $R .
timeout ${SUITE:-240} $B/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $R/cuda-lit-all.log 2>&1; echo "rc=$?" >> $R/cuda-lit-all.log
echo "call: $(($(date +%s) - T0)) s" >> $R/gpu.txt
tar -czf $OUT/results.tgz -C $R .

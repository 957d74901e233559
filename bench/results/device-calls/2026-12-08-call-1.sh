#!/bin/bash
# Device call 1 of 2026-12-08 (not run: no machine was lent that session;
# for the next one, with a bundle of main): the CUDA-target unit tests,
# the whole GPU suite but its full-size cases within SUITE (300) s -- the
# first GPU run of the device-side input comparison (5d79052), of compiling
# ahead (598c3cb, precompile: search-workers-cuda.mlir checks the report's
# evaluation.precompile) and of the judge's deferred device (377ea69) --
# then one evaluation of the LLaMA gate projection's first
# gemm_wgmma_3xtf32 candidate (bench/kernels/inputs/llama-gate-f32.mlir)
# twice (the second hits the compile cache) and screened, for the runner's
# steps. Carry the bundle (BUNDLE: scripts/make-bundle.sh of main).
T0=$(date +%s)
BUNDLE=${BUNDLE:-.bundle/b6/stark-bundle.tar.xz}
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
for t in $B/unittests/Target/*CudaTarget*; do timeout 60 $t > $R/$(basename $t).log 2>&1; echo "rc=$?" >> $R/$(basename $t).log; done
tar -czf $OUT/results.tgz -C $R .
timeout ${SUITE:-300} $B/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $R/cuda-lit-all.log 2>&1; echo "rc=$?" >> $R/cuda-lit-all.log
echo "suite done: $(($(date +%s) - T0)) s" >> $R/gpu.txt
tar -czf $OUT/results.tgz -C $R .
P=bench/kernels/inputs/llama-gate-f32.mlir
$B/bin/stark-template --problem $P --family gemm_wgmma_3xtf32 > /tmp/cand.mlir 2> $R/template.log
run() { # name, stark-eval options
  N=$1; shift
  /usr/bin/time -f "%e s wall, %U s user, %S s sys" timeout 120 $B/bin/stark-eval --target cuda --problem $P --candidate /tmp/cand.mlir "$@" > $R/eval-$N.txt 2> $R/eval-$N.time
}
run default-1
run default-2
run screened --screen-below-speedup=1000
echo "call: $(($(date +%s) - T0)) s" >> $R/gpu.txt
tar -czf $OUT/results.tgz -C $R .

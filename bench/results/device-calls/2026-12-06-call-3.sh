#!/bin/bash
# Device call 3 (2026-12-06): the CUDA lit suite again, with the back-to-back
# pairs queued behind the timing gate (faults-state.mlir's clock replay was
# judged verified in call 1 while the parallel suite shared the device),
# then the clock-replay fault alone five times while three other stark-eval
# processes keep the device busy.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results3; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
/tmp/stark/unittests/Target/StarkCudaTargetTests > $R/unit-cuda-target.log 2>&1; echo "rc=$?" >> $R/unit-cuda-target.log
timeout ${LIT_LIMIT:-330} /tmp/stark/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
tar -czf $OUT/results.tgz -C $R .
D=test/Integration/CUDA
python3 $D/Inputs/cuda_candidate.py $D/Inputs/matmul-problem.mlir $D/faults/Inputs/matmul-clock-replay.cu -D M=255 -D K=129 -D N=191 > /tmp/clock.mlir
EVAL="/tmp/stark/bin/stark-eval --target cuda --trials 2 --max-trials 2 --warmup 1 --time-budget 1 --problem $D/Inputs/matmul-problem.mlir"
for i in 1 2 3; do ( for j in 1 2 3 4 5 6; do $EVAL --candidate $D/Inputs/matmul-problem.mlir > /dev/null 2>&1; done ) & done
for i in 1 2 3 4 5; do $EVAL --candidate /tmp/clock.mlir | head -2 >> $R/clock-under-load.log; done
wait
tar -czf $OUT/results.tgz -C $R .

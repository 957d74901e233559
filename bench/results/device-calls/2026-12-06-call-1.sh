#!/bin/bash
# Device call 1 (2026-12-06): the CUDA target's unit tests, the CUDA lit
# suite (planted faults, templates, searches), then the judge's phases of one
# evaluation of four problems against themselves (stark-eval, timed, as in
# bench/results/eval-phases/) and of a screened-out candidate.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
/tmp/stark/unittests/Target/StarkCudaTargetTests > $R/unit-cuda-target.log 2>&1; echo "rc=$?" >> $R/unit-cuda-target.log
timeout ${LIT_LIMIT:-330} /tmp/stark/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
tar -czf $OUT/results.tgz -C $R .
for p in matmul_square conv2d_square softmax gelu; do
  f=bench/problems/$p.mlir
  /tmp/stark/bin/stark-opt $f --stark-hot-ops=top-k=0 --stark-outline=dir=/tmp/outlined/$p > /dev/null 2>&1
  q=$(ls /tmp/outlined/$p/*.mlir | head -1)
  { time /tmp/stark/bin/stark-eval --target cuda --problem $q --candidate $q ; } > $R/phases-$p.log 2>&1
  { time /tmp/stark/bin/stark-eval --target cuda --screen-below-speedup 100 --problem $q --candidate $q ; } > $R/phases-$p-screened.log 2>&1
done
tar -czf $OUT/results.tgz -C $R .

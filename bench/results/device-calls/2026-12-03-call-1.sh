#!/bin/bash
# Device call 1: the CUDA lit suite (faults included), the utility kernels'
# unit tests, and evaluation phase times of a few problems.
mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpu.txt 2>&1
/tmp/stark/unittests/Target/StarkCudaTargetTests > $OUT/unit-cuda-target.log 2>&1; echo "rc=$?" >> $OUT/unit-cuda-target.log
for p in gelu matmul_square conv2d_square softmax; do
  ( time /tmp/stark/bin/stark-eval --target cuda --problem bench/problems/$p.mlir --candidate bench/problems/$p.mlir ) > $OUT/eval-$p.log 2>&1
done
timeout 420 /tmp/stark/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $OUT/cuda-lit.log 2>&1; echo "rc=$?" >> $OUT/cuda-lit.log

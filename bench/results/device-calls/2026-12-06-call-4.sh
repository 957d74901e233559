#!/bin/bash
# Device call 4 (2026-12-06): gemm_tc's kernel moved to Kernels/GemmWmma.cuh;
# the CUDA template tests (gemm_tc on f16, bf16 + epilogue, fill + matmul
# among them) and the planted-fault controls on the device.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results4; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout ${LIT_LIMIT:-240} /tmp/stark/run-tests.sh -v --filter-out full-size test/Integration/CUDA/templates test/Integration/CUDA/faults/faults-controls.mlir test/Integration/CUDA/stark-pipeline-cuda.mlir > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
tar -czf $OUT/results.tgz -C $R .

#!/bin/bash
# Device call 6 (2026-12-06, third session), bundle of the commit that makes
# gemm_wgmma_3xtf32's consumer warpgroups take turns issuing their wgmmas:
# the kernel bench (turns against the free-running order, both orientations
# of B) and the family's CUDA template tests with the new default.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results6; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
( cd .bundle/gemm_bench && export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH NVIDIA_TF32_OVERRIDE=0
  for f in linear_ragged "kn llama gate" "llama gate" "llama down" "llama proj" "bert ffn" linear_4096; do timeout 40 ./gemm_bench "$f" wgtf32 2>&1 | grep -E "^==|  wgtf32|rc "; done ) > $R/wgtf32-ordered.log 2>&1
tar -czf $OUT/results.tgz -C $R .
timeout 100 /tmp/stark/run-tests.sh -v test/Integration/CUDA/templates/gemm-wgmma-3xtf32.mlir > $R/cuda-lit-wgmma-3xtf32.log 2>&1; echo "rc=$?" >> $R/cuda-lit-wgmma-3xtf32.log
tar -czf $OUT/results.tgz -C $R .

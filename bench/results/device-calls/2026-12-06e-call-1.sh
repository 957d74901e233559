#!/bin/bash
# Device call 1 (2026-12-06, fifth session): what landed last session and
# had not run on a GPU. The tensor-map encoding shared by the evaluator and
# the runtime (encodeTiledTensorMap), and a timed run that writes its tensor
# maps before the start event (prepareEnqueue): the TMA templates and the
# substituted TMA winner. Then compute-sanitizer racecheck and memcheck on
# gemm_wgmma_tma's first candidate for the suite's matmul_rect_bf16 (a
# search runs both on its final cuda winner), the timing of that candidate
# and of gemm_wgmma's, and the CUDA target's unit tests.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
D=test/Integration/CUDA
timeout 150 /tmp/stark/run-tests.sh -v $D/templates/gemm-wgmma-tma.mlir $D/substitute-cuda-tma-winner.mlir > $R/cuda-lit-tma.log 2>&1; echo "rc=$?" >> $R/cuda-lit-tma.log
tar -czf $OUT/results.tgz -C $R .
/tmp/stark/bin/stark-opt bench/problems/matmul_rect_bf16.mlir --stark-hot-ops=top-k=0 --stark-outline=dir=/tmp/o > /dev/null 2>&1
q=$(ls -S /tmp/o/*.mlir | head -1)
for f in gemm_wgmma_tma gemm_wgmma; do
  /tmp/stark/bin/stark-template --problem $q --family $f > /tmp/$f.mlir
  timeout 60 /tmp/stark/bin/stark-eval --target cuda --problem $q --candidate /tmp/$f.mlir > $R/eval-matmul_rect_bf16-$f.log 2>&1; echo "rc=$?" >> $R/eval-matmul_rect_bf16-$f.log
done
for tool in racecheck memcheck; do
  timeout 120 /tmp/stark/bin/stark-eval --target cuda --no-timing --sanitize $tool --problem $q --candidate /tmp/gemm_wgmma_tma.mlir > $R/sanitize-$tool-gemm_wgmma_tma.log 2>&1; echo "rc=$?" >> $R/sanitize-$tool-gemm_wgmma_tma.log
  tar -czf $OUT/results.tgz -C $R .
done
timeout 40 /tmp/stark/unittests/Target/StarkCudaTargetTests > $R/unit-cuda-target.log 2>&1; echo "rc=$?" >> $R/unit-cuda-target.log
tar -czf $OUT/results.tgz -C $R .

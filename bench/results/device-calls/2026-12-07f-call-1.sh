#!/bin/bash
# NOT RUN: written at the end of the fourteenth session (device time spent).
# Build the bundle from main (scripts/make-bundle.sh into .bundle/bN), set
# BUNDLE, copy the peers of the zoo (bench/results/2026-12-07c-h100/call-2/
# models-h100c2-mobilenet_v3_small_b1.json and -vgg16_b1.json,
# call-3/models-h100c3-llama_block_b1.json, and
# 2026-12-07d-h100/call-3/models-h100d3-resnet18_b1.json) into .devinput/,
# since bench/results does not travel.
# 1. What the fourteenth session landed without a GPU run: the runtime's
#    kernel lookups and shared-memory limits remembered (efe2718; the
#    CUDA-target unit tests and every whole-program test), and the one GPU
#    test its call cut short (templates/gemm-kernels.mlir, batch-1 1x1
#    convolutions now strided).
# 2. MobileNetV3-small again: how much of the 214 us between its 698 us as
#    it runs and 484 us queued first the lookups were.
BUNDLE=.bundle/bN/stark-bundle.tar.xz
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
H100=0; grep -q H100 $R/gpu.txt && H100=1
timeout 200 $B/run-tests.sh -v test/Integration/CUDA/templates/gemm-kernels.mlir test/Integration/CUDA/models-cuda.mlir \
  test/Integration/CUDA/tensor-program-cuda.mlir test/Integration/CUDA/faults > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
for t in $B/unittests/Target/*CudaTarget*; do timeout 120 $t > $R/$(basename $t).log 2>&1; echo "rc=$?" >> $R/$(basename $t).log; done
tar -czf $OUT/results.tgz -C $R .
for M in mobilenet_v3_small_b1; do
  L=h100f1; PEERS=
  if [ $H100 = 1 ]; then P=$(ls .devinput/models-h100*-$M.json 2>/dev/null | head -1); [ -n "$P" ] && PEERS="--peers-from $P"; else L=h200f1; fi
  timeout 300 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M \
    --total-seconds 150 --autotune-limit 0 $PEERS > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
  cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
  find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
  tar -czf $OUT/results.tgz -C $R .
done

#!/bin/bash
# Device call 2 (2026-12-07, thirteenth session), bundle of main at 3d2ffae
# (.bundle/b14): stark-extracts-to-operands in the pipeline, so that the
# adaptive pools are ranked and get kernels (call 1's ncu: MobileNet's
# first squeeze-excite pool took 336 us as the upstream lowering).
# - mobilenet_v3_small_b1 and vgg16_b1, 150 s searches each; the torch
#   peers from the twelfth session's calls on the same H100 kind
#   (--peers-from; timed afresh where the machine is not an H100).
BUNDLE=.bundle/b14/stark-bundle.tar.xz
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results3; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
H100=0; grep -q H100 $R/gpu.txt && H100=1
for M in llama_block_b1 resnet18_b1; do
  L=h100d3; PEERS=
  if [ $H100 = 1 ]; then P=$(ls .devinput/models-h100c*-$M.json 2>/dev/null | head -1); [ -n "$P" ] && PEERS="--peers-from $P"; else L=h200d3; fi
  timeout 270 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M \
    --total-seconds 150 --autotune-limit 0 --no-gated $PEERS > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
  cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
  find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
  find /tmp/models/$M -name "*.opt.mlir" -exec cp {} $R/ \; 2>/dev/null
  tar -czf $OUT/results.tgz -C $R .
done

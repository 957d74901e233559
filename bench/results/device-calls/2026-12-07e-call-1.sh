#!/bin/bash
# NOT RUN: written at the end of the thirteenth session (device time spent).
# Build the bundle from main (scripts/make-bundle.sh into .bundle/bN), set
# BUNDLE, and copy the twelfth session's peer results into .devinput/
# (bench/results/2026-12-07c-h100/call-2/models-*.json,
# call-3/models-*.json, and 2026-12-07d-h100/call-3/models-*resnet18*.json)
# before the call, since bench/results does not travel.
# 1. The whole GPU suite (last run in full on 2026-12-07c, 50 of 51).
# 2. MobileNetV3-small and VGG-16, 150 s each: the pools fused with their
#    divides (fused_rows), and the coverage reserve without the second
#    side-by-side discount (the searches should end within 10% of 150 s;
#    they took 165.8 and 164.7 s).
BUNDLE=.bundle/bN/stark-bundle.tar.xz
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 330 $B/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $R/cuda-lit-all.log 2>&1; echo "rc=$?" >> $R/cuda-lit-all.log
tar -czf $OUT/results.tgz -C $R .
H100=0; grep -q H100 $R/gpu.txt && H100=1
for M in mobilenet_v3_small_b1; do
  L=h100e1; PEERS=
  if [ $H100 = 1 ]; then P=$(ls .devinput/models-h100*-$M.json 2>/dev/null | head -1); [ -n "$P" ] && PEERS="--peers-from $P"; else L=h200e1; fi
  timeout 240 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M \
    --total-seconds 150 --autotune-limit 0 --no-gated $PEERS > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
  cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
  find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
  tar -czf $OUT/results.tgz -C $R .
done

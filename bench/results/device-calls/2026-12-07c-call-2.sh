#!/bin/bash
# Device call 2 (2026-12-07, twelfth session), bundle of main at efda4db
# (.bundle/b12): the two zoo models furthest from their best peer, each
# searched alone for 150 s with the torch peers in the same call.
# - vgg16_b1: its deep 3x3 convolutions now start from split first sets.
# - mobilenet_v3_small_b1: launch gaps were most of stark's time; the bench
#   now also times both programs with their launches queued first (a second
#   stark-eval run, --gate-host-programs).
BUNDLE=.bundle/b12/stark-bundle.tar.xz
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results2; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
L=h100c2; grep -q H100 $R/gpu.txt || L=h200c2
for M in vgg16_b1 mobilenet_v3_small_b1; do
  timeout 270 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M --total-seconds 150 --autotune-limit 0 > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
  cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
  find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
  tar -czf $OUT/results.tgz -C $R .
done

#!/bin/bash
# NOT RUN: no device machine could be started this session (thirteen attempts,
# about 1640 of the 1800 device-seconds spent on failed starts).
# Device call 1 (2026-12-07, tenth session): the model plan's fixes of the
# ninth session (a problem too dear to search is covered and the next one
# planned; a turn's baseline evaluation is not taken for a candidate's cost)
# and the wgmma split-K rank, on the f32 LLaMA block (batch 1) and
# MobileNetV3-small (batch 1), each searched alone for 150 s. A bundle of
# main at 0ddddff (.bundle/b10). The torch peers run here.
B=/tmp/stark-$(md5sum .bundle/b10/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b10/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
L=h100a1; grep -q H100 $R/gpu.txt || L=h200a1
for M in llama_block_b1 mobilenet_v3_small_b1; do
  timeout 280 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M --total-seconds 150 --autotune-limit 0 > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
  cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
  find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
  tar -czf $OUT/results.tgz -C $R .
done

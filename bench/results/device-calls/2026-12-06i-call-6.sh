#!/bin/bash
# (Not run: too little device time was left to start a machine.)
# Device call 6 (2026-12-06, ninth session): the f32 LLaMA block (batch 1)
# after the plan's fix (a problem whose search the time left cannot pay for
# is covered and the next one planned; in call 5 one such problem stopped
# every search). A bundle of main at 0f6b462 (.bundle/b9). The torch peers
# run here (eager, compile, CUDA graph; no max-autotune). total-seconds 100
# (the device time left).
B=/tmp/stark-$(md5sum .bundle/b9/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b9/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results6; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
L=h100i6; grep -q H100 $R/gpu.txt || L=h200i6
M=llama_block_b1
timeout 215 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M --total-seconds 100 --autotune-limit 0 > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

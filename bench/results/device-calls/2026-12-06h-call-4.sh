#!/bin/bash
# (Not run: too little device time was left to start a machine.)
# Device call 4 (2026-12-06, eighth session): BERT-base (batch 1) after this
# session's outline changes, in the device time left (a 40 s search). A
# bundle of main at 861859b (carried as .bundle/b5/stark-bundle.tar.xz).
# The torch peers run here.
B=/tmp/stark-$(md5sum .bundle/b5/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b5/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results4; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
L=h100h4; grep -q H100 $R/gpu.txt || L=h200h4
M=bert_base_b1
timeout 150 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M --total-seconds 40 --autotune-limit 0 > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

#!/bin/bash
# (Not run: no machine could be started.)
# Device call 3 (2026-12-06, eighth session): BERT-base (batch 1) after
# this session's outline changes (contractions take
# bias + residual adds as epilogues, each layer norm one problem, attention
# reads and writes heads through its transposes). A bundle of main at
# 861859b (carried as .bundle/b5/stark-bundle.tar.xz). The torch peers run
# here (no H100 peers of these models were kept).
B=/tmp/stark-$(md5sum .bundle/b5/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b5/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results3; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
L=h100h3; grep -q H100 $R/gpu.txt || L=h200h3
for M in bert_base_b1; do
  timeout 215 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M --total-seconds 80 --autotune-limit 0 > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
  cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
  find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
  tar -czf $OUT/results.tgz -C $R .
done

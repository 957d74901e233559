#!/bin/bash
# Device call 3 (2026-12-06, ninth session): BERT-base (batch 1) with
# split-K in gemm_wgmma_3xtf32 and the eighth session's outline changes
# (contractions take bias + residual adds as epilogues, each layer norm one
# problem, attention reads and writes heads through its transposes). A
# bundle of main at 7e2cbec (.bundle/b7; split-K where the tiles are
# too few, and slices that even out a mostly empty last wave). The torch peers run here (eager,
# compile, CUDA graph; no max-autotune).
B=/tmp/stark-$(md5sum .bundle/b7/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b7/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results3; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
L=h100i3; grep -q H100 $R/gpu.txt || L=h200i3
M=bert_base_b1
timeout 540 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M --total-seconds 150 --autotune-limit 0 > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

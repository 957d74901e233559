#!/bin/bash
# (Not run: no machine could be started.)
# Device call 1 (2026-12-06, ninth session): BERT-base (batch 1) and the f32
# LLaMA block after the eighth session's outline changes (contractions take
# bias + residual adds as epilogues, each layer norm one problem, attention
# reads and writes heads through its transposes). A bundle of main at
# 861859b (carried as .bundle/b5/stark-bundle.tar.xz; the later commits are
# refactors and prose). The torch peers run here (eager, compile, CUDA graph;
# no max-autotune).
B=/tmp/stark-$(md5sum .bundle/b5/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b5/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
L=h100i1; grep -q H100 $R/gpu.txt || L=h200i1
run_model() {  # name, total-seconds, timeout
  timeout $3 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$1 --label $L-$1 --names $1 --total-seconds $2 --autotune-limit 0 > $R/$1.log 2>&1; echo "rc=$?" >> $R/$1.log
  cp /tmp/models/$1/*.json /tmp/models/$1/*.md $R/ 2>/dev/null
  find /tmp/models/$1 -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
  tar -czf $OUT/results.tgz -C $R .
}
run_model bert_base_b1 150 320
run_model llama_block_b1 100 250

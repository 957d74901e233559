#!/bin/bash
# Device call 5 (2026-12-06, ninth session): the f32 LLaMA block (batch 1)
# again, and BERT-base at batch 8, after gemm_wgmma_3xtf32 ranks before
# gemm_3xtf32 on problems of 2^28 multiply-adds or more and takes three
# slices of k where 176 tiles leave a wave mostly empty. A bundle of main at
# 16e5149 (.bundle/b8). The torch peers run here (eager, compile, CUDA
# graph; no max-autotune).
B=/tmp/stark-$(md5sum .bundle/b8/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b8/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results5; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
L=h100i5; grep -q H100 $R/gpu.txt || L=h200i5
run_model() {  # name, total-seconds, timeout
  timeout $3 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$1 --label $L-$1 --names $1 --total-seconds $2 --autotune-limit 0 > $R/$1.log 2>&1; echo "rc=$?" >> $R/$1.log
  cp /tmp/models/$1/*.json /tmp/models/$1/*.md $R/ 2>/dev/null
  find /tmp/models/$1 -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
  tar -czf $OUT/results.tgz -C $R .
}
run_model llama_block_b1 150 250
run_model bert_base_b8 150 290

#!/bin/bash
# Device call 2 (2026-12-06, sixth session): the bf16 LLaMA block (batch 1,
# sequence 512) in the model bench, its causal attention now one problem
# the attention family takes; peers: eager, torch.compile, a CUDA graph of
# eager, and the twin on torch's scaled_dot_product_attention (eager and
# CUDA graph). max-autotune is left out (--autotune-limit 0) for device time.
B=/tmp/stark-$(md5sum .bundle/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results2; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 540 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/llama --label h100f-llama_block_bf16_b1 --names llama_block_bf16_b1 --total-seconds 150 --autotune-limit 0 > $R/llama_block_bf16_b1.log 2>&1; echo "rc=$?" >> $R/llama_block_bf16_b1.log
cp /tmp/models/llama/*.json /tmp/models/llama/*.md $R/ 2>/dev/null
find /tmp/models/llama -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

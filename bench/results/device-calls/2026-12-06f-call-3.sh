#!/bin/bash
# Device call 3 (2026-12-06, sixth session): after bf16 P went to P V as
# head + tail and the causal scan was split into blocks of 128 keys (Q
# checked by the attention kernel): the kernel bench, templates/attention.mlir
# (now with the LLaMA block's attention, which the judge rejected in call 2),
# then the bf16 LLaMA block again with call 2's torch peers.
B=/tmp/stark-$(md5sum .bundle/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results3; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 80 .bundle/attention_bench/attention_bench > $R/attention-bench.log 2>&1; echo "rc=$?" >> $R/attention-bench.log
tar -czf $OUT/results.tgz -C $R .
timeout 150 $B/run-tests.sh -v test/Integration/CUDA/templates/attention.mlir > $R/cuda-lit-attention.log 2>&1; echo "rc=$?" >> $R/cuda-lit-attention.log
tar -czf $OUT/results.tgz -C $R .
# Call 2's peers (bench/results/models/2026-12-06f-h100/, carried as
# .bundle/llama-bf16-peers-h100.json) ran on an H100: reused only on one.
PEERS="--peers-from .bundle/llama-bf16-peers-h100.json"; L=h100f3
grep -q H100 $R/gpu.txt || { PEERS=; L=h200f3; }
timeout 330 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/llama --label $L-llama_block_bf16_b1 --names llama_block_bf16_b1 --total-seconds 150 --autotune-limit 0 $PEERS > $R/llama_block_bf16_b1.log 2>&1; echo "rc=$?" >> $R/llama_block_bf16_b1.log
cp /tmp/models/llama/*.json /tmp/models/llama/*.md $R/ 2>/dev/null
find /tmp/models/llama -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

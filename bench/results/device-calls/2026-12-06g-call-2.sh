#!/bin/bash
# Device call 2 (2026-12-06, seventh session): gemm_wgmma_tma's 64- and
# 192-wide tiles, ranked by how full a persistent grid keeps the SMs. The
# bundle of call 1 (carried as .bundle/b2/stark-bundle.tar.xz):
# the bf16 LLaMA block again (its q/k/v/o and down projections have 64
#    tiles of 128 x 128, gate/up 176), with the sixth session's torch peers
#    where the GPU is the H100 they ran on.
B=/tmp/stark-$(md5sum .bundle/b2/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b2/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results2; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
PEERS="--peers-from .bundle/llama-bf16-peers-h100.json"; L=h100g2
grep -q H100 $R/gpu.txt || { PEERS=; L=h200g2; }
timeout 420 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/llama --label $L-llama_block_bf16_b1 --names llama_block_bf16_b1 --total-seconds 150 --autotune-limit 0 $PEERS > $R/llama_block_bf16_b1.log 2>&1; echo "rc=$?" >> $R/llama_block_bf16_b1.log
cp /tmp/models/llama/*.json /tmp/models/llama/*.md $R/ 2>/dev/null
find /tmp/models/llama -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

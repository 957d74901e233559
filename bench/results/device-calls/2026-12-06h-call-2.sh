#!/bin/bash
# Device call 2 (2026-12-06, eighth session): the bf16 LLaMA block after the
# outline's new fusions (o_proj + residual add, down + residual add, up +
# silu(gate) * up, the second RMSNorm as one problem; V's head transpose and
# the output's inside the attention problem). A bundle of main at 861859b
# (carried as .bundle/b5/stark-bundle.tar.xz).
# 1. The model bench (H100: the sixth session's torch peers; H200: peers run).
# 2. Where the optimised program's time goes: ncu's duration of every
#    kernel of one stark-eval run (upstream baseline, reference and the
#    optimised program; no timing runs), and the optimised program itself.
B=/tmp/stark-$(md5sum .bundle/b5/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b5/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results2; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
PEERS="--peers-from .bundle/llama-bf16-peers-h100.json"; L=h100h2
grep -q H100 $R/gpu.txt || { PEERS=; L=h200h2; }
timeout 330 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/llama --label $L-llama_block_bf16_b1 --names llama_block_bf16_b1 --total-seconds 150 --autotune-limit 0 $PEERS > $R/llama_block_bf16_b1.log 2>&1; echo "rc=$?" >> $R/llama_block_bf16_b1.log
cp /tmp/models/llama/*.json /tmp/models/llama/*.md $R/ 2>/dev/null
find /tmp/models/llama -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
OPT=$(find /tmp/models/llama -name "llama_block_bf16_b1.opt.mlir" | head -1)
[ -n "$OPT" ] && cp $OPT $R/
tar -czf $OUT/results.tgz -C $R .
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$OPT" ] && [ -n "$NCU" ] && timeout 200 $NCU --target-processes all --metrics gpu__time_duration.sum --csv \
  $B/bin/stark-eval --target cuda --problem examples/models/llama_block_bf16_b1.mlir --candidate $OPT \
  --no-timing --no-f64-reference --correctness-trials 1 > $R/llama-ncu.csv 2> $R/llama-ncu.err; echo "rc=$?" >> $R/llama-ncu.err
tar -czf $OUT/results.tgz -C $R .

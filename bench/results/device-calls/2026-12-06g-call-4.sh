#!/bin/bash
# (Written but not run: too little device time was left to start a machine.)
# Device call 4 (2026-12-06, seventh session): gemm_wgmma_tma's 64-row tile
# (one consumer warpgroup, m64n128 instructions), in what device time is
# left (about 230 s of running). A bundle of main after 4634882 (carried as
# .bundle/b2/stark-bundle.tar.xz) and the wgmma bench (carried).
# 1. The wgmma bench's "tma" mode: the 64 x 128 tile on the odd shapes
#    (checked) and on the LLaMA projections against cuBLAS.
# 2. templates/gemm-wgmma-tma.mlir (the 64-row tile on odd f16 batches with
#    several tiles a block, in the fused store, and on 2048 x 2048 x 512),
#    intermediate-rounding-cuda.mlir and stark-pipeline-cuda.mlir (changed
#    after call 3).
# 3. The bf16 LLaMA block, with a smaller total budget (50 s) to fit.
B=/tmp/stark-$(md5sum .bundle/b2/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b2/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results4; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 60 .bundle/wgmma_bench/wgmma_bench tma > $R/wgmma-bench-tma.log 2>&1; echo "rc=$?" >> $R/wgmma-bench-tma.log
tar -czf $OUT/results.tgz -C $R .
timeout 60 $B/run-tests.sh -v test/Integration/CUDA/templates/gemm-wgmma-tma.mlir test/Integration/CUDA/intermediate-rounding-cuda.mlir test/Integration/CUDA/stark-pipeline-cuda.mlir > $R/cuda-lit-gemm-wgmma-tma.log 2>&1; echo "rc=$?" >> $R/cuda-lit-gemm-wgmma-tma.log
tar -czf $OUT/results.tgz -C $R .
PEERS="--peers-from .bundle/llama-bf16-peers-h100.json"; L=h100g4
grep -q H100 $R/gpu.txt || { PEERS=; L=h200g4; }
timeout 100 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/llama --label $L-llama_block_bf16_b1 --names llama_block_bf16_b1 --total-seconds 50 --autotune-limit 0 $PEERS > $R/llama_block_bf16_b1.log 2>&1; echo "rc=$?" >> $R/llama_block_bf16_b1.log
cp /tmp/models/llama/*.json /tmp/models/llama/*.md $R/ 2>/dev/null
find /tmp/models/llama -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

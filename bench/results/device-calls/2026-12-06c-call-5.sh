#!/bin/bash
# Device call 5 (2026-12-06, third session), bundle of f9acad1:
# gemm_wgmma_3xtf32 with a row-major B (K x N) on the kernel bench (LLaMA's
# shapes both ways), the family's CUDA template test, then the LLaMA block
# (batch 1) with the second session's torch peers.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results5; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
( cd .bundle/gemm_bench && export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH NVIDIA_TF32_OVERRIDE=0
  for f in "kn " llama linear_4096; do timeout 60 ./gemm_bench "$f" wgtf32 2>&1 | grep -E "^==|  wgtf32|rc "; done ) > $R/wgtf32-kn.log 2>&1
# Where a block's stage time goes: one launch on BERT's FFN 2 (6 blocks).
( cd .bundle/gemm_bench && export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH NVIDIA_TF32_OVERRIDE=0
  timeout 120 ncu --kernel-name regex:wgTf32 --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis ./gemm_bench "bert ffn2" "wgtf32 128x128x32 s3 g8" ) > $R/ncu-bert-ffn2.log 2>&1
timeout 120 /tmp/stark/run-tests.sh -v test/Integration/CUDA/templates/gemm-wgmma-3xtf32.mlir test/Integration/CUDA/templates/gemm-wgmma.mlir > $R/cuda-lit-wgmma.log 2>&1; echo "rc=$?" >> $R/cuda-lit-wgmma.log
tar -czf $OUT/results.tgz -C $R .
PEERS=bench/results/models/2026-12-06b-h100/models-h100-llama_block_b1.json
timeout ${LIMIT:-260} env PYTHONPATH=python python3 -m stark.models --stark-bin /tmp/stark/bin --out /tmp/models/llama --label h100d-llama_block_b1 --names llama_block_b1 --total-seconds ${TOTAL:-150} --peers-from $PEERS > $R/llama_block_b1.log 2>&1; echo "rc=$?" >> $R/llama_block_b1.log
cp /tmp/models/llama/*.json /tmp/models/llama/*.md $R/ 2>/dev/null
find /tmp/models/llama -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

#!/bin/bash
# Device call 4 (2026-12-06, third session), bundle with gemm_wgmma_3xtf32:
# the CUDA template and planted-fault tests of the GEMM kernels; every
# parameter set of the new family and the first picks on LLaMA's
# 512x2048 by 5632x2048^T projection through stark-eval (all trials,
# special values included, and timing); then the LLaMA block (batch 1) with
# call 4 of the second session's torch peers.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results4; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
# The kernel alone: with and without the consumers reading the next stage's
# A fragments while the current stage's wgmmas run (pfa).
( cd .bundle/gemm_bench && export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH NVIDIA_TF32_OVERRIDE=0
  for f in linear_ragged llama bert linear_4096; do timeout 60 ./gemm_bench $f wgtf32 2>&1 | grep -E "^==|  wgtf32|rc "; done ) > $R/wgtf32-pfa.log 2>&1
timeout 200 /tmp/stark/run-tests.sh -v --filter 'gemm|faults' test/Integration/CUDA > $R/cuda-lit-gemm-faults.log 2>&1; echo "rc=$?" >> $R/cuda-lit-gemm-faults.log
tar -czf $OUT/results.tgz -C $R .
B=/tmp/stark/bin
$B/stark-opt examples/models/llama_block_b1.mlir --stark-hot-ops=top-k=0 --stark-outline=dir=/tmp/outlined > /dev/null 2>&1
q=$(grep -l 'shapes = "5632x2048xf32,512x2048xf32->512x5632xf32"' /tmp/outlined/*.mlir | head -1)
echo "problem: $q" > $R/llama-gate-proj.log
for fam in gemm_wgmma_3xtf32 gemm_3xtf32; do
  $B/stark-template --problem $q --list 2>&1 | awk -v f="$fam:" '$1==f{on=1;next} /^[a-z]/{on=0} on{print $1}' | head -4 | while read P; do
    $B/stark-template --problem $q --family $fam --params "$P" > /tmp/c.mlir 2>>$R/llama-gate-proj.log || continue
    echo "== $fam $P" >> $R/llama-gate-proj.log
    { time timeout 60 $B/stark-eval --target cuda --problem $q --candidate /tmp/c.mlir ; } >> $R/llama-gate-proj.log 2>&1
  done
done
tar -czf $OUT/results.tgz -C $R .
PEERS=bench/results/models/2026-12-06b-h100/models-h100-llama_block_b1.json
timeout ${LIMIT:-260} env PYTHONPATH=python python3 -m stark.models --stark-bin /tmp/stark/bin --out /tmp/models/llama --label h100c-llama_block_b1 --names llama_block_b1 --total-seconds ${TOTAL:-150} --peers-from $PEERS > $R/llama_block_b1.log 2>&1; echo "rc=$?" >> $R/llama_block_b1.log
cp /tmp/models/llama/*.json /tmp/models/llama/*.md $R/ 2>/dev/null
find /tmp/models/llama -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

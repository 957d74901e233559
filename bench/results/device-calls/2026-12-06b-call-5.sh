#!/bin/bash
# Device call 5 (2026-12-06, second session): the LLaMA block again after
# ModelPlan keeps a search's finish (retimes, compute-sanitizer) back from
# it (call 4 left 8 of its 15 problems upstream), with call 4's torch peers;
# then ResNet-18 (batch 1) with its peers timed here.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results5; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
PEERS=bench/results/models/2026-12-06b-h100/models-h100-llama_block_b1.json
for m in llama_block_b1 resnet18_b1; do
  X="--autotune-limit 0"; [ $m = llama_block_b1 ] && X="--peers-from $PEERS"
  timeout ${LIMIT:-260} env PYTHONPATH=python python3 -m stark.models --stark-bin /tmp/stark/bin --out /tmp/models/$m --label h100b-$m --names $m --total-seconds ${TOTAL:-150} $X > $R/$m.log 2>&1; echo "rc=$?" >> $R/$m.log
  cp /tmp/models/$m/*.json /tmp/models/$m/*.md $R/ 2>/dev/null
  find /tmp/models/$m -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
  tar -czf $OUT/results.tgz -C $R .
done

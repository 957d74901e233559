#!/bin/bash
# Device call 3: every zoo model through the pipeline (total-seconds 200),
# ten at once, then stark-eval of each whole model against its original.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin
mkdir -p /tmp/models
for m in vgg16_b1 vgg16_b8 resnet18_b1 resnet18_b8 mobilenet_v3_small_b1 mobilenet_v3_small_b8 bert_base_b1 bert_base_b8 llama_block_b1 llama_block_b8; do
  ( timeout 480 env PYTHONPATH=python python3 -m stark.models --stark-bin /tmp/stark/bin --out /tmp/models/$m --label h200-stop30-$m --names $m --no-torch --total-seconds 200 > $OUT/$m.log 2>&1; echo "rc=$?" >> $OUT/$m.log ) &
done
wait
for m in /tmp/models/*/; do cp $m/*.json $m/*.md $OUT/ 2>/dev/null; done

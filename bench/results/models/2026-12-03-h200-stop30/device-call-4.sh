#!/bin/bash
# Device call 4: the zoo's torch peers alone (eager, compile, autotune with a
# limit, CUDA graph), one model after another.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin
python3 -c "import torch; print(torch.__version__, torch.version.cuda)" > $OUT/torch.txt 2>&1
timeout 400 env PYTHONPATH=python python3 -m stark.models --stark-bin /tmp/stark/bin --out /tmp/peers --label h200-stop30-peers --names vgg16_b1,vgg16_b8,resnet18_b1,resnet18_b8,mobilenet_v3_small_b1,mobilenet_v3_small_b8,bert_base_b1,bert_base_b8,llama_block_b1,llama_block_b8 --no-stark --autotune-limit 30 > $OUT/peers.log 2>&1
echo "rc=$?" >> $OUT/peers.log
cp /tmp/peers/*.json /tmp/peers/*.md $OUT/ 2>/dev/null

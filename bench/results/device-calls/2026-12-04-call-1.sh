#!/bin/bash
# Device call 1: three zoo models (batch 1) through the pipeline at the same
# time, each with total-seconds 240 and three evaluation workers, then
# stark-eval of each whole optimised model against its original. The torch
# peers are the ones timed on 2026-12-03 (same machine type, torch 2.11):
# --peers-from. Then a kernel-by-kernel profile of the optimised LLaMA block.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results; mkdir -p $R
PEERS=bench/results/models/2026-12-03-h200-stop30/peers.json
for m in ${MODELS:-llama_block_b1 bert_base_b1 vgg16_b1}; do
  ( timeout ${LIMIT:-420} env PYTHONPATH=python python3 -m stark.models --stark-bin /tmp/stark/bin --out /tmp/models/$m --label h200-stop32-$m --names $m --peers-from $PEERS --total-seconds ${TOTAL:-240} --workers-per-device 3 > $R/$m.log 2>&1; echo "rc=$?" >> $R/$m.log ) &
done
wait
for m in /tmp/models/*/; do cp $m/*.json $m/*.md $m/*.opt.mlir $R/ 2>/dev/null; done
if [ -n "$PROFILE" ] && [ -f /tmp/models/$PROFILE/$PROFILE.opt.mlir ]; then
  timeout 120 ncu --target-processes all --metrics gpu__time_duration.sum --csv \
    /tmp/stark/bin/stark-eval --target cuda --no-timing --correctness-trials 1 --no-f64-reference \
    --problem examples/models/$PROFILE.mlir --candidate /tmp/models/$PROFILE/$PROFILE.opt.mlir > $R/ncu-$PROFILE.csv 2> $R/ncu-$PROFILE.err
fi
tar -czf $OUT/results.tgz -C $R .

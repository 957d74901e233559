#!/bin/bash
# Device calls 2-4 of 2026-12-08 (not run: no machine was lent that
# session; for the next one): the zoo on one machine, models given in
# MODELS, each searched for SEARCH (default 150) s and timed as called and as
# a CUDA graph against the torch peers measured earlier on the same GPU
# kind (.devinput/models-<h200|h100>-<model>.json, copied there by hand
# from bench/results/models/2026-12-06i-h200/call-{3,4} and
# 2026-12-04-h200-stop32/call-{1,2,3} on an H200, 2026-12-07c-h100 and
# 2026-12-07d-h100 on an H100), within TOTAL (default 575) s of the call
# and at most LIMIT (330) s a model. PIPE: more --stark-pipeline options
# (stark.models --pipeline-options), e.g. precompile=false. LIT: GPU test
# paths run first, within LITT (120) s. Carry the bundle (BUNDLE) and
# .devinput/. The plan: MODELS="llama_block_b1 bert_base_b1", then
# "vgg16_b1 resnet18_b1", then "mobilenet_v3_small_b1" and, for what
# compiling ahead is worth, MODELS=resnet18_b1 PIPE=precompile=false on the
# same machine (the reports' evaluations.wall_seconds and
# evaluation.precompile against the default run's).
T0=$(date +%s)
BUNDLE=${BUNDLE:-.bundle/b6/stark-bundle.tar.xz}
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results; rm -rf $R /tmp/models; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
KIND=h200; grep -q H100 $R/gpu.txt && KIND=h100
[ -n "$LIT" ] && { timeout ${LITT:-120} $B/run-tests.sh -v $LIT > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log; }
tar -czf $OUT/results.tgz -C $R .
for M in ${MODELS:-llama_block_b1 bert_base_b1}; do
  P=$(ls .devinput/models-$KIND-$M.json 2>/dev/null | head -1); PEERS=; [ -n "$P" ] && PEERS="--peers-from $P"
  LEFT=$((${TOTAL:-575} - ($(date +%s) - T0))); [ $LEFT -gt ${LIMIT:-330} ] && LEFT=${LIMIT:-330}
  [ $LEFT -lt 60 ] && { echo "$M: not run, $LEFT s left" >> $R/gpu.txt; continue; }
  timeout $LEFT env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label ${KIND}-$M --names $M \
    --total-seconds ${SEARCH:-150} --autotune-limit 0 --pipeline-options "$PIPE" $PEERS > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
  cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
  find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
  echo "$M done: $(($(date +%s) - T0)) s" >> $R/gpu.txt
  tar -czf $OUT/results.tgz -C $R .
done
echo "call: $(($(date +%s) - T0)) s" >> $R/gpu.txt
tar -czf $OUT/results.tgz -C $R .

#!/bin/bash
# Device call 2 of 2026-12-07i: the zoo (the 2026-12-07h plan, the bundle
# from BUNDLE, default .bundle/b3 of main at 5469592 or later). Carry: the
# bundle (scripts/make-bundle.sh) and .devinput/ (the zoo's torch peers from earlier runs on the same GPU
# kind, as models-<kind>-<model>.json: on an H200
# bench/results/models/2026-12-06i-h200/call-4 (LLaMA, with SDPA), call-3
# (BERT-base) and 2026-12-04-h200-stop32/call-{1,2,3} (VGG-16, ResNet-18,
# MobileNetV3-small); on an H100 2026-12-07c-h100 and 2026-12-07d-h100;
# copied there by hand: cp <results json> .devinput/models-h200-<model>.json).
# Environment: CALL (the label's call number), LIT (GPU test paths, run
# first, at most LITT s), MODELS (default the f32 LLaMA block and VGG-16),
# each searched for 150 s and timed as called and as a CUDA graph, within
# what is left of TOTAL (default 575) s and at most LIMIT (300) s each.
T0=$(date +%s)
BUNDLE=${BUNDLE:-.bundle/b3/stark-bundle.tar.xz}
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results; rm -rf $R /tmp/models; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
KIND=h200; grep -q H100 $R/gpu.txt && KIND=h100
[ -n "$LIT" ] && { timeout ${LITT:-120} $B/run-tests.sh -v $LIT > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log; }
tar -czf $OUT/results.tgz -C $R .
for M in ${MODELS:-llama_block_b1 vgg16_b1}; do
  P=$(ls .devinput/models-$KIND*-$M.json 2>/dev/null | head -1); PEERS=; [ -n "$P" ] && PEERS="--peers-from $P"
  LEFT=$((${TOTAL:-575} - ($(date +%s) - T0))); [ $LEFT -gt ${LIMIT:-300} ] && LEFT=${LIMIT:-300}
  timeout $LEFT env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label ${KIND}h${CALL}-$M --names $M \
    --total-seconds 150 --autotune-limit 0 $PEERS > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
  cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
  find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
  tar -czf $OUT/results.tgz -C $R .
done
# PROBE=1: where one evaluation's wall time goes
# (bench/kernels/eval_phases.sh: the LLaMA gate projection's first
# gemm_wgmma_3xtf32 candidate), when it starts before PROBE_BEFORE (420) s.
if [ -n "$PROBE" ] && [ $(($(date +%s) - T0)) -lt ${PROBE_BEFORE:-420} ]; then
  bash bench/kernels/eval_phases.sh $B/bin $R
  tar -czf $OUT/results.tgz -C $R .
fi

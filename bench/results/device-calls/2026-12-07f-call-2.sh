#!/bin/bash
# Device call 2 (2026-12-07, fifteenth session). Carry: .bundle/b2 and .devinput/ (the torch peers of the zoo from earlier H100 runs,
# bench/results/2026-12-07c-h100/call-2/models-h100c2-*.json,
# call-3/models-h100c3-llama_block_b1.json and
# 2026-12-07d-h100/call-3/models-h100d3-resnet18_b1.json, for --peers-from
# on an H100; on an H200 the peers are timed afresh).
# The models named in MODELS (default MobileNetV3-small and VGG-16), each
# searched for 150 s and timed as called and as a CUDA graph (the model
# bench's second run, stark-eval --graph-host-programs), each within what
# is left of the call's TOTAL (default 575) s, at most LIMIT (default 300).
# Bundle b2: b1 with gemm_wgmma_3xtf32's im2col ranked first on
# convolutions of at least 128 channels.
T0=$(date +%s)
BUNDLE=.bundle/b2/stark-bundle.tar.xz
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results2; rm -rf $R /tmp/models; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
H100=0; grep -q H100 $R/gpu.txt && H100=1
for M in ${MODELS:-mobilenet_v3_small_b1 vgg16_b1}; do
  L=h100f2; PEERS=
  if [ $H100 = 1 ]; then P=$(ls .devinput/models-h100*-$M.json 2>/dev/null | head -1); [ -n "$P" ] && PEERS="--peers-from $P"; else L=h200f2; fi
  LEFT=$((${TOTAL:-575} - ($(date +%s) - T0))); [ $LEFT -gt ${LIMIT:-300} ] && LEFT=${LIMIT:-300}
  timeout $LEFT env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M \
    --total-seconds 150 --autotune-limit 0 $PEERS > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
  cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
  find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
  tar -czf $OUT/results.tgz -C $R .
done

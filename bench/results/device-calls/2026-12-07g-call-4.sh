#!/bin/bash
# Call 4 ran it as: LIT=0 MODELS=resnet18_b1 SEARCH=90 TOTAL=190 LIMIT=190 (what was left of the device time); call 5, on the same warm machine, ran five GPU tests (see the README).
# Device call 3 (2026-12-07g). Carry: .bundle/b1 (main at the two-producer
# gemm_wgmma_3xtf32 and the one-block split-k counts) and .devinput/ (the
# torch peers of the zoo from earlier runs on the same GPU kind:
# bench/results/models/2026-12-06i-h200/call-4 (LLaMA, with SDPA) and
# 2026-12-04-h200-stop32 (VGG-16) on an H200; 2026-12-07c-h100 on an H100).
# 1. The GPU tests of gemm_wgmma_3xtf32 and of the first picks.
# 2. The models named in MODELS (default the f32 LLaMA block and VGG-16),
#    each searched for SEARCH (default 150) s and timed as called and as a CUDA graph, each
#    within what is left of TOTAL (default 575) s, at most LIMIT (300).
T0=$(date +%s)
BUNDLE=.bundle/b1/stark-bundle.tar.xz
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results3; rm -rf $R /tmp/models; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
KIND=h200; grep -q H100 $R/gpu.txt && KIND=h100
[ "${LIT:-1}" = 1 ] && timeout 120 $B/run-tests.sh -v test/Integration/CUDA/templates/gemm-wgmma-3xtf32.mlir test/Integration/CUDA/templates/gemm-split-k.mlir test/Integration/CUDA/coverage-fallback-cuda.mlir > $R/cuda-lit-wgmma.log 2>&1; echo "rc=$?" >> $R/cuda-lit-wgmma.log
tar -czf $OUT/results.tgz -C $R .
for M in ${MODELS:-llama_block_b1 vgg16_b1}; do
  P=$(ls .devinput/models-$KIND*-$M.json 2>/dev/null | head -1); PEERS=; [ -n "$P" ] && PEERS="--peers-from $P"
  LEFT=$((${TOTAL:-575} - ($(date +%s) - T0))); [ $LEFT -gt ${LIMIT:-300} ] && LEFT=${LIMIT:-300}
  timeout $LEFT env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label ${KIND}g-$M --names $M \
    --total-seconds ${SEARCH:-150} --autotune-limit 0 $PEERS > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
  cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
  find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
  tar -czf $OUT/results.tgz -C $R .
done

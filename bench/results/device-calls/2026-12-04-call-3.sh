#!/bin/bash
# Device call 3: the CUDA lit test that call 2's time limit cut off, then
# two more zoo models one after another (as call 2).
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results3; mkdir -p $R
timeout 120 /tmp/stark/run-tests.sh -v test/Integration/CUDA/templates/gemm-kernels.mlir > $R/cuda-lit-gemm-kernels.log 2>&1; echo "rc=$?" >> $R/cuda-lit-gemm-kernels.log
PEERS=bench/results/models/2026-12-03-h200-stop30/peers.json
for m in ${MODELS:-llama_block_b1 mobilenet_v3_small_b1}; do
  timeout ${LIMIT:-230} env PYTHONPATH=python python3 -m stark.models --stark-bin /tmp/stark/bin --out /tmp/models/$m --label h200-stop32-$m --names $m --peers-from $PEERS --total-seconds ${TOTAL:-150} --workers-per-device 3 > $R/$m.log 2>&1; echo "rc=$?" >> $R/$m.log
  for d in /tmp/models/*/; do cp $d/*.json $d/*.md $d/*.opt.mlir $R/ 2>/dev/null; done
  tar -czf $OUT/results.tgz -C $R .
done

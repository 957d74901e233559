#!/bin/bash
# Device call 2: the CUDA lit suite (the three-worker search test included),
# then zoo models one after another (call 1 ran three at once, and their
# workers waited for each other's device lock), each with three workers.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results2; mkdir -p $R
/tmp/stark/unittests/Target/StarkCudaTargetTests > $R/unit-cuda-target.log 2>&1; echo "rc=$?" >> $R/unit-cuda-target.log
timeout ${LIT_LIMIT:-300} /tmp/stark/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
tar -czf $OUT/results-lit.tgz -C $R .
PEERS=bench/results/models/2026-12-03-h200-stop30/peers.json
for m in ${MODELS:-resnet18_b1 mobilenet_v3_small_b1}; do
  timeout ${LIMIT:-280} env PYTHONPATH=python python3 -m stark.models --stark-bin /tmp/stark/bin --out /tmp/models/$m --label h200-stop32-$m --names $m --peers-from $PEERS --total-seconds ${TOTAL:-200} --workers-per-device 3 > $R/$m.log 2>&1; echo "rc=$?" >> $R/$m.log
  for d in /tmp/models/*/; do cp $d/*.json $d/*.md $d/*.opt.mlir $R/ 2>/dev/null; done
  tar -czf $OUT/results.tgz -C $R .
done

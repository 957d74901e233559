#!/bin/bash
# Device call 5: the LLaMA block alone again, as in call 3, with the planner
# that costs an evaluation by its problem's bytes (fd0b5e2).
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results5; mkdir -p $R
PEERS=bench/results/models/2026-12-03-h200-stop30/peers.json
m=llama_block_b1
timeout ${LIMIT:-200} env PYTHONPATH=python python3 -m stark.models --stark-bin /tmp/stark/bin --out /tmp/models/$m --label h200-stop32b-$m --names $m --peers-from $PEERS --total-seconds ${TOTAL:-150} --workers-per-device 3 > $R/$m.log 2>&1; echo "rc=$?" >> $R/$m.log
cp /tmp/models/$m/*.json /tmp/models/$m/*.md $R/ 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

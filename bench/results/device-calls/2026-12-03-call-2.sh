#!/bin/bash
# Device call 2: the reduced suite (search, eager, retime; no torch.compile).
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin
timeout 570 env PYTHONPATH=python python3 -m stark.bench --stark-bin /tmp/stark/bin --out /tmp/bench --label h200-stop30 --jobs 12 --budget 3 --seconds 30 --deadline 250 --no-compile > $OUT/bench.log 2>&1
echo "rc=$?" >> $OUT/bench.log
cp /tmp/bench/*.json /tmp/bench/*.md $OUT/ 2>/dev/null
mkdir -p $OUT/reports; for d in /tmp/bench/work/*/; do n=$(basename $d); cp $d/report.json $OUT/reports/$n.json 2>/dev/null; done

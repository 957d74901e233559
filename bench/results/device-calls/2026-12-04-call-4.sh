#!/bin/bash
# Device call 4: the reduced suite with the command of the last run before the
# verifier work (2026-12-02-h200-stop26-final: --jobs 12 --budget 3
# --seconds 30), a longer deadline so that it completes; torch.compile skipped.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin
timeout ${LIMIT:-540} env PYTHONPATH=python python3 -m stark.bench --stark-bin /tmp/stark/bin --out /tmp/bench --label ${LABEL:-h200-stop32} --jobs ${JOBS:-12} --budget 3 --seconds 30 --deadline ${DEADLINE:-380} --no-compile ${EXTRA} > /tmp/bench.log 2>&1
echo "rc=$?" >> /tmp/bench.log
cp /tmp/bench.log /tmp/bench/ 2>/dev/null
tar -czf $OUT/bench.tgz -C /tmp/bench --exclude=work . 

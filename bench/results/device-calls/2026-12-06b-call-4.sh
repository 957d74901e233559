#!/bin/bash
# Device call 4 (2026-12-06, second session): the suite's softmax again
# after linalg.softmax became a reduction over its dimension for the
# evaluator (2ea6402; in call 3 its three candidates failed whole rows of
# the tiny trial and it had no winner); then the LLaMA block (batch 1) on
# this machine with its torch peers (eager, compile, CUDA graph; no
# max-autotune), 150 s of search.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results4; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 150 env PYTHONPATH=python python3 -m stark.bench --stark-bin /tmp/stark/bin --out /tmp/bench-softmax --label softmax --names softmax,log_softmax --jobs 2 --budget 3 --seconds 30 --deadline 120 --retime-seconds 6 --no-compile > $R/bench-softmax.log 2>&1
echo "rc=$?" >> $R/bench-softmax.log
tar -czf $R/bench-softmax.tgz -C /tmp/bench-softmax --exclude=work . 2>/dev/null
tar -czf $OUT/results.tgz -C $R .
m=llama_block_b1
timeout ${LIMIT:-330} env PYTHONPATH=python python3 -m stark.models --stark-bin /tmp/stark/bin --out /tmp/models/$m --label h100-$m --names $m --total-seconds ${TOTAL:-150} --autotune-limit 0 > $R/$m.log 2>&1; echo "rc=$?" >> $R/$m.log
cp /tmp/models/$m/*.json /tmp/models/$m/*.md $R/ 2>/dev/null
find /tmp/models/$m -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

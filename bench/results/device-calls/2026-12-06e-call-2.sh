#!/bin/bash
# Device call 2 (2026-12-06, fifth session): the whole CUDA lit suite but
# the full-size tests, on the bundle of call 1.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results2; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 560 /tmp/stark/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $R/cuda-lit-all.log 2>&1; echo "rc=$?" >> $R/cuda-lit-all.log
tar -czf $OUT/results.tgz -C $R .

#!/bin/bash
# Device call 2 (2026-12-06, second session): after the split of the CUDA
# target into its parts, the codegen and kernel refactors, typed winner
# parameters and the extra trials tied to the best verified speedup: the
# CUDA target's unit tests and the whole CUDA lit suite.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results2; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
for t in /tmp/stark/unittests/*/Stark*Tests; do echo "== $t"; $t 2>&1 | tail -3; done > $R/unit.log 2>&1
timeout ${LIT_LIMIT:-330} /tmp/stark/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
tar -czf $OUT/results.tgz -C $R .

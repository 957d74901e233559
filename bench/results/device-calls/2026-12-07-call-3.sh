#!/bin/bash
# NOT RUN: no device machine could be started this session (thirteen attempts,
# about 1640 of the 1800 device-seconds spent on failed starts).
# Device call 3 (2026-12-07, tenth session): a bundle of main at 20e3652
# (.bundle/b12): gemm_skinny with the transposed walk, and one run of the
# candidate per trial under compute-sanitizer.
# 1. The GPU suite (test/Integration/CUDA but the two full-size tests: gemm-skinny's new cases,
#    the sanitizer tests, gemm-wgmma-tma after the ninth session's change
#    of its arguments).
# 2. llama_block_b1 (f32) searched alone for 150 s, the torch peers in the
#    same call (the ninth session's plan fixes, never measured).
B=/tmp/stark-$(md5sum .bundle/b12/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b12/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results3; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 330 $B/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $R/cuda-lit-all.log 2>&1; echo "rc=$?" >> $R/cuda-lit-all.log
tar -czf $OUT/results.tgz -C $R .
L=h100c3; grep -q H100 $R/gpu.txt || L=h200c3
M=llama_block_b1
timeout 250 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M --total-seconds 150 --autotune-limit 0 > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

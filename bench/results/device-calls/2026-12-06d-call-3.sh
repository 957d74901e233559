#!/bin/bash
# Device call 3 (2026-12-06, fourth session): the whole CUDA lit suite
# (planted faults, templates, searches, programs; the full-size tests left
# out) with launches that may carry tensor maps and the new gemm_wgmma_tma
# family and its substituted-winner test among them; the CUDA target's unit
# tests; then the suite driver on the two bf16 GEMMs of the reduced suite
# (torch eager = cuBLAS as the peer).
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results3; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout ${LIT_LIMIT:-330} /tmp/stark/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
tar -czf $OUT/results.tgz -C $R .
timeout 60 /tmp/stark/unittests/Target/StarkCudaTargetTests > $R/unit-cuda-target.log 2>&1; echo "rc=$?" >> $R/unit-cuda-target.log
tar -czf $OUT/results.tgz -C $R .
timeout 170 env PYTHONPATH=python python3 -m stark.bench --stark-bin /tmp/stark/bin --out /tmp/bench-bf16 --label bf16-tma --names matmul_rect_bf16,matmul_square_bf16 --jobs 2 --budget 3 --seconds 40 --deadline 120 --retime-seconds 6 --no-compile > $R/bench-bf16.log 2>&1; echo "rc=$?" >> $R/bench-bf16.log
cp /tmp/bench-bf16/*.md /tmp/bench-bf16/*.json $R/ 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

#!/bin/bash
# (Written but not run: the session's device time was spent when it was ready.)
# Device call 4 (2026-12-06, sixth session): the part of the full set
# (bench/problems/full) that fits the device time left: the bf16 GEMMs at
# 4096^3 and 2048x4096x8192 (against cuBLAS through torch), and the
# memory-bound problems at KernelBench's shapes, f32 and bf16 (new_gelu
# 8192^2, layer_norm 16x64x256x256), against the copy bandwidth.
B=/tmp/stark-$(md5sum .bundle/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results4; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
L=h100; grep -q H100 $R/gpu.txt || L=h200
timeout 330 env PYTHONPATH=python python3 -m stark.bench --stark-bin $B/bin --out /tmp/bench --set full \
  --names gemm_bf16,norm,norm_bf16,elementwise_bf16,new_gelu --jobs 6 --budget 2 --seconds 90 \
  --timeout 120 --search-limit 200 --retime-seconds 8 --deadline 300 --label $L-full-part \
  > $R/bench.log 2>&1; echo "rc=$?" >> $R/bench.log
cp -r /tmp/bench/* $R/ 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

#!/bin/bash
# NOT RUN: no device machine could be started this session (thirteen attempts,
# about 1640 of the 1800 device-seconds spent on failed starts).
# Device call 2 (2026-12-07, tenth session): gemm_skinny, the family for
# contractions with a few rows (or columns) of output, and one run of the
# candidate per trial under compute-sanitizer. A bundle of main at 20e3652
# (.bundle/b12).
# 1. GPU tests: templates/gemm-skinny.mlir (both walks and the transposed
#    one, split and unsplit, fill, epilogue, batch, odd sizes, a decoded
#    convolution, a planted dropped slice), faults/faults-races-sanitizer.mlir
#    (one candidate run under the tool; findings still make the candidate
#    wrong), templates/gemm-wgmma-tma.mlir (its arguments changed in the
#    ninth session after its last GPU run).
# 2. bench/kernels/run_gemm_skinny.sh: gemm_skinny's first four plans
#    against gemm_3xtf32's first pick on VGG-16's classifier (b1, b8),
#    MobileNetV3-small's classifier and LLaMA's one-token projections.
# 3. vgg16_b1 searched alone for 90 s (what the device time left after
#    eight failed starts allowed), the torch peers in the same call.
B=/tmp/stark-$(md5sum .bundle/b12/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b12/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results2; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 120 $B/run-tests.sh -v test/Integration/CUDA/templates/gemm-skinny.mlir \
  test/Integration/CUDA/faults/faults-races-sanitizer.mlir \
  test/Integration/CUDA/templates/gemm-wgmma-tma.mlir > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
tar -czf $OUT/results.tgz -C $R .
timeout 110 bench/kernels/run_gemm_skinny.sh $B/bin $R/skinny > $R/skinny.log 2>&1; echo "rc=$?" >> $R/skinny.log
tar -czf $OUT/results.tgz -C $R .
L=h100b2; grep -q H100 $R/gpu.txt || L=h200b2
M=vgg16_b1
timeout 210 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M --total-seconds 90 --autotune-limit 0 > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

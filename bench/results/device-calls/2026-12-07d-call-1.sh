#!/bin/bash
# NOT RUN: written at the end of the twelfth session (device time spent).
# Rebuild the bundle from main (scripts/make-bundle.sh into .bundle/bN) and
# set BUNDLE.
# 1. GPU tests changed since the twelfth session's calls:
#    faults/faults-races-sanitizer.mlir (the one-run check now reads
#    "candidate_runs"), templates/gemm-split-k.mlir, the evaluation's
#    outputs-only read-backs (correct-candidates, planted-bugs, the
#    faults folder).
# 2. vgg16_b1 searched for 150 s: gemm_f32 first on the deep convolutions,
#    the classifier left to the coverage pass by its bytes.
# 3. Where MobileNetV3-small's time goes (889 us, 903 us queued first,
#    against the CUDA graph's 631 us): ncu's duration of every kernel of
#    one run of the optimised program (the report counts each problem
#    once, not as often as the program runs it).
BUNDLE=.bundle/bN/stark-bundle.tar.xz
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 200 $B/run-tests.sh -v test/Integration/CUDA/faults test/Integration/CUDA/templates/gemm-split-k.mlir \
  test/Integration/CUDA/correct-candidates.mlir test/Integration/CUDA/planted-bugs.mlir > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
tar -czf $OUT/results.tgz -C $R .
L=h100d1; grep -q H100 $R/gpu.txt || L=h200d1
for M in vgg16_b1 mobilenet_v3_small_b1; do
  timeout 250 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M --total-seconds 150 --autotune-limit 0 > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
  cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
  find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
  tar -czf $OUT/results.tgz -C $R .
done
M=mobilenet_v3_small_b1
OPT=$(find /tmp/models/$M -name "*.opt.mlir" | head -1)
[ -n "$OPT" ] && timeout 120 ncu --target-processes all --metrics gpu__time_duration.sum --csv \
  $B/bin/stark-eval --target cuda --no-timing --correctness-trials 1 --no-f64-reference \
  --problem examples/models/$M.mlir --candidate $OPT > $R/ncu-$M.csv 2> $R/ncu-$M.err
tar -czf $OUT/results.tgz -C $R .

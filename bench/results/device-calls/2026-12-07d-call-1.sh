#!/bin/bash
# Device call 1 (2026-12-07, thirteenth session), bundle of main at 07f72c4
# (.bundle/b13).
# 1. GPU tests changed since the twelfth session's calls:
#    faults/faults-races-sanitizer.mlir (the one-run check now reads
#    "candidate_runs"), templates/gemm-split-k.mlir, the evaluation's
#    outputs-only read-backs (correct-candidates, planted-bugs, the
#    faults folder).
# 2. Where MobileNetV3-small's time goes (889 us against the CUDA graph's
#    631 us): a 150 s search, then ncu's duration of every kernel of one
#    run of the optimised program and of the original. The torch peers
#    are the twelfth session's (same H100 kind), taken with --peers-from.
BUNDLE=.bundle/b13/stark-bundle.tar.xz
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 200 $B/run-tests.sh -v test/Integration/CUDA/faults test/Integration/CUDA/templates/gemm-split-k.mlir \
  test/Integration/CUDA/correct-candidates.mlir test/Integration/CUDA/planted-bugs.mlir > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
tar -czf $OUT/results.tgz -C $R .
L=h100d1; PEERS=; grep -q H100 $R/gpu.txt && PEERS="--peers-from .devinput/models-h100c2-mobilenet_v3_small_b1.json" || L=h200d1
M=mobilenet_v3_small_b1
timeout 230 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M \
  --total-seconds 150 --autotune-limit 0 --no-gated $PEERS > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
find /tmp/models/$M -name "*.opt.mlir" -exec cp {} $R/ \; 2>/dev/null
tar -czf $OUT/results.tgz -C $R .
OPT=$(find /tmp/models/$M -name "*.opt.mlir" | head -1)
[ -n "$OPT" ] && timeout 100 ncu --target-processes all --metrics gpu__time_duration.sum --csv \
  $B/bin/stark-eval --target cuda --no-timing --correctness-trials 1 --no-f64-reference \
  --problem examples/models/$M.mlir --candidate $OPT > $R/ncu-$M.csv 2> $R/ncu-$M.err
tar -czf $OUT/results.tgz -C $R .

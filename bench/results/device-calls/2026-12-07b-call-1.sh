#!/bin/bash
# NOT RUN as written: superseded by 2026-12-07c-call-1.sh and -call-2.sh (the
# twelfth session ran its parts there). Written when the eleventh session had
# 164 device-seconds left and could start no
# machine (status: can_start_another false). Written for the next session:
# rebuild the bundle from main (scripts/make-bundle.sh into .bundle/bN),
# set BUNDLE below, and run it first.
# Device call 1 (2026-12-07, eleventh session). Nothing of the tenth and
# eleventh sessions has run on a GPU:
# 1. GPU tests: templates/gemm-skinny.mlir (also checked on the host by
#    scripts/cuda-emu: 12 of 12), templates/gemm-split-k.mlir (the deep
#    convolution's split first sets), faults/faults-races-sanitizer.mlir (one
#    candidate run under the tool), templates/gemm-wgmma-tma.mlir,
#    gate-host-programs.mlir (whole programs timed with their launches
#    queued first: no host wait may hold the gate),
#    coverage-fallback-cuda.mlir (gemm_skinny's first pick crashed by a
#    stand-in worker: another family's pick is judged).
# 2. bench/kernels/run_split_k_deep.sh (VGG-16's deep 3x3 convolutions: the
#    split first sets against the unsplit ones they replace) and
#    bench/kernels/run_gemm_skinny.sh (VGG-16's classifier etc.).
# 3. vgg16_b1 searched alone for 150 s, the torch peers in the same call;
#    the bench now also times both programs queued first (a second
#    stark-eval run, --gate-host-programs). mobilenet_v3_small_b1 next, in
#    call 2, where launch gaps were most of stark's time.
BUNDLE=.bundle/bN/stark-bundle.tar.xz
B=/tmp/stark-$(md5sum $BUNDLE | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc $BUNDLE | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 150 $B/run-tests.sh -v test/Integration/CUDA/templates/gemm-skinny.mlir \
  test/Integration/CUDA/templates/gemm-split-k.mlir \
  test/Integration/CUDA/faults/faults-races-sanitizer.mlir \
  test/Integration/CUDA/templates/gemm-wgmma-tma.mlir \
  test/Integration/CUDA/gate-host-programs.mlir \
  test/Integration/CUDA/coverage-fallback-cuda.mlir > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
tar -czf $OUT/results.tgz -C $R .
timeout 90 bench/kernels/run_split_k_deep.sh $B/bin $R/split-k-deep > $R/split-k-deep.log 2>&1; echo "rc=$?" >> $R/split-k-deep.log
timeout 90 bench/kernels/run_gemm_skinny.sh $B/bin $R/skinny > $R/skinny.log 2>&1; echo "rc=$?" >> $R/skinny.log
tar -czf $OUT/results.tgz -C $R .
L=h100b1; grep -q H100 $R/gpu.txt || L=h200b1
M=vgg16_b1
timeout 240 env PYTHONPATH=python python3 -m stark.models --stark-bin $B/bin --out /tmp/models/$M --label $L-$M --names $M --total-seconds 150 --autotune-limit 0 > $R/$M.log 2>&1; echo "rc=$?" >> $R/$M.log
cp /tmp/models/$M/*.json /tmp/models/$M/*.md $R/ 2>/dev/null
find /tmp/models/$M -name "*.report.json" -exec cp {} $R/ \; 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

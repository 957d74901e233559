#!/bin/bash
# (Written but not run: the session's device time was spent when it was ready.)
# Device call 5 (2026-12-06, sixth session): bf16 P's head rounded toward
# zero and a tail never zero or negative for p > 0 (call 3's bench found
# NaN where the reference has inf: 0 * inf and inf - inf from the tail).
# The bundle of call 3 with stark-template rebuilt (carried as
# .bundle/patch/stark-template.xz: only it embeds the kernel sources the
# candidates carry); the kernel bench and templates/attention.mlir.
B=/tmp/stark-$(md5sum .bundle/stark-bundle.tar.xz | cut -c1-8)-p5
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C $B; }
xz -dc .bundle/patch/stark-template.xz > $B/bin/stark-template && chmod +x $B/bin/stark-template
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results5; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 90 .bundle/attention_bench/attention_bench > $R/attention-bench.log 2>&1; echo "rc=$?" >> $R/attention-bench.log
tar -czf $OUT/results.tgz -C $R .
timeout 150 $B/run-tests.sh -v test/Integration/CUDA/templates/attention.mlir > $R/cuda-lit-attention.log 2>&1; echo "rc=$?" >> $R/cuda-lit-attention.log
tar -czf $OUT/results.tgz -C $R .

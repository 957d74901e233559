#!/bin/bash
# Device call 1 (2026-12-06, seventh session): what the sixth session could
# not run, and this session's changes. The bundle of 1a4e04d (carried as
# .bundle/b2/stark-bundle.tar.xz):
# - special values in columns 3 mod 4 of the secondary arguments, and
#   several secondaries taking turns by slice;
# - bf16 P's head rounded toward zero with a tail never zero or negative;
# - each attention block's Q check through attnScanRows, and both attention
#   kernels' bodies split into their stages;
# - gemm_wgmma_tma's 64- and 192-wide tiles.
# 1. The attention kernel bench (built with run_attention.sh's flags, carried).
# 2. The wgmma bench's "tma" mode (built with run_wgmma.sh's flags, carried),
#    with the new 128x64 and 128x192 persistent tiles on odd shapes (checked)
#    and on the LLaMA block's projections against cuBLAS.
# 3. The whole CUDA lit suite but the full-size tests.
B=/tmp/stark-$(md5sum .bundle/b2/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/b2/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
timeout 80 .bundle/attention_bench/attention_bench > $R/attention-bench.log 2>&1; echo "rc=$?" >> $R/attention-bench.log
timeout 90 .bundle/wgmma_bench/wgmma_bench tma > $R/wgmma-bench-tma.log 2>&1; echo "rc=$?" >> $R/wgmma-bench-tma.log
tar -czf $OUT/results.tgz -C $R .
timeout 380 $B/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $R/cuda-lit-all.log 2>&1; echo "rc=$?" >> $R/cuda-lit-all.log
tar -czf $OUT/results.tgz -C $R .

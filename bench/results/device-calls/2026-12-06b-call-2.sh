#!/bin/bash
# Device call 2 (2026-12-06, second session): after the split of the CUDA
# target into its parts, the codegen and kernel refactors, typed winner
# parameters and the extra trials tied to the best verified speedup: the
# CUDA target's unit tests and the whole CUDA lit suite; then the reduced
# suite's 24 problems as on 2026-12-06 (call 2), with 6 searches at once
# and the time kept back to re-time every problem alone (--retime-seconds).
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results2; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
for t in /tmp/stark/unittests/*/Stark*Tests; do echo "== $t"; $t 2>&1 | tail -3; done > $R/unit.log 2>&1
timeout ${LIT_LIMIT:-330} /tmp/stark/run-tests.sh -v --filter-out full-size test/Integration/CUDA > $R/cuda-lit.log 2>&1; echo "rc=$?" >> $R/cuda-lit.log
tar -czf $OUT/results.tgz -C $R .
NAMES=matmul_square,matmul_rect,matmul_rect_bf16,matmul_batched,matmul_irregular,matvec,conv2d_square,conv2d_depthwise,conv1d,gelu,relu,softmax,log_softmax,layer_norm,rms_norm,sum_dim1,argmax_dim1,cumsum,avgpool2d,gemm_bias_relu,gemm_residual_layernorm,conv2d_bias_relu,attention_small_heads,layernorm_gelu
timeout ${LIMIT:-330} env PYTHONPATH=python python3 -m stark.bench --stark-bin /tmp/stark/bin --out /tmp/bench-suite --label suite --names $NAMES --jobs 6 --budget 3 --seconds 30 --deadline ${DEADLINE:-300} --retime-seconds 6 --no-compile > $R/bench-suite.log 2>&1
echo "rc=$?" >> $R/bench-suite.log
tar -czf $R/bench-suite.tgz -C /tmp/bench-suite --exclude=work . 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

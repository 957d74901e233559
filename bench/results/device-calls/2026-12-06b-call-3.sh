#!/bin/bash
# Device call 3 (2026-12-06, second session): the reduced suite's 24
# problems as on 2026-12-06 (first session, call 2), with 6 searches at once
# instead of 12 and the time kept back to re-time every problem alone
# (--retime-seconds 6: a third of the 420 s deadline at most).
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results3; rm -rf $R; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
NAMES=matmul_square,matmul_rect,matmul_rect_bf16,matmul_batched,matmul_irregular,matvec,conv2d_square,conv2d_depthwise,conv1d,gelu,relu,softmax,log_softmax,layer_norm,rms_norm,sum_dim1,argmax_dim1,cumsum,avgpool2d,gemm_bias_relu,gemm_residual_layernorm,conv2d_bias_relu,attention_small_heads,layernorm_gelu
timeout ${LIMIT:-480} env PYTHONPATH=python python3 -m stark.bench --stark-bin /tmp/stark/bin --out /tmp/bench-suite --label suite --names $NAMES --jobs 6 --budget 3 --seconds 30 --deadline ${DEADLINE:-420} --retime-seconds 6 --no-compile > $R/bench-suite.log 2>&1
echo "rc=$?" >> $R/bench-suite.log
tar -czf $R/bench-suite.tgz -C /tmp/bench-suite --exclude=work . 2>/dev/null
tar -czf $OUT/results.tgz -C $R .

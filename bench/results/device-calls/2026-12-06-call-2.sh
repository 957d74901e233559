#!/bin/bash
# Device call 2 (2026-12-06): 24 problems of the reduced suite (contractions,
# convolutions, rows, elementwise, fused), searched as 2026-12-04 call 4 did
# (--jobs 12 --budget 3 --seconds 30, torch eager only), once with
# screening (the default) and, with SCREEN=0, once verifying every
# candidate in full: the same machine for both.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin
NAMES=matmul_square,matmul_rect,matmul_rect_bf16,matmul_batched,matmul_irregular,matvec,conv2d_square,conv2d_depthwise,conv1d,gelu,relu,softmax,log_softmax,layer_norm,rms_norm,sum_dim1,argmax_dim1,cumsum,avgpool2d,gemm_bias_relu,gemm_residual_layernorm,conv2d_bias_relu,attention_small_heads,layernorm_gelu
if [ "${SCREEN:-1}" = 1 ]; then X=""; L=${LABEL:-screen}; else X="--no-screen"; L=${LABEL:-no-screen}; fi
timeout ${LIMIT:-560} env PYTHONPATH=python python3 -m stark.bench --stark-bin /tmp/stark/bin --out /tmp/bench-$L --label $L --names $NAMES --jobs 12 --budget 3 --seconds 30 --deadline ${DEADLINE:-420} --no-compile $X > /tmp/bench-$L.log 2>&1
echo "rc=$?" >> /tmp/bench-$L.log
nvidia-smi -L >> /tmp/bench-$L.log 2>&1
cp /tmp/bench-$L.log /tmp/bench-$L/ 2>/dev/null
tar -czf $OUT/bench-$L.tgz -C /tmp/bench-$L --exclude=work .

#!/bin/bash
# Device call 2 (2026-12-06): 24 problems of the reduced suite (contractions,
# convolutions, rows, elementwise, fused), searched as 2026-12-04 call 4 did
# (--jobs 12 --budget 3 --seconds 30, torch eager only), first with
# screening (the default), then verifying every candidate in full
# (--no-screen): the same machine, one after the other.
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
export PATH=$PATH:/usr/local/cuda/bin
NAMES=matmul_square,matmul_rect,matmul_rect_bf16,matmul_batched,matmul_irregular,matvec,conv2d_square,conv2d_depthwise,conv1d,gelu,relu,softmax,log_softmax,layer_norm,rms_norm,sum_dim1,argmax_dim1,cumsum,avgpool2d,gemm_bias_relu,gemm_residual_layernorm,conv2d_bias_relu,attention_small_heads,layernorm_gelu
for L in screen no-screen; do
  X=""; [ $L = no-screen ] && X="--no-screen"
  timeout ${LIMIT:-270} env PYTHONPATH=python python3 -m stark.bench --stark-bin /tmp/stark/bin --out /tmp/bench-$L --label $L --names $NAMES --jobs 12 --budget 3 --seconds 30 --deadline ${DEADLINE:-230} --no-compile $X > /tmp/bench-$L.log 2>&1
  echo "rc=$?" >> /tmp/bench-$L.log
  nvidia-smi -L >> /tmp/bench-$L.log 2>&1
  cp /tmp/bench-$L.log /tmp/bench-$L/ 2>/dev/null
  tar -czf $OUT/bench-$L.tgz -C /tmp/bench-$L --exclude=work .
done

#!/bin/bash
# Device call 3 (2026-12-06, fifth session): the attention family. The GPU
# test of its candidates (templates/attention.mlir), the kernel bench
# (bench/kernels/attention_bench.cu, built here with run_attention.sh's
# flags and carried: checks on odd shapes with special values, then B=8
# H=16 S=2048 D=128), torch's scaled_dot_product_attention with each
# backend at the same shapes (bench/kernels/sdpa_peer.py), stark-eval of
# the family's first candidates on the suite's attention_small_heads, and
# the CUDA tests whose programs now outline attention as one problem.
B=/tmp/stark-$(md5sum .bundle/stark-bundle.tar.xz | cut -c1-8)
[ -x $B/bin/stark-opt ] || { mkdir -p $B && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C $B; }
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results3; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
D=test/Integration/CUDA
timeout 100 $B/run-tests.sh -v $D/templates/attention.mlir > $R/cuda-lit-attention.log 2>&1; echo "rc=$?" >> $R/cuda-lit-attention.log
tar -czf $OUT/results.tgz -C $R .
timeout 50 .bundle/attention_bench/attention_bench > $R/attention-bench.log 2>&1; echo "rc=$?" >> $R/attention-bench.log
tar -czf $OUT/results.tgz -C $R .
timeout 40 python3 bench/kernels/sdpa_peer.py > $R/sdpa-peer.jsonl 2> $R/sdpa-peer.err; echo "rc=$?" >> $R/sdpa-peer.err
tar -czf $OUT/results.tgz -C $R .
$B/bin/stark-opt bench/problems/attention_small_heads.mlir --stark-hot-ops=top-k=0 --stark-outline=dir=/tmp/o3 > /dev/null 2>&1
q=$(ls -S /tmp/o3/*.mlir | head -1)
$B/bin/stark-template --problem $q --list > $R/attention_small_heads-list.txt 2>&1
for p in bm=64,bn=64,warps=4,tm=8,tn=4; do
  $B/bin/stark-template --problem $q --family attention --params $p > /tmp/c.mlir
  timeout 30 $B/bin/stark-eval --target cuda --problem $q --candidate /tmp/c.mlir > $R/eval-attention_small_heads-$p.log 2>&1; echo "rc=$?" >> $R/eval-attention_small_heads-$p.log
done
tar -czf $OUT/results.tgz -C $R .
# (the models tests did not fit the device time left this session)

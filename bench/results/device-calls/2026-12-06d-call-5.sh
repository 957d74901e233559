#!/bin/bash
# Device call 5 (2026-12-06, fourth session): the verifier's cost again
# after this session's judge changes (16-bit elements without APFloat, a
# trial's reference basis and input checksums computed once for its two
# runs). As call 1, d1f3bc2's stark-eval against this commit's on one idle
# device, order old, new, new, old; the problem judged against itself (no
# template candidate: the old stark-eval cannot read launches with tensor
# maps, and the carry limit leaves no room for the old stark-template).
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
mkdir -p /tmp/old; [ -x /tmp/old/stark-eval ] || { xz -dc .bundle/old/stark-eval.xz > /tmp/old/stark-eval; chmod +x /tmp/old/stark-eval; }
export PATH=$PATH:/usr/local/cuda/bin
R=/tmp/results5; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
echo -e "problem\tcandidate\tbinary\trep\twall_s\tstatus\tspeedup" > $R/ab.tsv
for p in ${PROBLEMS:-matmul_square matmul_rect_bf16 conv2d_square softmax gelu layer_norm sum_dim1 gemm_bias_relu attention_small_heads cumsum}; do
  rm -rf /tmp/outlined/$p
  /tmp/stark/bin/stark-opt bench/problems/$p.mlir --stark-hot-ops=top-k=0 --stark-outline=dir=/tmp/outlined/$p > /dev/null 2>&1
  q=$(ls -S /tmp/outlined/$p/*.mlir | head -1)
  for spec in old:1 new:1 new:2 old:2; do
    b=${spec%%:*}; rep=${spec##*:}; bin=/tmp/old; [ $b = new ] && bin=/tmp/stark/bin
    log=$R/eval-$p-self-$b-$rep.log
    s=$(date +%s.%N)
    timeout 60 $bin/stark-eval --target cuda --problem $q --candidate $q > $log 2>&1
    e=$(date +%s.%N)
    st=$(grep -m1 '^status:' $log | cut -d' ' -f2); sp=$(grep -m1 '^speedup:' $log | cut -d' ' -f2)
    echo -e "$p\tself\t$b\t$rep\t$(python3 -c "print(round($e - $s, 3))")\t$st\t$sp" >> $R/ab.tsv
  done
  tar -czf $OUT/results.tgz -C $R .
done

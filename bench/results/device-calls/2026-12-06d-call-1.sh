#!/bin/bash
# Device call 1 (2026-12-06, fourth session): what the hardened verifier
# costs. stark-eval of d1f3bc2 (the commit issue 27 was filed against,
# before the verifier was hardened) and of this commit judge the same
# candidates of ten reduced-suite problems, one after the other on one idle
# device: the problem against itself and the old stark-template's first
# candidate, twice each, in the order old, new, new, old. Then the bf16
# wgmma GEMM with TMA loads (bench/kernels/wgmma_bench.cu).
# Wants: .bundle/stark-bundle.tar.xz (this commit) and .bundle/old/ (the
# old commit's stark-eval and stark-template, xz-compressed; the problems
# are outlined by this commit's stark-opt, which the old stark-eval reads).
[ -x /tmp/stark/bin/stark-opt ] || { mkdir -p /tmp/stark && xz -dc .bundle/stark-bundle.tar.xz | tar -x -C /tmp/stark; }
mkdir -p /tmp/old; for t in stark-eval stark-template; do [ -x /tmp/old/$t ] || { xz -dc .bundle/old/$t.xz > /tmp/old/$t; chmod +x /tmp/old/$t; }; done
export PATH=$PATH:/usr/local/cuda/bin LIT_OPTS="-j 16"
R=/tmp/results1; mkdir -p $R
nvidia-smi -L > $R/gpu.txt 2>&1
NEW=/tmp/stark/bin OLD=/tmp/old
echo -e "problem\tcandidate\tbinary\trep\twall_s\tstatus\tspeedup" > $R/ab.tsv
for p in ${PROBLEMS:-matmul_square matmul_rect_bf16 conv2d_square softmax gelu layer_norm sum_dim1 gemm_bias_relu attention_small_heads cumsum}; do
  rm -rf /tmp/outlined/$p
  $NEW/stark-opt bench/problems/$p.mlir --stark-hot-ops=top-k=0 --stark-outline=dir=/tmp/outlined/$p > /dev/null 2>&1
  q=$(ls -S /tmp/outlined/$p/*.mlir | head -1)
  $OLD/stark-template --problem $q -o /tmp/outlined/$p/template.cand > $R/template-$p.log 2>&1
  for c in self template; do
    cand=$q; [ $c = template ] && cand=/tmp/outlined/$p/template.cand
    [ -f $cand ] || continue
    for spec in old:1 new:1 new:2 old:2; do
      b=${spec%%:*}; rep=${spec##*:}; bin=$OLD; [ $b = new ] && bin=$NEW
      log=$R/eval-$p-$c-$b-$rep.log
      s=$(date +%s.%N)
      timeout 120 $bin/stark-eval --target cuda --problem $q --candidate $cand > $log 2>&1
      e=$(date +%s.%N)
      st=$(grep -m1 '^status:' $log | cut -d' ' -f2); sp=$(grep -m1 '^speedup:' $log | cut -d' ' -f2)
      echo -e "$p\t$c\t$b\t$rep\t$(python3 -c "print(round($e - $s, 3))")\t$st\t$sp" >> $R/ab.tsv
    done
  done
  tar -czf $OUT/results.tgz -C $R .
done
# The bf16 wgmma GEMM with TMA loads and a persistent schedule
# (bench/kernels/wgmma_bench.cu, built here with run_wgmma.sh's flags):
# the odd-shape checks, then 4096^3 and two mid-sized shapes against cuBLAS.
timeout 200 .bundle/wgmma_bench/wgmma_bench tma > $R/wgmma-tma.log 2>&1; echo "rc=$?" >> $R/wgmma-tma.log
tar -czf $OUT/results.tgz -C $R .

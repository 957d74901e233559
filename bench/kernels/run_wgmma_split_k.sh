#!/bin/sh
# Times gemm_wgmma_3xtf32 with k in slices (split_k, the family's first
# pick) against the same kernel unsplit (split_k=1) and against gemm_3xtf32's
# first pick, on the f32 projections of the zoo's BERT-base (sequence 128)
# and LLaMA block (sequence 512), each as a fill + matmul with B as the
# N x K weight of a linear layer (nk) and as a K x N matrix (kn); on the
# gate/up shape also two and three slices, for the partly empty last wave.
# Every
# candidate is verified and timed by stark-eval (L2 flushed, median).
# Usage: run_wgmma_split_k.sh <folder with stark-template and stark-eval> <out folder>
set -u
bin=$1
out=$2
mkdir -p "$out"
. "$(dirname "$0")/template_bench.sh"
for shape in "128 768 768" "128 3072 768" "128 768 3072" "512 2048 2048" "512 5632 2048" "512 2048 5632"; do
  for o in nk kn; do
    set -- $shape
    p=$(problem "$1" "$2" "$3" "$o")
    l="$1x$2x$3_$o"
    run "$p" gemm_wgmma_3xtf32 "" "${l}_wgmma_first"
    run "$p" gemm_wgmma_3xtf32 "stages=3,group_m=8,split_k=1" "${l}_wgmma_unsplit"
    run "$p" gemm_3xtf32 "" "${l}_3xtf32_first"
    # Tiles that fill the SMs but leave the last wave part empty (176 tiles
    # on 132 SMs): slices that even out the waves.
    if [ "$1x$2" = 512x5632 ]; then
      run "$p" gemm_wgmma_3xtf32 "stages=3,group_m=8,split_k=2" "${l}_wgmma_split2"
      run "$p" gemm_wgmma_3xtf32 "stages=3,group_m=8,split_k=3" "${l}_wgmma_split3"
    fi
  done
done

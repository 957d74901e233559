#!/bin/sh
# Times VGG-16's three-by-three convolutions (batch 1, f32, as torch-mlir
# exports them: a zero fill and a convolution of the padded input) with
# gemm_wgmma_3xtf32, whose first launch gathers the input into an im2col
# workspace: its first pick, unsplit with two producer warpgroups and four
# stages, and the earlier choices (one producer, three stages; unsplit and
# with the earlier split count, the last number of the shape), against the
# first pick of the conv family. Every candidate is verified and timed by
# stark-eval (L2 flushed, median).
# Usage: run_conv_im2col.sh <folder with stark-template and stark-eval> <out folder>
set -u
bin=$1
out=$2
mkdir -p "$out"
. "$(dirname "$0")/template_bench.sh"
for shape in "64 64 224 1" "128 128 112 2" "256 256 56 3" "512 512 28 5" "512 512 14 18"; do
  set -- $shape
  p=$(conv "$1" "$2" "$3")
  l="conv_$1x$2_$3"
  run "$p" gemm_wgmma_3xtf32 "" "${l}_wgmma_im2col_first"
  run "$p" gemm_wgmma_3xtf32 "stages=4,group_m=8,producers=2,split_k=1" "${l}_wgmma_im2col_unsplit_p2"
  run "$p" gemm_wgmma_3xtf32 "stages=3,group_m=8,producers=1,split_k=1" "${l}_wgmma_im2col_unsplit_p1"
  [ "$4" != 1 ] && run "$p" gemm_wgmma_3xtf32 "stages=3,group_m=8,producers=1,split_k=$4" "${l}_wgmma_im2col_split$4_p1"
  run "$p" conv "" "${l}_conv_first"
done

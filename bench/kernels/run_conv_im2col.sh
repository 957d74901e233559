#!/bin/sh
# Times VGG-16's three-by-three convolutions (batch 1, f32, as torch-mlir
# exports them: a zero fill and a convolution of the padded input) with
# gemm_wgmma_3xtf32, whose first launch gathers the input into an im2col
# workspace (its first pick, and unsplit), against the first picks of the
# conv, gemm_f32 and gemm_3xtf32 families. Every candidate is verified and
# timed by stark-eval (L2 flushed, median).
# Usage: run_conv_im2col.sh <folder with stark-template and stark-eval> <out folder>
set -u
bin=$1
out=$2
mkdir -p "$out"
. "$(dirname "$0")/template_bench.sh"
for shape in "64 64 224" "128 128 112" "256 256 56" "512 512 28" "512 512 14"; do
  set -- $shape
  p=$(conv "$1" "$2" "$3")
  l="conv_$1x$2_$3"
  run "$p" gemm_wgmma_3xtf32 "" "${l}_wgmma_im2col_first"
  run "$p" gemm_wgmma_3xtf32 "stages=3,group_m=8,split_k=1" "${l}_wgmma_im2col_unsplit"
  run "$p" conv "" "${l}_conv_first"
  run "$p" gemm_f32 "" "${l}_gemm_f32_first"
  run "$p" gemm_3xtf32 "" "${l}_3xtf32_first"
done

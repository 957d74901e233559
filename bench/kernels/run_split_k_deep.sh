#!/bin/sh
# Times the deep 3x3 convolutions of VGG-16 at batch 1 (k = 9 x input
# channels at least twice the larger side of the output) with the first
# sets gemm_3xtf32 and gemm_f32 enumerate now (128-wide tiles in slices of
# k) against the sets they enumerated first before deep contractions were
# split (smaller tiles, unsplit: 64 x 32 ran the 512-channel 28 x 28 layer
# at 8 TFLOP/s on the H200). Every candidate is verified and timed by
# stark-eval (L2 flushed, median).
# Usage: run_split_k_deep.sh <folder with stark-template and stark-eval> <out folder>
set -u
bin=$1
out=$2
mkdir -p "$out"
. "$(dirname "$0")/template_bench.sh"
for shape in "512 512 28" "256 512 28" "256 256 56"; do
  set -- $shape
  p=$(conv "$1" "$2" "$3")
  l="conv_$1_$2_$3"
  run "$p" gemm_3xtf32 "" "${l}_3xtf32_first"
  run "$p" gemm_3xtf32 "bk=32,bm=64,bn=32,group_m=8,split_k=1,stages=4,wm=32,wn=16" "${l}_3xtf32_64x32"
  run "$p" gemm_3xtf32 "bk=32,bm=64,bn=64,group_m=8,split_k=1,stages=4,wm=32,wn=32" "${l}_3xtf32_64x64"
  run "$p" gemm_f32 "" "${l}_f32_first"
  run "$p" conv "" "${l}_conv_first"
done
rm -f "$out"/*.mlir

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
conv() { # CIN COUT H (output H = W, input padded by one)
  p=$(($3 + 2))
  f="$out/conv_$1x$2_$3.mlir"
  cat >"$f" <<MLIR
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.conv_2d_nchw_fchw", shapes = "1x$1x${p}x${p}xf32,$2x$1x3x3xf32->1x$2x$3x$3xf32", signature = "0">} {
  func.func @kernel(%i: memref<1x$1x${p}x${p}xf32>, %f: memref<$2x$1x3x3xf32>, %o: memref<1x$2x$3x$3xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%o : memref<1x$2x$3x$3xf32>)
    linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : memref<1x$1x${p}x${p}xf32>, memref<$2x$1x3x3xf32>) outs(%o : memref<1x$2x$3x$3xf32>)
    return
  }
}
MLIR
  echo "$f"
}
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

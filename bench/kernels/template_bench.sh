# Sourced by the kernel benches that time stark-template's candidates with
# stark-eval: `problem M N K nk|kn` writes a fill + matmul problem into
# $out (B as the N x K weight of a linear layer, or K x N) and prints its
# path.
problem() {
  f="$out/p_$1x$2x$3_$4.mlir"
  if [ "$4" = nk ]; then
    bshape="$2x$3"
    maps='indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] '
  else
    bshape="$3x$2"
    maps=''
  fi
  cat >"$f" <<MLIR
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.matmul", shapes = "$1x$3xf32,${bshape}xf32->$1x$2xf32", signature = "0">} {
  func.func @kernel(%a: memref<$1x$3xf32>, %b: memref<${bshape}xf32>, %c: memref<$1x$2xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<$1x$2xf32>)
    linalg.matmul ${maps}ins(%a, %b : memref<$1x$3xf32>, memref<${bshape}xf32>) outs(%c : memref<$1x$2xf32>)
    return
  }
}
MLIR
  echo "$f"
}

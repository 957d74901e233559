# Sourced by the kernel benches that time stark-template's candidates with
# stark-eval, with $bin (stark-template and stark-eval) and $out set:
# `problem M N K nk|kn` writes a fill + matmul problem into $out (B as the
# N x K weight of a linear layer, or K x N) and prints its path; `conv CIN
# COUT SIZE` a fill + 3x3 convolution of VGG-16 (the padding in the input);
# `run PROBLEM FAMILY PARAMS LABEL [BYTES]` verifies and times the family's
# candidate (its first point where PARAMS is empty) and prints its status,
# its time and the baseline's, and BYTES over its time as a bandwidth.
# EVAL_TIMEOUT: seconds stark-eval's worker may take (default 300: a
# problem with a model's weight, 411 MB for VGG-16's classifier, ran out of
# stark-eval's own 60 s in its extra trials).
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
# conv CIN COUT SIZE: a fill + 3x3 convolution (padding in the input) of
# VGG-16, written into $out; prints its path.
conv() {
  p=$(($3 + 2))
  f="$out/conv_$1_$2_$3.mlir"
  cat >"$f" <<MLIR
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.conv_2d_nchw_fchw", shapes = "1x$1x${p}x${p}xf32,$2x$1x3x3xf32->1x$2x$3x$3xf32", signature = "0">} {
  func.func @kernel(%i: memref<1x$1x${p}x${p}xf32>, %f: memref<$2x$1x3x3xf32>, %o: memref<1x$2x$3x$3xf32>) {
    %z = arith.constant 0.0 : f32
    linalg.fill ins(%z : f32) outs(%o : memref<1x$2x$3x$3xf32>)
    linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : memref<1x$1x${p}x${p}xf32>, memref<$2x$1x3x3xf32>) outs(%o : memref<1x$2x$3x$3xf32>)
    return
  }
}
MLIR
  echo "$f"
}
run() {
  "$bin/stark-template" --problem "$1" --family "$2" ${3:+--params "$3"} >"$out/c.mlir" 2>"$out/c.err" ||
    { echo "$4: no candidate: $(cat "$out/c.err")"; return; }
  params=$(grep -o 'params = {[^}]*}' "$out/c.mlir" | head -1)
  "$bin/stark-eval" --target cuda --problem "$1" --candidate "$out/c.mlir" --json \
    --timeout "${EVAL_TIMEOUT:-300}" \
    --time-budget 1 >"$out/$4.json" 2>"$out/$4.err"
  echo "$4 $2 $params: $(python3 -c "
import json,sys
r=json.load(open(sys.argv[1])); t=r.get('timing',{})
c=t.get('candidate',{}).get('median_s',0)
line=[r.get('status'), round(c*1e6,1), 'us', 'baseline', round(t.get('baseline',{}).get('median_s',0)*1e6,1), 'us']
if sys.argv[2]:
    line+=['B at', round(float(sys.argv[2])/c/1e9) if c else '-', 'GB/s']
print(*line)" "$out/$4.json" "${5:-}" 2>/dev/null)"
}

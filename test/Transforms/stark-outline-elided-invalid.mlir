// A problem is evaluated on its own, so a weight it would hold must have
// data: a constant without any, captured by the op outlined, is an error on
// the constant that names it and how to opt in.
// RUN: stark-opt %s --stark-outline="all=1" -verify-diagnostics -o /dev/null

func.func @gather(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{weight '__elided__#0' of type 'tensor<8xf32>' has no data: the exporter elided it (dense_resource<__elided__>); the program cannot run without its weights (--stark-pipeline="synthesize-elided-weights=1" or --stark-fold-constants="synthesize-elided-weights=1" before --stark-outline replaces each missing weight with deterministic weights of its type, for timing and verification only)}}
  %scale = arith.constant dense_resource<__elided__> : tensor<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %j = linalg.index 1 : index
    %s = tensor.extract %scale[%j] : tensor<8xf32>
    %m = arith.mulf %v, %s : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

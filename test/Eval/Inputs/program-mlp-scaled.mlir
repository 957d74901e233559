// program-mlp-elided.mlir with its weights in the file (the scale all
// ones): not the weights stark-eval --synthesize-elided-weights makes up.
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
ml_program.global private @w(dense<[[0.5, -0.25, 1.0, 0.0], [0.125, 0.75, -1.0, 2.0], [1.5, 0.0, 0.25, -0.5]]> : tensor<3x4xf32>) : tensor<3x4xf32>
ml_program.global private @b(dense<[0.1, -0.2, 0.3]> : tensor<3xf32>) : tensor<3xf32>
func.func @forward(%x: tensor<8x4xf32>) -> tensor<8x3xf32> {
  %w = ml_program.global_load_const @w : tensor<3x4xf32>
  %b = ml_program.global_load_const @b : tensor<3xf32>
  %scale = arith.constant dense<1.0> : tensor<8x3xf32>
  %et = tensor.empty() : tensor<4x3xf32>
  %wt = linalg.transpose ins(%w : tensor<3x4xf32>) outs(%et : tensor<4x3xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x3xf32>) -> tensor<8x3xf32>
  %mm = linalg.matmul ins(%x, %wt : tensor<8x4xf32>, tensor<4x3xf32>) outs(%acc : tensor<8x3xf32>) -> tensor<8x3xf32>
  %y = linalg.generic {indexing_maps = [#map, #row, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b, %scale : tensor<8x3xf32>, tensor<3xf32>, tensor<8x3xf32>) outs(%e : tensor<8x3xf32>) {
  ^bb0(%v: f32, %bias: f32, %s: f32, %o: f32):
    %a = arith.addf %v, %bias : f32
    %m = arith.mulf %a, %s : f32
    %r = arith.maximumf %m, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x3xf32>
  return %y : tensor<8x3xf32>
}

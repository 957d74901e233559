// A layer as full-size exports write it when they leave the weights out:
// splat ml_program globals (the pipeline keeps them as memref.global), a
// matmul over 64 inputs, bias.
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
ml_program.global private @w(dense<0.03125> : tensor<64x32xf32>) : tensor<64x32xf32>
ml_program.global private @b(dense<0.5> : tensor<32xf32>) : tensor<32xf32>
func.func @forward(%x: tensor<8x64xf32>) -> tensor<8x32xf32> {
  %w = ml_program.global_load_const @w : tensor<64x32xf32>
  %b = ml_program.global_load_const @b : tensor<32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<8x64xf32>, tensor<64x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %r = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<8x32xf32>, tensor<32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

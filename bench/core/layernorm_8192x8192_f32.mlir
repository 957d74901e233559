// Layer norm over the last dimension of an 8192 x 8192 fp32 matrix with
// gamma and beta, eps 1e-5 (torch: layer_norm(x, (8192,), gamma, beta)),
// written as linalg: the row sum, the sum of centred squares, then the
// normalisation; --stark-outline fuses the three into one problem.
func.func @layernorm(%x: tensor<8192x8192xf32>, %g: tensor<8192xf32>, %b: tensor<8192xf32>) -> tensor<8192x8192xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 8192.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty() : tensor<8192xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%er : tensor<8192xf32>) -> tensor<8192xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8192x8192xf32>) outs(%acc : tensor<8192xf32>) {
  ^bb0(%v: f32, %a: f32):
    %t = arith.addf %a, %v : f32
    linalg.yield %t : f32
  } -> tensor<8192xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<8192x8192xf32>, tensor<8192xf32>) outs(%acc : tensor<8192xf32>) {
  ^bb0(%v: f32, %s: f32, %a: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %t = arith.addf %a, %d2 : f32
    linalg.yield %t : f32
  } -> tensor<8192xf32>
  %ex = tensor.empty() : tensor<8192x8192xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %sq, %g, %b : tensor<8192x8192xf32>, tensor<8192xf32>, tensor<8192xf32>, tensor<8192xf32>, tensor<8192xf32>) outs(%ex : tensor<8192x8192xf32>) {
  ^bb0(%v: f32, %s: f32, %q: f32, %gv: f32, %bv: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    %var = arith.divf %q, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %v, %m : f32
    %w0 = arith.mulf %d, %r : f32
    %w1 = arith.mulf %w0, %gv : f32
    %w2 = arith.addf %w1, %bv : f32
    linalg.yield %w2 : f32
  } -> tensor<8192x8192xf32>
  return %y : tensor<8192x8192xf32>
}

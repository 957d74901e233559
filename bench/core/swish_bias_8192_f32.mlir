// An elementwise chain on 8192 x 8192 fp32: x * sigmoid(x) * 1.702 + b[col]
// (torch eager: four kernels).
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @swish_bias(%x: tensor<8192x8192xf32>, %b: tensor<8192xf32>) -> tensor<8192x8192xf32> {
  %e = tensor.empty() : tensor<8192x8192xf32>
  %0 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<8192x8192xf32>, tensor<8192xf32>) outs(%e : tensor<8192x8192xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %k = arith.constant 1.702 : f32
    %n = arith.negf %v : f32
    %ex = math.exp %n : f32
    %d = arith.addf %one, %ex : f32
    %sig = arith.divf %one, %d : f32
    %m = arith.mulf %v, %sig : f32
    %s = arith.mulf %m, %k : f32
    %r = arith.addf %s, %bias : f32
    linalg.yield %r : f32
  } -> tensor<8192x8192xf32>
  return %0 : tensor<8192x8192xf32>
}

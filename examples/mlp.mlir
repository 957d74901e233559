// A two-layer MLP block with a row softmax: what a small model's forward
// pass looks like after lowering to linalg on tensors.
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @mlp(%x: tensor<128x256xf32>, %w1: tensor<256x512xf32>,
               %b1: tensor<512xf32>, %w2: tensor<512x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<128x512xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<128x256xf32>, tensor<256x512xf32>)
                     outs(%acc1 : tensor<128x512xf32>) -> tensor<128x512xf32>
  // bias + ReLU
  %a = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<128x512xf32>, tensor<512xf32>) outs(%e1 : tensor<128x512xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<128x512xf32>
  %e2 = tensor.empty() : tensor<128x128xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %y = linalg.matmul ins(%a, %w2 : tensor<128x512xf32>, tensor<512x128xf32>)
                     outs(%acc2 : tensor<128x128xf32>) -> tensor<128x128xf32>
  // row softmax: max, exp(x - max), sum, divide
  %er = tensor.empty() : tensor<128xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<128xf32>) -> tensor<128xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<128x128xf32>) outs(%mi : tensor<128xf32>) {
  ^bb0(%v: f32, %m: f32):
    %r = arith.maximumf %v, %m : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %max : tensor<128x128xf32>, tensor<128xf32>) outs(%e2 : tensor<128x128xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<128x128xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<128xf32>) -> tensor<128xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<128x128xf32>) outs(%si : tensor<128xf32>) {
  ^bb0(%v: f32, %s: f32):
    %r = arith.addf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<128x128xf32>, tensor<128xf32>) outs(%e2 : tensor<128x128xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.divf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<128x128xf32>
  return %out : tensor<128x128xf32>
}

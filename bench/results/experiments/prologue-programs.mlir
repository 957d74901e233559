// Programs for the operand-prologue measurement (bench/results/experiments/
// prologue-2026-12-02-h200.md has the command and the results).
func.func @scale_relu_matmul(%x: tensor<1024x1024xf32>, %s: tensor<1024xf32>, %w: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<1024x1024xf32>, tensor<1024xf32>) outs(%e : tensor<1024x1024xf32>) {
  ^bb0(%v: f32, %k: f32, %o: f32):
    %p = arith.mulf %v, %k : f32
    %r = arith.maximumf %p, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1024x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %y = linalg.matmul ins(%a, %w : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %y : tensor<1024x1024xf32>
}

func.func @dequant_matmul_bias(%x: tensor<256x4096xf32>, %w: tensor<4096x4096xf16>, %s: tensor<4096xf32>, %bias: tensor<4096xf32>) -> tensor<256x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %eb = tensor.empty() : tensor<4096x4096xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %s : tensor<4096x4096xf16>, tensor<4096xf32>) outs(%eb : tensor<4096x4096xf32>) {
  ^bb0(%v: f16, %k: f32, %o: f32):
    %f = arith.extf %v : f16 to f32
    %p = arith.mulf %f, %k : f32
    linalg.yield %p : f32
  } -> tensor<4096x4096xf32>
  %e = tensor.empty() : tensor<256x4096xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x4096xf32>) -> tensor<256x4096xf32>
  %mm = linalg.matmul ins(%x, %b : tensor<256x4096xf32>, tensor<4096x4096xf32>) outs(%c : tensor<256x4096xf32>) -> tensor<256x4096xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<256x4096xf32>, tensor<4096xf32>) outs(%e : tensor<256x4096xf32>) {
  ^bb0(%v: f32, %t: f32, %o: f32):
    %z = arith.addf %v, %t : f32
    linalg.yield %z : f32
  } -> tensor<256x4096xf32>
  return %y : tensor<256x4096xf32>
}

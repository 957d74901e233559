// The model of prologue-program.mlir as a frontend gives it.
module {
  func.func @forward(%x: tensor<70x131xf32>, %s: tensor<131xf32>, %w: tensor<131x45xf32>) -> tensor<70x45xf32> {
    %zero = arith.constant 0.0 : f32
    %half = arith.constant 0.5 : f32
    %e = tensor.empty() : tensor<70x131xf32>
    %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%x, %s : tensor<70x131xf32>, tensor<131xf32>) outs(%e : tensor<70x131xf32>) {
    ^bb0(%v: f32, %k: f32, %o: f32):
      %p = arith.mulf %v, %k : f32
      %r = arith.maximumf %p, %zero : f32
      linalg.yield %r : f32
    } -> tensor<70x131xf32>
    %c0 = tensor.empty() : tensor<70x45xf32>
    %c = linalg.fill ins(%half : f32) outs(%c0 : tensor<70x45xf32>) -> tensor<70x45xf32>
    %y = linalg.matmul ins(%a, %w : tensor<70x131xf32>, tensor<131x45xf32>) outs(%c : tensor<70x45xf32>) -> tensor<70x45xf32>
    return %y : tensor<70x45xf32>
  }
}

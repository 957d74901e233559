// The model of substitute-matmul-tensor-program.mlir as a frontend gives
// it: a matmul into a zero fill, then an element-wise op.
module {
  func.func @forward(%a: tensor<255x129xf32>, %b: tensor<129x191xf32>) -> tensor<255x191xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<255x191xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<255x191xf32>) -> tensor<255x191xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<255x129xf32>, tensor<129x191xf32>) outs(%init : tensor<255x191xf32>) -> tensor<255x191xf32>
    %e2 = tensor.empty() : tensor<255x191xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%mm : tensor<255x191xf32>) outs(%e2 : tensor<255x191xf32>) {
    ^bb0(%v: f32, %o: f32):
      %t = math.tanh %v : f32
      %s = arith.addf %t, %v : f32
      linalg.yield %s : f32
    } -> tensor<255x191xf32>
    return %y : tensor<255x191xf32>
  }
}

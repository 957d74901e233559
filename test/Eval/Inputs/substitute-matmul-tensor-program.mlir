// A model on tensors whose matmul (with the fill of its output, as
// --stark-outline makes the pair one problem) went to @stark_problem_0, and
// a GELU-like epilogue stays in the program; with_winner.py puts a winner
// where the marker below is.
module {
  func.func @forward(%a: tensor<255x129xf32>, %b: tensor<129x191xf32>) -> tensor<255x191xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<255x191xf32>
    %init = linalg.fill {stark.problem = @stark_problem_0} ins(%zero : f32) outs(%e : tensor<255x191xf32>) -> tensor<255x191xf32>
    %mm = linalg.matmul {stark.problem = @stark_problem_0} ins(%a, %b : tensor<255x129xf32>, tensor<129x191xf32>) outs(%init : tensor<255x191xf32>) -> tensor<255x191xf32>
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
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.matmul", shapes = "255x129xf32,129x191xf32->255x191xf32", signature = "5ab57177e5ab5717">, stark.winner = #stark.winner<baseline_us = 1.0, candidate = 1, params = {}, speedup = 1.0, strategy = "test", target = "cuda", winner_us = 1.0>} {
    func.func @kernel(%a: memref<255x129xf32>, %b: memref<129x191xf32>, %c: memref<255x191xf32>) {
      %zero = arith.constant 0.0 : f32
      linalg.fill ins(%zero : f32) outs(%c : memref<255x191xf32>)
      linalg.matmul ins(%a, %b : memref<255x129xf32>, memref<129x191xf32>) outs(%c : memref<255x191xf32>)
      return
    }
    // WINNER
  }
}

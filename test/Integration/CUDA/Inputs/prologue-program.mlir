// A model on tensors whose relu(x * scale) computes A of a matmul from a
// fill of 0.5 (as --stark-outline makes the three one problem: the operand
// prologue, the fill and the matmul); with_winner.py puts a winner where
// the marker below is. prologue-model.mlir is the same model untagged.
module {
  func.func @forward(%x: tensor<70x131xf32>, %s: tensor<131xf32>, %w: tensor<131x45xf32>) -> tensor<70x45xf32> {
    %zero = arith.constant 0.0 : f32
    %half = arith.constant 0.5 : f32
    %e = tensor.empty() : tensor<70x131xf32>
    %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%x, %s : tensor<70x131xf32>, tensor<131xf32>) outs(%e : tensor<70x131xf32>) attrs = {stark.problem = @stark_problem_0} {
    ^bb0(%v: f32, %k: f32, %o: f32):
      %p = arith.mulf %v, %k : f32
      %r = arith.maximumf %p, %zero : f32
      linalg.yield %r : f32
    } -> tensor<70x131xf32>
    %c0 = tensor.empty() : tensor<70x45xf32>
    %c = linalg.fill {stark.problem = @stark_problem_0} ins(%half : f32) outs(%c0 : tensor<70x45xf32>) -> tensor<70x45xf32>
    %y = linalg.matmul {stark.problem = @stark_problem_0} ins(%a, %w : tensor<70x131xf32>, tensor<131x45xf32>) outs(%c : tensor<70x45xf32>) -> tensor<70x45xf32>
    return %y : tensor<70x45xf32>
  }
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.generic,linalg.matmul)", shapes = "70x131xf32,131xf32,131x45xf32->70x45xf32", signature = "0">, stark.winner = #stark.winner<baseline_us = 1.0, candidate = 1, params = {}, speedup = 1.0, strategy = "test", target = "cuda", winner_us = 1.0>} {
    func.func @kernel(%x: memref<70x131xf32>, %s: memref<131xf32>, %w: memref<131x45xf32>, %out: memref<70x45xf32>) {
      return
    }
    // WINNER
  }
}

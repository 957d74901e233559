// A program whose matmul was outlined into @stark_problem_0; with_winner.py
// puts a winner where the marker below is, as stark-search would.
module {
  func.func @kernel(%a: memref<255x129xf32>, %b: memref<129x191xf32>, %c: memref<255x191xf32>) {
    linalg.matmul {stark.problem = @stark_problem_0} ins(%a, %b : memref<255x129xf32>, memref<129x191xf32>) outs(%c : memref<255x191xf32>)
    return
  }
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "255x129xf32,129x191xf32->255x191xf32", signature = "5ab57177e5ab5717">, stark.winner = #stark.winner<baseline_us = 1.0, candidate = 1, params = {}, speedup = 1.0, strategy = "test", target = "cuda", winner_us = 1.0>} {
    func.func @kernel(%a: memref<255x129xf32>, %b: memref<129x191xf32>, %c: memref<255x191xf32>) {
      linalg.matmul ins(%a, %b : memref<255x129xf32>, memref<129x191xf32>) outs(%c : memref<255x191xf32>)
      return
    }
    // WINNER
  }
}

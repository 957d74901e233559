// A program whose bf16 matmul was outlined into @stark_problem_0 (the
// problem of templates/Inputs/matmul-2048x512-bf16.mlir); with_winner.py
// puts a winner where the marker below is, as stark-search would.
module {
  func.func @kernel(%a: memref<2048x512xbf16>, %b: memref<512x2048xbf16>, %c: memref<2048x2048xf32>) {
    linalg.matmul {stark.problem = @stark_problem_0} ins(%a, %b : memref<2048x512xbf16>, memref<512x2048xbf16>) outs(%c : memref<2048x2048xf32>)
    return
  }
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "2048x512xbf16,512x2048xbf16->2048x2048xf32", signature = "0">, stark.winner = #stark.winner<baseline_us = 1.0, candidate = 1, params = {}, speedup = 1.0, strategy = "test", target = "cuda", winner_us = 1.0>} {
    func.func @kernel(%a: memref<2048x512xbf16>, %b: memref<512x2048xbf16>, %c: memref<2048x2048xf32>) {
      linalg.matmul ins(%a, %b : memref<2048x512xbf16>, memref<512x2048xbf16>) outs(%c : memref<2048x2048xf32>)
      return
    }
    // WINNER
  }
}

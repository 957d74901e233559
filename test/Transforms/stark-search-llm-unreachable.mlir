// REQUIRES: llm-http
// A model that cannot be reached fails the pass with the reason, and the
// problem gets no winner (stark-search-llm-fallback.mlir: the expert takes
// over instead when asked to).
// RUN: stark-opt %s --stark-search="target=cpu agent=llm llm-url=http://127.0.0.1:9 llm-model=m llm-retries=0 progress=0 trials=1 timing-trials=1 budget=1" -verify-diagnostics

module {
  // expected-error @+1 {{stark-search: agent llm: the model failed (unreachable): cannot reach the model at http://127.0.0.1:9/v1/chat/completions}}
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "16x8xf32,8x4xf32->16x4xf32", signature = "00">} {
    func.func @kernel(%a: memref<16x8xf32>, %b: memref<8x4xf32>, %c: memref<16x4xf32>) {
      linalg.matmul ins(%a, %b : memref<16x8xf32>, memref<8x4xf32>) outs(%c : memref<16x4xf32>)
      return
    }
  }
}

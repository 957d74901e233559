// The problem's own evaluation needs a positive time limit of its own.
// RUN: stark-opt %s --stark-search="target=cpu reference-timeout=0" -verify-diagnostics
// RUN: stark-opt %s --stark-search="target=cpu reference-timeout=-5" -verify-diagnostics

// expected-error @below {{stark-search: reference-timeout must be positive}}
module {
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.copy", shapes = "4xf32->4xf32", signature = "00">} {
    func.func @kernel(%a: memref<4xf32>, %b: memref<4xf32>) {
      linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
      return
    }
  }
}

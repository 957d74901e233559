// Without a usable GPU, target=cuda is a clear error and target=auto falls
// back to the host.
// UNSUPPORTED: cuda-device
// RUN: not stark-opt %s --stark-search="target=cuda" 2>&1 | FileCheck %s
// RUN: stark-opt %s --stark-search="target=auto agent=replay transcript=%S/Inputs/search-copy-wrong.json progress=0 trials=1 report=%t.json" -o /dev/null 2>&1
// RUN: FileCheck %s --check-prefix=AUTO < %t.json

// CHECK: error: stark-search: target cuda: no CUDA device
// AUTO: "target": "cpu"

module {
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.copy", shapes = "4xf32->4xf32", signature = "00">} {
    func.func @kernel(%a: memref<4xf32>, %b: memref<4xf32>) {
      linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
      return
    }
  }
}

// Bad options of --stark-hot-ops get a clear error and leave the IR alone.
// RUN: stark-opt %s --stark-hot-ops="profile=tpu" -verify-diagnostics
// RUN: not stark-opt %s --stark-hot-ops="min-share=1.5" 2>&1 | FileCheck %s --check-prefix=SHARE
// RUN: not stark-opt %s --stark-hot-ops="min-share=-0.1" 2>&1 | FileCheck %s --check-prefix=SHARE
// RUN: not stark-opt %s --stark-hot-ops="top-k=-1" 2>&1 | FileCheck %s --check-prefix=TOPK
// RUN: not stark-opt %s --stark-hot-ops="bogus=1" 2>&1 | FileCheck %s --check-prefix=BOGUS

// SHARE: error: stark-hot-ops: min-share must be between 0 and 1, got
// TOPK: for the --top-k option: '-1' value invalid for uint argument
// BOGUS: no such option bogus

// expected-error @below {{stark-hot-ops: unknown hardware profile 'tpu'; expected one of: h200, a100, host}}
module {
  func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>)
                       outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}

// A bad hardware profile for --stark-outline's cost model is an error and
// leaves the IR alone.
// RUN: stark-opt %s --stark-outline="all=1 profile=tpu" -verify-diagnostics

// expected-error @below {{stark-outline: unknown hardware profile 'tpu'; expected one of: h200, a100, host}}
module {
  func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = linalg.add ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>)
                    outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}

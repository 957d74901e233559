// RUN: stark-opt %s --stark-extracts-to-operands="max-points=8" -verify-diagnostics | FileCheck %s

// An iteration space of more points than max-points is not evaluated: the
// op keeps its read, and a remark says why.
// CHECK-LABEL: func.func @too_many
// CHECK: tensor.extract %{{.*}} : tensor<4x4xf32>
func.func @too_many(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  // expected-remark @+1 {{its iteration space has more than 8 points (max-points)}}
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %x[%j, %i] : tensor<4x4xf32>
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}

// RUN: stark-opt %s --stark-hot-ops="profile=h200 remark-all" -verify-diagnostics | FileCheck %s

// The zero fill of the matmul's output ranks with the matmul: one op, the
// fill's bytes and time folded in (4 MB per input, C read and
// written by the matmul, plus the fill's 4 MB), and no rank of its own.
// The fill of the sum's output ranks with the sum in the same way.
// CHECK-LABEL: func.func @fill_matmul
// CHECK: linalg.fill ins
// CHECK: linalg.matmul {stark.cost = #stark.cost<{{.*}}rank = 1
// CHECK: linalg.fill ins
// CHECK: linalg.generic {{.*}}stark.cost = #stark.cost<{{.*}}rank = 2
func.func @fill_matmul(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>, %x: tensor<1024x1024xf32>) -> (tensor<1024x1024xf32>, tensor<1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  // expected-remark @+1 {{hot op #1: fill + contraction, 2.15 GFLOP, 21.0 MB,}}
  %0 = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                     outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %er = tensor.empty() : tensor<1024xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%er : tensor<1024xf32>) -> tensor<1024xf32>
  // expected-remark @+1 {{hot op #2: fill + reduction}}
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1024x1024xf32>) outs(%acc : tensor<1024xf32>) {
  ^bb0(%v: f32, %s: f32):
    %r = arith.addf %s, %v : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  return %0, %sum : tensor<1024x1024xf32>, tensor<1024xf32>
}

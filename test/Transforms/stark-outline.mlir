// RUN: stark-opt %s --split-input-file --stark-hot-ops="profile=h200 top-k=1" --stark-outline -verify-diagnostics | FileCheck %s
// RUN: stark-opt %s --split-input-file --stark-outline="all" 2>/dev/null | FileCheck %s --check-prefix=ALL
// RUN: rm -rf %t && stark-opt %s --split-input-file --stark-outline="all dir=%t" -o /dev/null 2>/dev/null
// RUN: cat %t/d43b79f0880d20515679d57754034a81.mlir | FileCheck %s --check-prefix=FILE

// The hot matmul becomes a problem with memref arguments; the op in the
// input is tagged with the problem's symbol, nothing else changes.
// CHECK-LABEL: func.func @matmul_tensor
// CHECK: %[[R:.+]] = linalg.matmul {stark.cost = {{.*}}, stark.problem = @stark_problem_0}
// CHECK: return %[[R]]
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "64x32xf32,32x16xf32->64x16xf32", signature = "d43b79f0880d20515679d57754034a81">}
// CHECK-NEXT: func.func @kernel(%[[A:.+]]: memref<64x32xf32>, %[[B:.+]]: memref<32x16xf32>, %[[C:.+]]: memref<64x16xf32>)
// CHECK-NEXT: linalg.matmul ins(%[[A]], %[[B]] : memref<64x32xf32>, memref<32x16xf32>) outs(%[[C]] : memref<64x16xf32>)
// CHECK-NEXT: return
func.func @matmul_tensor(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>,
                         %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  // expected-remark @+2 {{hot op #1}}
  // expected-remark @+1 {{outlined as @stark_problem_0 (linalg.matmul 64x32xf32,32x16xf32->64x16xf32, signature}}
  %0 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>)
                     outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}

// -----

// The memref form of the same matmul has the same signature, and two ops
// with one signature share one problem.
// ALL-LABEL: func.func @matmul_memref
// ALL: linalg.matmul {stark.problem = @stark_problem_0}
// ALL: linalg.matmul {stark.problem = @stark_problem_0}
// ALL: module @stark_problem_0 attributes {stark.problem = #stark.problem<{{.*}}signature = "d43b79f0880d20515679d57754034a81">}
// ALL-NOT: module @stark_problem_1
func.func @matmul_memref(%a: memref<64x32xf32>, %b: memref<32x16xf32>,
                         %c: memref<64x16xf32>, %d: memref<64x16xf32>) {
  // expected-remark @+2 {{hot op #1}}
  // expected-remark @+1 {{outlined as @stark_problem_0 (linalg.matmul 64x32xf32,32x16xf32->64x16xf32, signature d43b79f0880d20515679d57754034a81)}}
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%d : memref<64x16xf32>)
  return
}

// -----

// Constants the op captures (a fill value, a constant in the body) are
// cloned into the problem.
// ALL-LABEL: func.func @captured_constants
// ALL: module @stark_problem_0
// ALL-NEXT: func.func @kernel(%[[IN:.+]]: memref<128xf32>, %[[OUT:.+]]: memref<128xf32>)
// ALL-NEXT: %[[CST:.+]] = arith.constant 2.000000e+00 : f32
// ALL-NEXT: linalg.generic
// ALL: arith.mulf %{{.+}}, %[[CST]] : f32
// ALL: module @stark_problem_1
// ALL-NEXT: func.func @kernel(%[[OUT2:.+]]: memref<128xf32>)
// ALL-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// ALL-NEXT: linalg.fill ins(%[[ZERO]] : f32) outs(%[[OUT2]] : memref<128xf32>)
func.func @captured_constants(%x: tensor<128xf32>) -> tensor<128xf32> {
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128xf32>
  // expected-remark @+2 {{hot op #1}}
  // expected-remark @+1 {{outlined as @stark_problem_0 (linalg.generic 128xf32->128xf32}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<128xf32>) outs(%e : tensor<128xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %two : f32
    linalg.yield %m : f32
  } -> tensor<128xf32>
  %1 = linalg.fill ins(%zero : f32) outs(%0 : tensor<128xf32>) -> tensor<128xf32>
  return %1 : tensor<128xf32>
}

// -----

// What cannot be outlined stays, with a remark.
// CHECK-LABEL: func.func @not_outlined
// CHECK-NOT: module @stark_problem
func.func @not_outlined(%x: tensor<128xf32>, %s: f32) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<128xf32>
  // expected-remark @+2 {{hot op #1}}
  // expected-remark @+1 {{not outlined: reads a value that is neither a shaped operand nor a constant}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<128xf32>) outs(%e : tensor<128xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %s : f32
    linalg.yield %m : f32
  } -> tensor<128xf32>
  return %0 : tensor<128xf32>
}

// FILE: module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul"
// FILE: func.func @kernel(

// -----

// A problem file (a module carrying stark.problem, as `dir=` writes them)
// given as the input is a program like any other: its op is outlined. Only
// problem modules nested in the input are skipped.
// CHECK: module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1>}
// CHECK: linalg.matmul {stark.cost = {{.*}}, stark.problem = @stark_problem_0}
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<{{.*}}signature = "d43b79f0880d20515679d57754034a81">}
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1>} {
  func.func @kernel(%a: memref<64x32xf32>, %b: memref<32x16xf32>,
                    %c: memref<64x16xf32>) {
    // expected-remark @+2 {{hot op #1}}
    // expected-remark @+1 {{outlined as @stark_problem_0}}
    linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
    return
  }
}

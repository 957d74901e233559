// RUN: stark-opt %s --split-input-file --stark-outline=all -verify-diagnostics | FileCheck %s
// RUN: stark-opt %s --split-input-file --stark-outline="all fuse=false" 2>/dev/null | FileCheck %s --check-prefix=NOFUSE

// A zero fill whose only user is a matmul's init is part of the matmul's
// problem: the entry fills its output argument, then accumulates into it,
// so the problem never reads the output's old value. Both ops are tagged.
// CHECK-LABEL: func.func @fill_matmul
// CHECK: linalg.fill {stark.problem = @stark_problem_0}
// CHECK: linalg.matmul {stark.problem = @stark_problem_0}
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.matmul", shapes = "64x32xf32,32x16xf32->64x16xf32", signature = "{{[0-9a-f]+}}">}
// CHECK-NEXT: func.func @kernel(%[[A:.+]]: memref<64x32xf32>, %[[B:.+]]: memref<32x16xf32>, %[[C:.+]]: memref<64x16xf32>)
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: linalg.fill ins(%[[ZERO]] : f32) outs(%[[C]] : memref<64x16xf32>)
// CHECK-NEXT: linalg.matmul ins(%[[A]], %[[B]] : memref<64x32xf32>, memref<32x16xf32>) outs(%[[C]] : memref<64x16xf32>)
// CHECK-NEXT: return
// CHECK-NOT: module @stark_problem_1
// Without fusion the fill and the matmul are problems of their own.
// NOFUSE-LABEL: func.func @fill_matmul
// NOFUSE: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul"
// NOFUSE: module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.fill"
func.func @fill_matmul(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  // expected-remark @+1 {{outlined with the fill of its output as @stark_problem_0 (linalg.fill + linalg.matmul 64x32xf32,32x16xf32->64x16xf32, signature}}
  %0 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>)
                     outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}

// -----

// On memrefs: a fill of the buffer the batch matmul then accumulates into,
// with nothing in between that touches memory. The fill value is kept.
// CHECK-LABEL: func.func @fill_batch_matmul_memref
// CHECK: linalg.fill {stark.problem = @stark_problem_0}
// CHECK: linalg.batch_matmul {stark.problem = @stark_problem_0}
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.batch_matmul"
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: linalg.fill ins(%[[ONE]] : f32) outs(%[[C:.+]] : memref<4x64x16xf32>)
// CHECK-NEXT: linalg.batch_matmul ins({{.*}}) outs(%[[C]] : memref<4x64x16xf32>)
// CHECK-NOT: module @stark_problem_1
func.func @fill_batch_matmul_memref(%a: memref<4x64x32xf32>, %b: memref<4x32x16xf32>, %c: memref<4x64x16xf32>) {
  %one = arith.constant 1.0 : f32
  %i = arith.constant 0 : index
  linalg.fill ins(%one : f32) outs(%c : memref<4x64x16xf32>)
  // expected-remark @+1 {{outlined with the fill of its output as @stark_problem_0 (linalg.fill + linalg.batch_matmul 4x64x32xf32,4x32x16xf32->4x64x16xf32, signature}}
  linalg.batch_matmul ins(%a, %b : memref<4x64x32xf32>, memref<4x32x16xf32>) outs(%c : memref<4x64x16xf32>)
  return
}

// -----

// A fill the function also returns is not the matmul's alone: the matmul
// accumulates into it as a problem of its own, the fill is another.
// CHECK-LABEL: func.func @fill_two_users
// CHECK: linalg.fill {stark.problem = @stark_problem_1}
// CHECK: linalg.matmul {stark.problem = @stark_problem_0}
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul"
// CHECK: module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.fill"
func.func @fill_two_users(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  // expected-remark @+1 {{outlined as @stark_problem_1 (linalg.fill f32->64x16xf32, signature}}
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  // expected-remark @+1 {{outlined as @stark_problem_0 (linalg.matmul 64x32xf32,32x16xf32->64x16xf32, signature}}
  %0 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>)
                     outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %0, %c : tensor<64x16xf32>, tensor<64x16xf32>
}

// -----

// On memrefs, a store between the fill and the matmul keeps them apart.
// CHECK-LABEL: func.func @fill_store_matmul
// CHECK: linalg.fill {stark.problem = @stark_problem_1}
// CHECK: linalg.matmul {stark.problem = @stark_problem_0}
// CHECK: op = "linalg.matmul"
func.func @fill_store_matmul(%a: memref<64x32xf32>, %b: memref<32x16xf32>, %c: memref<64x16xf32>, %v: f32) {
  %zero = arith.constant 0.0 : f32
  %i = arith.constant 0 : index
  // expected-remark @+1 {{outlined as @stark_problem_1 (linalg.fill f32->64x16xf32, signature}}
  linalg.fill ins(%zero : f32) outs(%c : memref<64x16xf32>)
  memref.store %v, %c[%i, %i] : memref<64x16xf32>
  // expected-remark @+1 {{outlined as @stark_problem_0 (linalg.matmul 64x32xf32,32x16xf32->64x16xf32, signature}}
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// Convolutions own their fill the same way.
// CHECK-LABEL: func.func @fill_conv
// CHECK: linalg.fill {stark.problem = @stark_problem_0}
// CHECK: linalg.conv_2d_nhwc_hwcf {{{.*}}stark.problem = @stark_problem_0
// CHECK: op = "linalg.fill + linalg.conv_2d_nhwc_hwcf"
// CHECK: linalg.fill
// CHECK-NEXT: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: module @stark_problem_1
func.func @fill_conv(%x: tensor<1x18x18x16xf32>, %w: tensor<3x3x16x32xf32>) -> tensor<1x16x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  // expected-remark @+1 {{outlined with the fill of its output as @stark_problem_0 (linalg.fill + linalg.conv_2d_nhwc_hwcf 1x18x18x16xf32,3x3x16x32xf32->1x16x16x32xf32, signature}}
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x18x18x16xf32>, tensor<3x3x16x32xf32>) outs(%c : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  return %0 : tensor<1x16x16x32xf32>
}

// RUN: stark-opt %s --stark-substitute -verify-diagnostics | FileCheck %s

// A problem that owns the fill of its matmul's output replaces both: the
// output buffer is fresh and not copied from the init (the winner writes
// every element), and the fill and its empty tensor go.
// CHECK-LABEL: func.func @fill_matmul
// CHECK-DAG: %[[AB:.+]] = bufferization.to_buffer %arg0 read_only
// CHECK-DAG: %[[BB:.+]] = bufferization.to_buffer %arg1 read_only
// CHECK: %[[OUT:.+]] = memref.alloc() : memref<8x2xf32>
// CHECK-NOT: memref.copy
// CHECK-NEXT: call @stark_kernel_0123456789abcdef(%[[AB]], %[[BB]], %[[OUT]])
// CHECK-NEXT: %[[R:.+]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK-NEXT: return %[[R]]
// On memrefs the call writes the buffer the fill wrote; the fill goes.
// CHECK-LABEL: func.func @fill_matmul_memref
// CHECK-NOT: linalg.fill
// CHECK: call @stark_kernel_0123456789abcdef(%arg0, %arg1, %arg2)
// CHECK-NEXT: return
// A fill of another value is not the problem's: the ops stay, untagged.
// CHECK-LABEL: func.func @other_fill
// CHECK: linalg.fill ins
// CHECK: linalg.matmul ins
// CHECK: func.func private @stark_kernel_0123456789abcdef
func.func @fill_matmul(%a: tensor<8x4xf32>, %b: tensor<4x2xf32>) -> tensor<8x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x2xf32>
  %c = linalg.fill {stark.problem = @stark_problem_0} ins(%zero : f32) outs(%e : tensor<8x2xf32>) -> tensor<8x2xf32>
  // expected-remark @+1 {{stark-substitute: replaced by @stark_kernel_0123456789abcdef (cpu-tile-vectorize, 4.50x, verified)}}
  %0 = linalg.matmul {stark.problem = @stark_problem_0}
         ins(%a, %b : tensor<8x4xf32>, tensor<4x2xf32>) outs(%c : tensor<8x2xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}
func.func @fill_matmul_memref(%a: memref<8x4xf32>, %b: memref<4x2xf32>, %c: memref<8x2xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill {stark.problem = @stark_problem_0} ins(%zero : f32) outs(%c : memref<8x2xf32>)
  // expected-remark @+1 {{stark-substitute: replaced by @stark_kernel_0123456789abcdef (cpu-tile-vectorize, 4.50x, verified)}}
  linalg.matmul {stark.problem = @stark_problem_0}
         ins(%a, %b : memref<8x4xf32>, memref<4x2xf32>) outs(%c : memref<8x2xf32>)
  return
}
func.func @other_fill(%a: tensor<8x4xf32>, %b: tensor<4x2xf32>) -> tensor<8x2xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8x2xf32>
  %c = linalg.fill {stark.problem = @stark_problem_0} ins(%one : f32) outs(%e : tensor<8x2xf32>) -> tensor<8x2xf32>
  // expected-remark @+1 {{stark-substitute: left as is: the output of the op is no longer filled as in @stark_problem_0}}
  %0 = linalg.matmul {stark.problem = @stark_problem_0}
         ins(%a, %b : tensor<8x4xf32>, tensor<4x2xf32>) outs(%c : tensor<8x2xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.matmul", shapes = "8x4xf32,4x2xf32->8x2xf32", signature = "0123456789abcdef0123456789abcdef">, stark.winner = #stark.winner<baseline_us = 9.0, candidate = 3, params = {}, speedup = 4.5, strategy = "cpu-tile-vectorize", target = "cpu", winner_us = 2.0>} {
  func.func @kernel(%a: memref<8x4xf32>, %b: memref<4x2xf32>, %c: memref<8x2xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<8x2xf32>)
    linalg.matmul ins(%a, %b : memref<8x4xf32>, memref<4x2xf32>) outs(%c : memref<8x2xf32>)
    return
  }
  module @winner {
    func.func @kernel(%a: memref<8x4xf32>, %b: memref<4x2xf32>, %c: memref<8x2xf32>) {
      %zero = arith.constant 0.0 : f32
      linalg.fill ins(%zero : f32) outs(%c : memref<8x2xf32>)
      linalg.matmul ins(%a, %b : memref<8x4xf32>, memref<4x2xf32>) outs(%c : memref<8x2xf32>)
      return
    }
  }
}

// RUN: stark-opt %s --stark-substitute -verify-diagnostics | FileCheck %s

// A contraction with its epilogue is one problem: its winner replaces the
// matmul, the chain after it and the fill of the matmul's output by one
// call whose output is the chain's.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-NOT: linalg.
// CHECK-DAG: %[[AB:.+]] = bufferization.to_buffer %arg0 read_only
// CHECK-DAG: %[[WB:.+]] = bufferization.to_buffer %arg1 read_only
// CHECK-DAG: %[[BB:.+]] = bufferization.to_buffer %arg2 read_only
// CHECK: %[[OUT:.+]] = memref.alloc() : memref<8x2xf32>
// CHECK-NEXT: call @stark_kernel_0123456789abcdef(%[[AB]], %[[WB]], %[[BB]], %[[OUT]])
// CHECK-NEXT: %[[R:.+]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK-NEXT: return %[[R]]
func.func @matmul_bias_relu(%a: tensor<8x4xf32>, %w: tensor<4x2xf32>, %bias: tensor<2xf32>) -> tensor<8x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x2xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<8x2xf32>) -> tensor<8x2xf32>
  // expected-remark @+1 {{stark-substitute: replaced by @stark_kernel_0123456789abcdef (gemm_f32, 3.00x, verified)}}
  %mm = linalg.matmul {stark.problem = @stark_problem_0}
         ins(%a, %w : tensor<8x4xf32>, tensor<4x2xf32>) outs(%c : tensor<8x2xf32>) -> tensor<8x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<8x2xf32>, tensor<2xf32>) outs(%e : tensor<8x2xf32>) attrs = {stark.problem = @stark_problem_0} {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  return %y : tensor<8x2xf32>
}
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.matmul,linalg.generic)", shapes = "8x4xf32,4x2xf32,2xf32->8x2xf32", signature = "0123456789abcdef0123456789abcdef">, stark.winner = #stark.winner<baseline_us = 9.0, candidate = 3, params = {}, speedup = 3.0, strategy = "gemm_f32", target = "cpu", winner_us = 3.0>} {
  func.func @kernel(%a: memref<8x4xf32>, %w: memref<4x2xf32>, %bias: memref<2xf32>, %out: memref<8x2xf32>) {
    %zero = arith.constant 0.0 : f32
    %c = memref.alloc() : memref<8x2xf32>
    linalg.fill ins(%zero : f32) outs(%c : memref<8x2xf32>)
    linalg.matmul ins(%a, %w : memref<8x4xf32>, memref<4x2xf32>) outs(%c : memref<8x2xf32>)
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%c, %bias : memref<8x2xf32>, memref<2xf32>) outs(%out : memref<8x2xf32>) {
    ^bb0(%v: f32, %b: f32, %o: f32):
      %s = arith.addf %v, %b : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    }
    memref.dealloc %c : memref<8x2xf32>
    return
  }
  module @winner {
    func.func @kernel(%a: memref<8x4xf32>, %w: memref<4x2xf32>, %bias: memref<2xf32>, %out: memref<8x2xf32>) {
      %zero = arith.constant 0.0 : f32
      %c = memref.alloc() : memref<8x2xf32>
      linalg.fill ins(%zero : f32) outs(%c : memref<8x2xf32>)
      linalg.matmul ins(%a, %w : memref<8x4xf32>, memref<4x2xf32>) outs(%c : memref<8x2xf32>)
      linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
          ins(%c, %bias : memref<8x2xf32>, memref<2xf32>) outs(%out : memref<8x2xf32>) {
      ^bb0(%v: f32, %b: f32, %o: f32):
        %s = arith.addf %v, %b : f32
        %r = arith.maximumf %s, %zero : f32
        linalg.yield %r : f32
      }
      memref.dealloc %c : memref<8x2xf32>
      return
    }
  }
}

// The same for a convolution with its epilogue: the convolution, the bias
// add after it and the fill of its output go, one call stays.
// CHECK-LABEL: func.func @conv1d_bias
// CHECK-NOT: linalg.
// CHECK-DAG: %[[XB:.+]] = bufferization.to_buffer %arg0 read_only
// CHECK-DAG: %[[FB:.+]] = bufferization.to_buffer %arg1 read_only
// CHECK-DAG: %[[BB:.+]] = bufferization.to_buffer %arg2 read_only
// CHECK: %[[OUT:.+]] = memref.alloc() : memref<1x3x4xf32>
// CHECK-NEXT: call @stark_kernel_fedcba9876543210(%[[XB]], %[[FB]], %[[BB]], %[[OUT]])
// CHECK-NEXT: %[[R:.+]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK-NEXT: return %[[R]]
func.func @conv1d_bias(%x: tensor<1x2x5xf32>, %w: tensor<3x2x2xf32>, %bias: tensor<3xf32>) -> tensor<1x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x4xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  // expected-remark @+1 {{stark-substitute: replaced by @stark_kernel_fedcba9876543210 (gemm_f32, 2.00x, verified)}}
  %conv = linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, stark.problem = @stark_problem_1, strides = dense<1> : tensor<1xi64>}
         ins(%x, %w : tensor<1x2x5xf32>, tensor<3x2x2xf32>) outs(%c : tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, f, l) -> (n, f, l)>, affine_map<(n, f, l) -> (f)>, affine_map<(n, f, l) -> (n, f, l)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%conv, %bias : tensor<1x3x4xf32>, tensor<3xf32>) outs(%e : tensor<1x3x4xf32>) attrs = {stark.problem = @stark_problem_1} {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x3x4xf32>
  return %y : tensor<1x3x4xf32>
}
module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.conv_1d_ncw_fcw,linalg.generic)", shapes = "1x2x5xf32,3x2x2xf32,3xf32->1x3x4xf32", signature = "fedcba9876543210fedcba9876543210">, stark.winner = #stark.winner<baseline_us = 4.0, candidate = 2, params = {}, speedup = 2.0, strategy = "gemm_f32", target = "cpu", winner_us = 2.0>} {
  func.func @kernel(%x: memref<1x2x5xf32>, %w: memref<3x2x2xf32>, %bias: memref<3xf32>, %out: memref<1x3x4xf32>) {
    %zero = arith.constant 0.0 : f32
    %c = memref.alloc() : memref<1x3x4xf32>
    linalg.fill ins(%zero : f32) outs(%c : memref<1x3x4xf32>)
    linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%x, %w : memref<1x2x5xf32>, memref<3x2x2xf32>) outs(%c : memref<1x3x4xf32>)
    linalg.generic {indexing_maps = [affine_map<(n, f, l) -> (n, f, l)>, affine_map<(n, f, l) -> (f)>, affine_map<(n, f, l) -> (n, f, l)>], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%c, %bias : memref<1x3x4xf32>, memref<3xf32>) outs(%out : memref<1x3x4xf32>) {
    ^bb0(%v: f32, %b: f32, %o: f32):
      %s = arith.addf %v, %b : f32
      linalg.yield %s : f32
    }
    memref.dealloc %c : memref<1x3x4xf32>
    return
  }
  module @winner {
    func.func @kernel(%x: memref<1x2x5xf32>, %w: memref<3x2x2xf32>, %bias: memref<3xf32>, %out: memref<1x3x4xf32>) {
      %zero = arith.constant 0.0 : f32
      %c = memref.alloc() : memref<1x3x4xf32>
      linalg.fill ins(%zero : f32) outs(%c : memref<1x3x4xf32>)
      linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%x, %w : memref<1x2x5xf32>, memref<3x2x2xf32>) outs(%c : memref<1x3x4xf32>)
      linalg.generic {indexing_maps = [affine_map<(n, f, l) -> (n, f, l)>, affine_map<(n, f, l) -> (f)>, affine_map<(n, f, l) -> (n, f, l)>], iterator_types = ["parallel", "parallel", "parallel"]}
          ins(%c, %bias : memref<1x3x4xf32>, memref<3xf32>) outs(%out : memref<1x3x4xf32>) {
      ^bb0(%v: f32, %b: f32, %o: f32):
        %s = arith.addf %v, %b : f32
        linalg.yield %s : f32
      }
      memref.dealloc %c : memref<1x3x4xf32>
      return
    }
  }
}

// RUN: split-file %s %t
// RUN: stark-opt %t/tagged.mlir --stark-substitute -verify-diagnostics | FileCheck %t/tagged.mlir
// RUN: stark-opt %t/tagged.mlir --stark-substitute -o %t/substituted.mlir 2>/dev/null
// RUN: stark-eval --correctness-trials 3 --trials 1 --max-trials 1 --warmup 0 --no-cache-flush --no-f64-reference --problem %t/original.mlir --candidate %t/substituted.mlir --entry scale_relu_matmul | FileCheck %s --check-prefix=EVAL

// A contraction with an operand prologue is one problem: its winner (here
// loops that compute relu(x * scale) as they read A) replaces the prologue,
// the fill and the matmul by one call; the program computes what it did
// before (stark-eval runs both on the host).
// EVAL: status: ok

//--- original.mlir
func.func @scale_relu_matmul(%x: tensor<16x12xf32>, %s: tensor<12xf32>, %w: tensor<12x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x12xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<16x12xf32>, tensor<12xf32>) outs(%e : tensor<16x12xf32>) {
  ^bb0(%v: f32, %k: f32, %o: f32):
    %p = arith.mulf %v, %k : f32
    %r = arith.maximumf %p, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x12xf32>
  %c0 = tensor.empty() : tensor<16x8xf32>
  %c = linalg.fill ins(%zero : f32) outs(%c0 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %y = linalg.matmul ins(%a, %w : tensor<16x12xf32>, tensor<12x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}

//--- tagged.mlir
// CHECK-LABEL: func.func @scale_relu_matmul
// CHECK-NOT: linalg.
// CHECK-DAG: %[[XB:.+]] = bufferization.to_buffer %arg0 read_only
// CHECK-DAG: %[[SB:.+]] = bufferization.to_buffer %arg1 read_only
// CHECK-DAG: %[[WB:.+]] = bufferization.to_buffer %arg2 read_only
// CHECK: %[[OUT:.+]] = memref.alloc() : memref<16x8xf32>
// CHECK-NEXT: call @stark_kernel_0123456789abcdef(%[[XB]], %[[SB]], %[[WB]], %[[OUT]])
// CHECK-NEXT: %[[R:.+]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK-NEXT: return %[[R]]
func.func @scale_relu_matmul(%x: tensor<16x12xf32>, %s: tensor<12xf32>, %w: tensor<12x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x12xf32>
  // expected-remark @+1 {{stark-substitute: replaced by @stark_kernel_0123456789abcdef (loops, 2.00x, verified)}}
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<16x12xf32>, tensor<12xf32>) outs(%e : tensor<16x12xf32>) attrs = {stark.problem = @stark_problem_0} {
  ^bb0(%v: f32, %k: f32, %o: f32):
    %p = arith.mulf %v, %k : f32
    %r = arith.maximumf %p, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x12xf32>
  %c0 = tensor.empty() : tensor<16x8xf32>
  %c = linalg.fill {stark.problem = @stark_problem_0} ins(%zero : f32) outs(%c0 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %y = linalg.matmul {stark.problem = @stark_problem_0} ins(%a, %w : tensor<16x12xf32>, tensor<12x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.generic,linalg.matmul)", shapes = "16x12xf32,12xf32,12x8xf32->16x8xf32", signature = "0123456789abcdef0123456789abcdef">, stark.winner = #stark.winner<baseline_us = 4.0, candidate = 1, params = {}, speedup = 2.0, strategy = "loops", target = "cpu", winner_us = 2.0>} {
  func.func @kernel(%x: memref<16x12xf32>, %s: memref<12xf32>, %w: memref<12x8xf32>, %out: memref<16x8xf32>) {
    %zero = arith.constant 0.0 : f32
    %a = memref.alloc() : memref<16x12xf32>
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%x, %s : memref<16x12xf32>, memref<12xf32>) outs(%a : memref<16x12xf32>) {
    ^bb0(%v: f32, %k: f32, %o: f32):
      %p = arith.mulf %v, %k : f32
      %r = arith.maximumf %p, %zero : f32
      linalg.yield %r : f32
    }
    linalg.fill ins(%zero : f32) outs(%out : memref<16x8xf32>)
    linalg.matmul ins(%a, %w : memref<16x12xf32>, memref<12x8xf32>) outs(%out : memref<16x8xf32>)
    memref.dealloc %a : memref<16x12xf32>
    return
  }
  module @winner {
    func.func @kernel(%x: memref<16x12xf32>, %s: memref<12xf32>, %w: memref<12x8xf32>, %out: memref<16x8xf32>) {
      %zero = arith.constant 0.0 : f32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c12 = arith.constant 12 : index
      %c16 = arith.constant 16 : index
      scf.for %i = %c0 to %c16 step %c1 {
        scf.for %j = %c0 to %c8 step %c1 {
          %sum = scf.for %k = %c0 to %c12 step %c1 iter_args(%acc = %zero) -> (f32) {
            %xv = memref.load %x[%i, %k] : memref<16x12xf32>
            %sv = memref.load %s[%k] : memref<12xf32>
            %p = arith.mulf %xv, %sv : f32
            %r = arith.maximumf %p, %zero : f32
            %wv = memref.load %w[%k, %j] : memref<12x8xf32>
            %t = arith.mulf %r, %wv : f32
            %n = arith.addf %acc, %t : f32
            scf.yield %n : f32
          }
          memref.store %sum, %out[%i, %j] : memref<16x8xf32>
        }
      }
      return
    }
  }
}

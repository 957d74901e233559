// RUN: stark-opt %s --split-input-file --stark-substitute -verify-diagnostics | FileCheck %s
// RUN: stark-opt %s --split-input-file --stark-substitute="keep-problems" 2>/dev/null | FileCheck %s --check-prefix=KEEP

// A tensor op with a winner: operands become buffers, the output buffer
// starts from the init (matmul accumulates into it), the winner is called
// and its output becomes the result.
// CHECK-LABEL: func.func @tensor_matmul
// CHECK-SAME: (%[[A:.+]]: tensor<8x4xf32>, %[[B:.+]]: tensor<4x2xf32>, %[[C:.+]]: tensor<8x2xf32>)
// CHECK-DAG: %[[AB:.+]] = bufferization.to_buffer %[[A]] read_only
// CHECK-DAG: %[[BB:.+]] = bufferization.to_buffer %[[B]] read_only
// CHECK: %[[OUT:.+]] = memref.alloc() : memref<8x2xf32>
// CHECK: %[[CB:.+]] = bufferization.to_buffer %[[C]] read_only
// CHECK: memref.copy %[[CB]], %[[OUT]]
// CHECK: call @stark_kernel_0123456789abcdef(%[[AB]], %[[BB]], %[[OUT]]) {stark.winner = {candidate = 3 : i64, signature = "0123456789abcdef0123456789abcdef", speedup = 4.500000e+00 : f64, strategy = "cpu-tile-vectorize"}}
// CHECK: %[[R:.+]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK: return %[[R]]
// CHECK-NOT: linalg.matmul
// CHECK: func.func private @stark_kernel_0123456789abcdef(%{{.+}}: memref<8x4xf32>, %{{.+}}: memref<4x2xf32>, %{{.+}}: memref<8x2xf32>)
// CHECK: scf.for
// CHECK-NOT: module @stark_problem_0
// KEEP-LABEL: func.func @tensor_matmul
// KEEP: module @stark_problem_0
func.func @tensor_matmul(%a: tensor<8x4xf32>, %b: tensor<4x2xf32>, %c: tensor<8x2xf32>) -> tensor<8x2xf32> {
  // expected-remark @+1 {{stark-substitute: replaced by @stark_kernel_0123456789abcdef (cpu-tile-vectorize, 4.50x, verified)}}
  %0 = linalg.matmul {stark.problem = @stark_problem_0}
         ins(%a, %b : tensor<8x4xf32>, tensor<4x2xf32>) outs(%c : tensor<8x2xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "8x4xf32,4x2xf32->8x2xf32", signature = "0123456789abcdef0123456789abcdef">, stark.winner = #stark.winner<baseline_us = 9.0, candidate = 3, params = {}, speedup = 4.5, strategy = "cpu-tile-vectorize", target = "cpu", winner_us = 2.0>} {
  func.func @kernel(%a: memref<8x4xf32>, %b: memref<4x2xf32>, %c: memref<8x2xf32>) {
    linalg.matmul ins(%a, %b : memref<8x4xf32>, memref<4x2xf32>) outs(%c : memref<8x2xf32>)
    return
  }
  module @winner {
    func.func @kernel(%a: memref<8x4xf32>, %b: memref<4x2xf32>, %c: memref<8x2xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      scf.for %i = %c0 to %c8 step %c1 {
        scf.for %j = %c0 to %c2 step %c1 {
          scf.for %k = %c0 to %c4 step %c1 {
            %x = memref.load %a[%i, %k] : memref<8x4xf32>
            %y = memref.load %b[%k, %j] : memref<4x2xf32>
            %z = memref.load %c[%i, %j] : memref<8x2xf32>
            %m = arith.mulf %x, %y : f32
            %s = arith.addf %z, %m : f32
            memref.store %s, %c[%i, %j] : memref<8x2xf32>
          }
        }
      }
      return
    }
  }
}

// -----

// A memref op becomes the call itself; an elementwise output that is not
// read is not copied in; a problem without a winner leaves its op alone
// (only the tag goes).
// CHECK-LABEL: func.func @memref_ops
// CHECK-SAME: (%[[X:.+]]: memref<16xf32>, %[[Y:.+]]: memref<16xf32>)
// CHECK-NEXT: call @stark_kernel_00000000000000aa(%[[X]], %[[Y]]) {stark.winner =
// CHECK-NEXT: linalg.generic
// CHECK-NOT: stark.problem
// CHECK: return
func.func @memref_ops(%x: memref<16xf32>, %y: memref<16xf32>) {
  // expected-remark @+1 {{replaced by @stark_kernel_00000000000000aa}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      {stark.problem = @stark_problem_0}
      ins(%x : memref<16xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      {stark.problem = @stark_problem_1}
      ins(%y : memref<16xf32>) outs(%x : memref<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.tanh %v : f32
    linalg.yield %e : f32
  }
  return
}
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "16xf32->16xf32", signature = "00000000000000aa00000000000000aa">, stark.winner = #stark.winner<baseline_us = 1.0, candidate = 1, params = {}, speedup = 2.0, strategy = "cpu-tile-vectorize", target = "cpu", winner_us = 0.5>} {
  func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) {
    return
  }
  module @winner {
    func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) {
      %c0 = arith.constant 0 : index
      %v = vector.load %x[%c0] : memref<16xf32>, vector<16xf32>
      %e = math.exp %v : vector<16xf32>
      vector.store %e, %y[%c0] : memref<16xf32>, vector<16xf32>
      return
    }
  }
}
module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "16xf32->16xf32", signature = "00000000000000bb00000000000000bb">} {
  func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) {
    return
  }
}

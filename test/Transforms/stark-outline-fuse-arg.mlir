// An op reducing into several fills (an argmax: the greatest value and its
// position) is one problem with both fills; the value nothing uses becomes a
// temporary of the problem and only the position is its output. An argmax
// that keeps the last of equal values has no fused kernel: it is outlined
// alone, its fills apart. Substituting each problem by a copy of itself
// finds the one-op group again, drops both fills with it, and leaves the
// program's results unchanged.
//
// RUN: stark-opt %s --stark-outline=all --mlir-print-op-on-diagnostic=false -o %t.outlined.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=PROBLEM < %t.outlined.mlir
// RUN: %python %S/Inputs/problems_as_winners.py %t.outlined.mlir > %t.winners.mlir
// RUN: stark-opt %t.winners.mlir --stark-substitute -o %t.substituted.mlir 2> %t.sub.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.substituted.mlir
// RUN: FileCheck %s --check-prefix=SUB < %t.sub.remarks
// RUN: stark-eval --no-f64-reference --no-timing --problem %s --candidate %t.substituted.mlir --entry argmax_middle | FileCheck %s --check-prefix=EVAL
// RUN: stark-eval --no-f64-reference --no-timing --problem %s --candidate %t.substituted.mlir --entry argmax_last | FileCheck %s --check-prefix=EVAL

// REMARK: 48:10: remark: outlined with the fills of its outputs as @stark_problem_0 (fused(linalg.generic) 4x64x33xf32->4x33xi64
// REMARK: 67:10: remark: not outlined with the fills of its outputs: {{.*}}the comparison 'arith.cmpf oge' is not a strict order
// REMARK: 67:10: remark: outlined as @stark_problem_1 (linalg.generic 16x40xf32->16xf32,16xi64
// REMARK-NOT: fills of its outputs

// PROBLEM: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "fused(linalg.generic)"
// PROBLEM: func.func @kernel(%{{.*}}: memref<4x64x33xf32>, %[[IDX:.*]]: memref<4x33xi64>)
// PROBLEM-DAG: %[[VAL:.*]] = memref.alloc() : memref<4x33xf32>
// PROBLEM-DAG: linalg.fill ins(%{{.*}} : f32) outs(%[[VAL]] : memref<4x33xf32>)
// PROBLEM-DAG: linalg.fill ins(%{{.*}} : i64) outs(%[[IDX]] : memref<4x33xi64>)
// PROBLEM: outs(%[[VAL]], %[[IDX]] : memref<4x33xf32>, memref<4x33xi64>)
// PROBLEM: memref.dealloc %[[VAL]]

// IR-LABEL: func.func @argmax_middle
// IR-NOT: linalg.
// IR: call @stark_kernel_
// IR-NOT: linalg.
// IR: return

// SUB-COUNT-4: remark: stark-substitute: replaced by

// EVAL: status: ok
func.func @argmax_middle(%x: tensor<4x64x33xf32>) -> tensor<4x33xi64> {
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<4x33xf32>
  %m = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<4x33xf32>) -> tensor<4x33xf32>
  %c0 = arith.constant 0 : i64
  %e1 = tensor.empty() : tensor<4x33xi64>
  %i = linalg.fill ins(%c0 : i64) outs(%e1 : tensor<4x33xi64>) -> tensor<4x33xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : tensor<4x64x33xf32>) outs(%m, %i : tensor<4x33xf32>, tensor<4x33xi64>) {
  ^bb0(%a: f32, %o: f32, %oi: i64):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i64
    %gt = arith.cmpf ogt, %a, %o : f32
    %v = arith.select %gt, %a, %o : f32
    %j = arith.select %gt, %ki, %oi : i64
    linalg.yield %v, %j : f32, i64
  } -> (tensor<4x33xf32>, tensor<4x33xi64>)
  return %r#1 : tensor<4x33xi64>
}

func.func @argmax_last(%x: tensor<16x40xf32>) -> tensor<16xi64> {
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<16xf32>
  %m = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %c0 = arith.constant 0 : i64
  %e1 = tensor.empty() : tensor<16xi64>
  %i = linalg.fill ins(%c0 : i64) outs(%e1 : tensor<16xi64>) -> tensor<16xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x40xf32>) outs(%m, %i : tensor<16xf32>, tensor<16xi64>) {
  ^bb0(%a: f32, %o: f32, %oi: i64):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i64
    %ge = arith.cmpf oge, %a, %o : f32
    %v = arith.select %ge, %a, %o : f32
    %j = arith.select %ge, %ki, %oi : i64
    linalg.yield %v, %j : f32, i64
  } -> (tensor<16xf32>, tensor<16xi64>)
  return %r#1 : tensor<16xi64>
}

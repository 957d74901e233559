// A residual stream joins two normalisations into one connected chain that
// cannot be one problem: the first one's output feeds the matmul (outside
// the chain) and the residual add (inside). The chain is cut there, once
// per side: the add, the row sum and the subtraction before the matmul are
// one problem (its output the cut value), the add after it, its row sum and
// subtraction another (reading the cut value as an input). Substituting
// every problem by a copy of itself, grown again from whichever op the
// substitution starts at, must find the same groups and leave the program's
// results unchanged; kernels that free their own temporaries do not stop
// the whole-program evaluation.
//
// RUN: stark-opt %s --stark-outline=all -o %t.outlined.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %python %S/Inputs/problems_as_winners.py %t.outlined.mlir > %t.winners.mlir
// RUN: stark-opt %t.winners.mlir --stark-substitute -o %t.substituted.mlir 2> %t.sub.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.substituted.mlir
// RUN: FileCheck %s --check-prefix=SUB < %t.sub.remarks
// RUN: stark-eval --no-f64-reference --no-timing --problem %s --candidate %t.substituted.mlir | FileCheck %s --check-prefix=EVAL

// The matmul goes first (contractions take their epilogues before chains
// grow; this one's consumer is a norm, no epilogue).
// REMARK: 65:9: remark: outlined with the fill of its output as @stark_problem_0 (linalg.fill + linalg.matmul
// REMARK: 45:9: remark: outlined with 2 producer/consumer op(s) as @stark_problem_1 (fused(linalg.generic,linalg.generic,linalg.generic) 8x32xf32->8x32xf32
// REMARK: 66:9: remark: outlined with 2 producer/consumer op(s) as @stark_problem_2 (fused(linalg.generic,linalg.generic,linalg.generic) 8x32xf32,8x32xf32->8x32xf32
// REMARK-NOT: not fused

// IR-LABEL: func.func @residual_norms
// IR-NOT: linalg.
// IR: call @stark_kernel_
// IR-NOT: linalg.
// IR: call @stark_kernel_
// IR-NOT: linalg.
// IR: call @stark_kernel_
// IR-NOT: linalg.
// IR: return

// SUB-COUNT-3: remark: stark-substitute: replaced by
// SUB-NOT: remark

// EVAL: status: ok
func.func @residual_norms(%x: tensor<8x32xf32>, %w: tensor<32x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %er = tensor.empty() : tensor<8xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %s1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%r1 : tensor<8x32xf32>) outs(%acc1 : tensor<8xf32>) {
  ^bb0(%v: f32, %a: f32):
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %n1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r1, %s1 : tensor<8x32xf32>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    linalg.yield %d : f32
  } -> tensor<8x32xf32>
  %accm = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %mm = linalg.matmul ins(%n1, %w : tensor<8x32xf32>, tensor<32x32xf32>) outs(%accm : tensor<8x32xf32>) -> tensor<8x32xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %n1 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %s2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%r2 : tensor<8x32xf32>) outs(%acc2 : tensor<8xf32>) {
  ^bb0(%v: f32, %a: f32):
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %n2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r2, %s2 : tensor<8x32xf32>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    linalg.yield %d : f32
  } -> tensor<8x32xf32>
  return %n2 : tensor<8x32xf32>
}

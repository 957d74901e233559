// The residual stream of a decoder block (LLaMA style): an output
// projection whose sum with the block's input (h) is read by the next
// RMSNorm, and by the final residual add after the MLP; a SiLU-gated MLP
// whose gate and up projections both feed silu(gate) * up; a down
// projection plus the final residual add.
//
// - The output projection takes the residual add as its epilogue, although
//   no chain of two or more ops around the add is one problem (the norm's
//   output is read by the gate and up matmuls before the final add).
// - The norm's reduction and normalisation are one problem without the add,
//   which the projection already holds.
// - silu(gate) * up is the epilogue of the up projection, the later of its
//   two matmuls; the gate's result is an input it reads.
// - The down projection takes the final add.
// Substituting every problem by a copy of itself (each grown again through
// the ops tagged with it) must find the same groups and leave the program's
// results unchanged.
//
// RUN: stark-opt %s --stark-hot-ops=top-k=0 --stark-outline=fuse-epilogues -o %t.outlined.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %python %S/Inputs/problems_as_winners.py %t.outlined.mlir > %t.winners.mlir
// RUN: stark-opt %t.winners.mlir --stark-substitute -o %t.substituted.mlir 2> %t.sub.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.substituted.mlir
// RUN: FileCheck %s --check-prefix=SUB < %t.sub.remarks
// RUN: stark-eval --no-f64-reference --no-timing --problem %s --candidate %t.substituted.mlir | FileCheck %s --check-prefix=EVAL

// REMARK-DAG: 57:8: remark: outlined with 1 producer/consumer op(s) as @stark_problem_{{[0-9]+}} (fused(linalg.matmul,linalg.generic) 8x32xf32,32x32xf32,8x32xf32->8x32xf32
// REMARK-DAG: 66:9: remark: outlined with 1 producer/consumer op(s) as @stark_problem_{{[0-9]+}} (fused(linalg.generic,linalg.generic) 8x32xf32,32xf32->8x32xf32
// REMARK-DAG: 85:11: remark: outlined with the fill of its output as @stark_problem_{{[0-9]+}} (linalg.fill + linalg.matmul 8x32xf32,32x64xf32->8x64xf32
// REMARK-DAG: 87:9: remark: outlined with 1 producer/consumer op(s) as @stark_problem_{{[0-9]+}} (fused(linalg.matmul,linalg.generic) 8x32xf32,32x64xf32,8x64xf32->8x64xf32
// REMARK-DAG: 99:11: remark: outlined with 1 producer/consumer op(s) as @stark_problem_{{[0-9]+}} (fused(linalg.matmul,linalg.generic) 8x64xf32,64x32xf32,8x32xf32->8x32xf32
// REMARK-NOT: not fused

// IR-LABEL: func.func @decoder
// IR-NOT: linalg.
// IR-COUNT-5: call @stark_kernel_
// IR-NOT: linalg.
// IR: return

// SUB-COUNT-5: remark: stark-substitute: replaced by
// SUB-NOT: remark

// EVAL: status: ok
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
func.func @decoder(%x: tensor<8x32xf32>, %a: tensor<8x32xf32>,
                   %wo: tensor<32x32xf32>, %nw: tensor<32xf32>,
                   %wg: tensor<32x64xf32>, %wu: tensor<32x64xf32>,
                   %wd: tensor<64x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %n = arith.constant 32.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %o = linalg.matmul ins(%a, %wo : tensor<8x32xf32>, tensor<32x32xf32>) outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %o : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%u: f32, %v: f32, %out: f32):
    %s = arith.addf %u, %v : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %er = tensor.empty() : tensor<8xf32>
  %accr = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<8x32xf32>) outs(%accr : tensor<8xf32>) {
  ^bb0(%v: f32, %s: f32):
    %q = arith.mulf %v, %v : f32
    %t = arith.addf %q, %s : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  %normed = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %ss, %nw : tensor<8x32xf32>, tensor<8xf32>, tensor<32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%v: f32, %s: f32, %w: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %me = arith.addf %m, %eps : f32
    %r = math.rsqrt %me : f32
    %y = arith.mulf %v, %r : f32
    %z = arith.mulf %y, %w : f32
    linalg.yield %z : f32
  } -> tensor<8x32xf32>
  %e64 = tensor.empty() : tensor<8x64xf32>
  %acc64 = linalg.fill ins(%zero : f32) outs(%e64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %gate = linalg.matmul ins(%normed, %wg : tensor<8x32xf32>, tensor<32x64xf32>) outs(%acc64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %accu = linalg.fill ins(%zero : f32) outs(%e64 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %up = linalg.matmul ins(%normed, %wu : tensor<8x32xf32>, tensor<32x64xf32>) outs(%accu : tensor<8x64xf32>) -> tensor<8x64xf32>
  %act = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%gate, %up : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e64 : tensor<8x64xf32>) {
  ^bb0(%g: f32, %u: f32, %out: f32):
    %ng = arith.negf %g : f32
    %ex = math.exp %ng : f32
    %den = arith.addf %ex, %one : f32
    %sg = arith.divf %g, %den : f32
    %p = arith.mulf %sg, %u : f32
    linalg.yield %p : f32
  } -> tensor<8x64xf32>
  %accd = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %down = linalg.matmul ins(%act, %wd : tensor<8x64xf32>, tensor<64x32xf32>) outs(%accd : tensor<8x32xf32>) -> tensor<8x32xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %down : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%u: f32, %v: f32, %out: f32):
    %s = arith.addf %u, %v : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

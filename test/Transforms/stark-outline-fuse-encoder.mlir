// Two encoder layers (BERT style): projection + bias + residual add, a
// layer norm, an FFN (matmul + bias + relu, matmul + bias + residual add)
// and a second layer norm; each layer norm's output feeds the next matmul
// and the next residual add, so the element-wise ops and norms of both
// layers are one connected chain of more than 16 ops. Contractions take
// their epilogues first: the straight line of a projection's consumers
// (bias, then the residual add that the norm reads) is its epilogue, and
// each of the first layer's norms is then one problem of its own. At the
// end of the stream, where the chain around a contraction is one problem
// with a norm's reductions, the contraction stays alone and the norm takes
// the chain.
// Substituting every problem by a copy of itself must find the same groups
// and leave the program's results unchanged.
//
// RUN: stark-opt %s --stark-hot-ops=top-k=0 --stark-outline=fuse-epilogues -o %t.outlined.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %python %S/Inputs/problems_as_winners.py %t.outlined.mlir > %t.winners.mlir
// RUN: stark-opt %t.winners.mlir --stark-substitute -o %t.substituted.mlir 2> %t.sub.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.substituted.mlir
// RUN: FileCheck %s --check-prefix=SUB < %t.sub.remarks
// RUN: stark-eval --no-f64-reference --no-timing --problem %s --candidate %t.substituted.mlir | FileCheck %s --check-prefix=EVAL

// REMARK-DAG: 53:10: remark: outlined with 2 producer/consumer op(s) as @stark_problem_{{[0-9]+}} (fused(linalg.matmul,linalg.generic,linalg.generic) 8x32xf32,32x32xf32,32xf32,8x32xf32->8x32xf32
// REMARK-DAG: 67:13: remark: outlined with 2 producer/consumer op(s) as @stark_problem_{{[0-9]+}} (fused(linalg.generic,linalg.generic,linalg.generic) 8x32xf32,32xf32->8x32xf32
// REMARK-DAG: 97:11: remark: outlined with 2 producer/consumer op(s) as @stark_problem_{{[0-9]+}} (fused(linalg.matmul,linalg.generic,linalg.generic) 8x32xf32,32x64xf32,64xf32->8x64xf32
// REMARK-DAG: 111:11: remark: outlined with 2 producer/consumer op(s) as @stark_problem_{{[0-9]+}} (fused(linalg.matmul,linalg.generic,linalg.generic) 8x64xf32,64x32xf32,32xf32,8x32xf32->8x32xf32
// REMARK-DAG: 156:10: remark: outlined with the fill of its output as @stark_problem_{{[0-9]+}} (linalg.fill + linalg.matmul 8x32xf32,32x32xf32->8x32xf32
// REMARK-NOT: not fused

// IR-LABEL: func.func @encoder
// IR-NOT: linalg.
// IR-COUNT-9: call @stark_kernel_
// IR-NOT: linalg.
// IR: return

// SUB-COUNT-9: remark: stark-substitute: replaced by
// SUB-NOT: remark

// EVAL: status: ok
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
func.func @encoder(%x: tensor<8x32xf32>, %a1: tensor<8x32xf32>, %a2: tensor<8x32xf32>,
                   %wo: tensor<32x32xf32>, %bo: tensor<32xf32>, %g1: tensor<32xf32>,
                   %w1: tensor<32x64xf32>, %b1: tensor<64xf32>,
                   %w2: tensor<64x32xf32>, %b2: tensor<32xf32>, %g2: tensor<32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 32.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e_1 = tensor.empty() : tensor<8x32xf32>
  %er_1 = tensor.empty() : tensor<8xf32>
  %acc_1 = linalg.fill ins(%zero : f32) outs(%e_1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %o_1 = linalg.matmul ins(%a1, %wo : tensor<8x32xf32>, tensor<32x32xf32>) outs(%acc_1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %ob_1 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%o_1, %bo : tensor<8x32xf32>, tensor<32xf32>) outs(%e_1 : tensor<8x32xf32>) {
  ^bb0(%u: f32, %b: f32, %out: f32):
    %s_1 = arith.addf %u, %b : f32
    linalg.yield %s_1 : f32
  } -> tensor<8x32xf32>
  %h_1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ob_1, %x : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e_1 : tensor<8x32xf32>) {
  ^bb0(%u: f32, %v: f32, %out: f32):
    %s_1 = arith.addf %u, %v : f32
    linalg.yield %s_1 : f32
  } -> tensor<8x32xf32>
  %acc1_1 = linalg.fill ins(%zero : f32) outs(%er_1 : tensor<8xf32>) -> tensor<8xf32>
  %sum1_1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h_1 : tensor<8x32xf32>) outs(%acc1_1 : tensor<8xf32>) {
  ^bb0(%v: f32, %s_1: f32):
    %t_1 = arith.addf %v, %s_1 : f32
    linalg.yield %t_1 : f32
  } -> tensor<8xf32>
  %acc2_1 = linalg.fill ins(%zero : f32) outs(%er_1 : tensor<8xf32>) -> tensor<8xf32>
  %sq1_1 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h_1, %sum1_1 : tensor<8x32xf32>, tensor<8xf32>) outs(%acc2_1 : tensor<8xf32>) {
  ^bb0(%v: f32, %s_1: f32, %q: f32):
    %m_1 = arith.divf %s_1, %n : f32
    %d_1 = arith.subf %v, %m_1 : f32
    %dd_1 = arith.mulf %d_1, %d_1 : f32
    %t_1 = arith.addf %dd_1, %q : f32
    linalg.yield %t_1 : f32
  } -> tensor<8xf32>
  %ln1_1 = linalg.generic {indexing_maps = [#id, #row, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h_1, %sum1_1, %sq1_1, %g1 : tensor<8x32xf32>, tensor<8xf32>, tensor<8xf32>, tensor<32xf32>) outs(%e_1 : tensor<8x32xf32>) {
  ^bb0(%v: f32, %s_1: f32, %q: f32, %g: f32, %out: f32):
    %m_1 = arith.divf %s_1, %n : f32
    %var_1 = arith.divf %q, %n : f32
    %ve_1 = arith.addf %var_1, %eps : f32
    %r_1 = math.rsqrt %ve_1 : f32
    %d_1 = arith.subf %v, %m_1 : f32
    %y_1 = arith.mulf %d_1, %r_1 : f32
    %z_1 = arith.mulf %y_1, %g : f32
    linalg.yield %z_1 : f32
  } -> tensor<8x32xf32>
  %e64_1 = tensor.empty() : tensor<8x64xf32>
  %acc64_1 = linalg.fill ins(%zero : f32) outs(%e64_1 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %f1_1 = linalg.matmul ins(%ln1_1, %w1 : tensor<8x32xf32>, tensor<32x64xf32>) outs(%acc64_1 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %f1b_1 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%f1_1, %b1 : tensor<8x64xf32>, tensor<64xf32>) outs(%e64_1 : tensor<8x64xf32>) {
  ^bb0(%u: f32, %b: f32, %out: f32):
    %s_1 = arith.addf %u, %b : f32
    linalg.yield %s_1 : f32
  } -> tensor<8x64xf32>
  %f1r_1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%f1b_1 : tensor<8x64xf32>) outs(%e64_1 : tensor<8x64xf32>) {
  ^bb0(%u: f32, %out: f32):
    %r_1 = arith.maximumf %u, %zero : f32
    linalg.yield %r_1 : f32
  } -> tensor<8x64xf32>
  %acc2d_1 = linalg.fill ins(%zero : f32) outs(%e_1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %f2_1 = linalg.matmul ins(%f1r_1, %w2 : tensor<8x64xf32>, tensor<64x32xf32>) outs(%acc2d_1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %f2b_1 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%f2_1, %b2 : tensor<8x32xf32>, tensor<32xf32>) outs(%e_1 : tensor<8x32xf32>) {
  ^bb0(%u: f32, %b: f32, %out: f32):
    %s_1 = arith.addf %u, %b : f32
    linalg.yield %s_1 : f32
  } -> tensor<8x32xf32>
  %h2_1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%f2b_1, %ln1_1 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e_1 : tensor<8x32xf32>) {
  ^bb0(%u: f32, %v: f32, %out: f32):
    %s_1 = arith.addf %u, %v : f32
    linalg.yield %s_1 : f32
  } -> tensor<8x32xf32>
  %acc3_1 = linalg.fill ins(%zero : f32) outs(%er_1 : tensor<8xf32>) -> tensor<8xf32>
  %sum2_1 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h2_1 : tensor<8x32xf32>) outs(%acc3_1 : tensor<8xf32>) {
  ^bb0(%v: f32, %s_1: f32):
    %t_1 = arith.addf %v, %s_1 : f32
    linalg.yield %t_1 : f32
  } -> tensor<8xf32>
  %acc4_1 = linalg.fill ins(%zero : f32) outs(%er_1 : tensor<8xf32>) -> tensor<8xf32>
  %sq2_1 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h2_1, %sum2_1 : tensor<8x32xf32>, tensor<8xf32>) outs(%acc4_1 : tensor<8xf32>) {
  ^bb0(%v: f32, %s_1: f32, %q: f32):
    %m_1 = arith.divf %s_1, %n : f32
    %d_1 = arith.subf %v, %m_1 : f32
    %dd_1 = arith.mulf %d_1, %d_1 : f32
    %t_1 = arith.addf %dd_1, %q : f32
    linalg.yield %t_1 : f32
  } -> tensor<8xf32>
  %ln2_1 = linalg.generic {indexing_maps = [#id, #row, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h2_1, %sum2_1, %sq2_1, %g2 : tensor<8x32xf32>, tensor<8xf32>, tensor<8xf32>, tensor<32xf32>) outs(%e_1 : tensor<8x32xf32>) {
  ^bb0(%v: f32, %s_1: f32, %q: f32, %g: f32, %out: f32):
    %m_1 = arith.divf %s_1, %n : f32
    %var_1 = arith.divf %q, %n : f32
    %ve_1 = arith.addf %var_1, %eps : f32
    %r_1 = math.rsqrt %ve_1 : f32
    %d_1 = arith.subf %v, %m_1 : f32
    %y_1 = arith.mulf %d_1, %r_1 : f32
    %z_1 = arith.mulf %y_1, %g : f32
    linalg.yield %z_1 : f32
  } -> tensor<8x32xf32>
  %e_2 = tensor.empty() : tensor<8x32xf32>
  %er_2 = tensor.empty() : tensor<8xf32>
  %acc_2 = linalg.fill ins(%zero : f32) outs(%e_2 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %o_2 = linalg.matmul ins(%a2, %wo : tensor<8x32xf32>, tensor<32x32xf32>) outs(%acc_2 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %ob_2 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%o_2, %bo : tensor<8x32xf32>, tensor<32xf32>) outs(%e_2 : tensor<8x32xf32>) {
  ^bb0(%u: f32, %b: f32, %out: f32):
    %s_2 = arith.addf %u, %b : f32
    linalg.yield %s_2 : f32
  } -> tensor<8x32xf32>
  %h_2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ob_2, %ln2_1 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e_2 : tensor<8x32xf32>) {
  ^bb0(%u: f32, %v: f32, %out: f32):
    %s_2 = arith.addf %u, %v : f32
    linalg.yield %s_2 : f32
  } -> tensor<8x32xf32>
  %acc1_2 = linalg.fill ins(%zero : f32) outs(%er_2 : tensor<8xf32>) -> tensor<8xf32>
  %sum1_2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h_2 : tensor<8x32xf32>) outs(%acc1_2 : tensor<8xf32>) {
  ^bb0(%v: f32, %s_2: f32):
    %t_2 = arith.addf %v, %s_2 : f32
    linalg.yield %t_2 : f32
  } -> tensor<8xf32>
  %acc2_2 = linalg.fill ins(%zero : f32) outs(%er_2 : tensor<8xf32>) -> tensor<8xf32>
  %sq1_2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h_2, %sum1_2 : tensor<8x32xf32>, tensor<8xf32>) outs(%acc2_2 : tensor<8xf32>) {
  ^bb0(%v: f32, %s_2: f32, %q: f32):
    %m_2 = arith.divf %s_2, %n : f32
    %d_2 = arith.subf %v, %m_2 : f32
    %dd_2 = arith.mulf %d_2, %d_2 : f32
    %t_2 = arith.addf %dd_2, %q : f32
    linalg.yield %t_2 : f32
  } -> tensor<8xf32>
  %ln1_2 = linalg.generic {indexing_maps = [#id, #row, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h_2, %sum1_2, %sq1_2, %g1 : tensor<8x32xf32>, tensor<8xf32>, tensor<8xf32>, tensor<32xf32>) outs(%e_2 : tensor<8x32xf32>) {
  ^bb0(%v: f32, %s_2: f32, %q: f32, %g: f32, %out: f32):
    %m_2 = arith.divf %s_2, %n : f32
    %var_2 = arith.divf %q, %n : f32
    %ve_2 = arith.addf %var_2, %eps : f32
    %r_2 = math.rsqrt %ve_2 : f32
    %d_2 = arith.subf %v, %m_2 : f32
    %y_2 = arith.mulf %d_2, %r_2 : f32
    %z_2 = arith.mulf %y_2, %g : f32
    linalg.yield %z_2 : f32
  } -> tensor<8x32xf32>
  %e64_2 = tensor.empty() : tensor<8x64xf32>
  %acc64_2 = linalg.fill ins(%zero : f32) outs(%e64_2 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %f1_2 = linalg.matmul ins(%ln1_2, %w1 : tensor<8x32xf32>, tensor<32x64xf32>) outs(%acc64_2 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %f1b_2 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%f1_2, %b1 : tensor<8x64xf32>, tensor<64xf32>) outs(%e64_2 : tensor<8x64xf32>) {
  ^bb0(%u: f32, %b: f32, %out: f32):
    %s_2 = arith.addf %u, %b : f32
    linalg.yield %s_2 : f32
  } -> tensor<8x64xf32>
  %f1r_2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%f1b_2 : tensor<8x64xf32>) outs(%e64_2 : tensor<8x64xf32>) {
  ^bb0(%u: f32, %out: f32):
    %r_2 = arith.maximumf %u, %zero : f32
    linalg.yield %r_2 : f32
  } -> tensor<8x64xf32>
  %acc2d_2 = linalg.fill ins(%zero : f32) outs(%e_2 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %f2_2 = linalg.matmul ins(%f1r_2, %w2 : tensor<8x64xf32>, tensor<64x32xf32>) outs(%acc2d_2 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %f2b_2 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%f2_2, %b2 : tensor<8x32xf32>, tensor<32xf32>) outs(%e_2 : tensor<8x32xf32>) {
  ^bb0(%u: f32, %b: f32, %out: f32):
    %s_2 = arith.addf %u, %b : f32
    linalg.yield %s_2 : f32
  } -> tensor<8x32xf32>
  %h2_2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%f2b_2, %ln1_2 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%e_2 : tensor<8x32xf32>) {
  ^bb0(%u: f32, %v: f32, %out: f32):
    %s_2 = arith.addf %u, %v : f32
    linalg.yield %s_2 : f32
  } -> tensor<8x32xf32>
  %acc3_2 = linalg.fill ins(%zero : f32) outs(%er_2 : tensor<8xf32>) -> tensor<8xf32>
  %sum2_2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h2_2 : tensor<8x32xf32>) outs(%acc3_2 : tensor<8xf32>) {
  ^bb0(%v: f32, %s_2: f32):
    %t_2 = arith.addf %v, %s_2 : f32
    linalg.yield %t_2 : f32
  } -> tensor<8xf32>
  %acc4_2 = linalg.fill ins(%zero : f32) outs(%er_2 : tensor<8xf32>) -> tensor<8xf32>
  %sq2_2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%h2_2, %sum2_2 : tensor<8x32xf32>, tensor<8xf32>) outs(%acc4_2 : tensor<8xf32>) {
  ^bb0(%v: f32, %s_2: f32, %q: f32):
    %m_2 = arith.divf %s_2, %n : f32
    %d_2 = arith.subf %v, %m_2 : f32
    %dd_2 = arith.mulf %d_2, %d_2 : f32
    %t_2 = arith.addf %dd_2, %q : f32
    linalg.yield %t_2 : f32
  } -> tensor<8xf32>
  %ln2_2 = linalg.generic {indexing_maps = [#id, #row, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h2_2, %sum2_2, %sq2_2, %g2 : tensor<8x32xf32>, tensor<8xf32>, tensor<8xf32>, tensor<32xf32>) outs(%e_2 : tensor<8x32xf32>) {
  ^bb0(%v: f32, %s_2: f32, %q: f32, %g: f32, %out: f32):
    %m_2 = arith.divf %s_2, %n : f32
    %var_2 = arith.divf %q, %n : f32
    %ve_2 = arith.addf %var_2, %eps : f32
    %r_2 = math.rsqrt %ve_2 : f32
    %d_2 = arith.subf %v, %m_2 : f32
    %y_2 = arith.mulf %d_2, %r_2 : f32
    %z_2 = arith.mulf %y_2, %g : f32
    linalg.yield %z_2 : f32
  } -> tensor<8x32xf32>
  return %ln2_2 : tensor<8x32xf32>
}

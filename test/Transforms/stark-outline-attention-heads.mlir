// Attention for a batch of one as torch-mlir writes it: each of Q, K and V
// is split into heads from an [S, H*D] projection (expand_shape to
// 1xSxHxD, a transpose, collapse_shape of the unit batch), and the output
// is joined back the other way. After --stark-unit-dim-transposes the
// transposes touch the contractions, and the attention problem takes them:
// Q and V are read as [S, H, D], K^T through its own transpose (K's head
// transpose is the one problem left: it feeds another transpose), and the
// output is written as [S, H, D]. The family reads the strides through
// those permutations (the problem is
// test/Integration/CUDA/templates/Inputs/attention-bf16-heads-permuted.mlir,
// run on the GPU by templates/attention.mlir).
//
// RUN: stark-opt %s --stark-unit-dim-transposes --stark-outline="all profile=h200" 2>&1 | FileCheck %s
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/attention-bf16-heads-permuted.mlir --family attention | FileCheck %s --check-prefix=STRIDES

// CHECK: remark: outlined with 10 producer/consumer op(s) as @stark_problem_0 (fused(linalg.transpose,linalg.transpose,linalg.transpose,linalg.batch_matmul,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.batch_matmul,linalg.transpose) 64x2x64xbf16,2x64x64xbf16,64x2x64xbf16->64x2x64xbf16
// CHECK: remark: outlined as @stark_problem_1 (linalg.transpose 64x2x64xbf16->2x64x64xbf16
// CHECK-NOT: remark: outlined
// CHECK-LABEL: func.func @heads
// CHECK: module @stark_problem_0
// CHECK-NEXT: func.func @kernel(%{{.*}}: memref<64x2x64xbf16>, %{{.*}}: memref<2x64x64xbf16>, %{{.*}}: memref<64x2x64xbf16>, %{{.*}}: memref<64x2x64xbf16>)

// Strides along (batch, head, row, column): Q, V and the output [S, H, D].
// STRIDES: kQStride[4] = {64, 0, 128, 1}, kKStride[4] = {4096, 0, 64, 1}, kVStride[4] = {64, 0, 128, 1}, kOStride[4] = {64, 0, 128, 1}
func.func @heads(%qp: tensor<64x128xbf16>, %kp: tensor<64x128xbf16>, %vp: tensor<64x128xbf16>) -> tensor<64x128xbf16> {
  %zero = arith.constant 0.0 : bf16
  %ninf = arith.constant 0xFF80 : bf16
  %scale = arith.constant 0.125 : bf16
  %qe = tensor.expand_shape %qp [[0, 1], [2, 3]] output_shape [1, 64, 2, 64] : tensor<64x128xbf16> into tensor<1x64x2x64xbf16>
  %qi = tensor.empty() : tensor<1x2x64x64xbf16>
  %qt = linalg.transpose ins(%qe : tensor<1x64x2x64xbf16>) outs(%qi : tensor<1x2x64x64xbf16>) permutation = [0, 2, 1, 3]
  %q = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<1x2x64x64xbf16> into tensor<2x64x64xbf16>
  %ke = tensor.expand_shape %kp [[0, 1], [2, 3]] output_shape [1, 64, 2, 64] : tensor<64x128xbf16> into tensor<1x64x2x64xbf16>
  %ki = tensor.empty() : tensor<1x2x64x64xbf16>
  %kt = linalg.transpose ins(%ke : tensor<1x64x2x64xbf16>) outs(%ki : tensor<1x2x64x64xbf16>) permutation = [0, 2, 1, 3]
  %k = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x64x64xbf16> into tensor<2x64x64xbf16>
  %kti = tensor.empty() : tensor<2x64x64xbf16>
  %ktt = linalg.transpose ins(%k : tensor<2x64x64xbf16>) outs(%kti : tensor<2x64x64xbf16>) permutation = [0, 2, 1]
  %ve = tensor.expand_shape %vp [[0, 1], [2, 3]] output_shape [1, 64, 2, 64] : tensor<64x128xbf16> into tensor<1x64x2x64xbf16>
  %vi = tensor.empty() : tensor<1x2x64x64xbf16>
  %vt = linalg.transpose ins(%ve : tensor<1x64x2x64xbf16>) outs(%vi : tensor<1x2x64x64xbf16>) permutation = [0, 2, 1, 3]
  %v = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<1x2x64x64xbf16> into tensor<2x64x64xbf16>
  %s0 = tensor.empty() : tensor<2x64x64xbf16>
  %s1 = linalg.fill ins(%zero : bf16) outs(%s0 : tensor<2x64x64xbf16>) -> tensor<2x64x64xbf16>
  %s = linalg.batch_matmul ins(%q, %ktt : tensor<2x64x64xbf16>, tensor<2x64x64xbf16>) outs(%s1 : tensor<2x64x64xbf16>) -> tensor<2x64x64xbf16>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x64x64xbf16>) outs(%s0 : tensor<2x64x64xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %y = arith.mulf %x, %scale : bf16
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %up = arith.cmpi ugt, %j, %i : index
    %m = arith.select %up, %ninf, %zero : bf16
    %r = arith.addf %y, %m : bf16
    linalg.yield %r : bf16
  } -> tensor<2x64x64xbf16>
  %r0 = tensor.empty() : tensor<2x64xbf16>
  %mx0 = linalg.fill ins(%ninf : bf16) outs(%r0 : tensor<2x64xbf16>) -> tensor<2x64xbf16>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<2x64x64xbf16>) outs(%mx0 : tensor<2x64xbf16>) {
  ^bb0(%x: bf16, %a: bf16):
    %y = arith.maximumf %x, %a : bf16
    linalg.yield %y : bf16
  } -> tensor<2x64xbf16>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc, %mx : tensor<2x64x64xbf16>, tensor<2x64xbf16>) outs(%s0 : tensor<2x64x64xbf16>) {
  ^bb0(%x: bf16, %m: bf16, %o: bf16):
    %d = arith.subf %x, %m : bf16
    %e = math.exp %d : bf16
    linalg.yield %e : bf16
  } -> tensor<2x64x64xbf16>
  %sm0 = linalg.fill ins(%zero : bf16) outs(%r0 : tensor<2x64xbf16>) -> tensor<2x64xbf16>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x64x64xbf16>) outs(%sm0 : tensor<2x64xbf16>) {
  ^bb0(%x: bf16, %a: bf16):
    %y = arith.addf %x, %a : bf16
    linalg.yield %y : bf16
  } -> tensor<2x64xbf16>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sm : tensor<2x64x64xbf16>, tensor<2x64xbf16>) outs(%s0 : tensor<2x64x64xbf16>) {
  ^bb0(%x: bf16, %t: bf16, %o: bf16):
    %y = arith.divf %x, %t : bf16
    linalg.yield %y : bf16
  } -> tensor<2x64x64xbf16>
  %o0 = tensor.empty() : tensor<2x64x64xbf16>
  %o1 = linalg.fill ins(%zero : bf16) outs(%o0 : tensor<2x64x64xbf16>) -> tensor<2x64x64xbf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x64x64xbf16>, tensor<2x64x64xbf16>) outs(%o1 : tensor<2x64x64xbf16>) -> tensor<2x64x64xbf16>
  %oe = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 64, 64] : tensor<2x64x64xbf16> into tensor<1x2x64x64xbf16>
  %oi = tensor.empty() : tensor<1x64x2x64xbf16>
  %ot = linalg.transpose ins(%oe : tensor<1x2x64x64xbf16>) outs(%oi : tensor<1x64x2x64xbf16>) permutation = [0, 2, 1, 3]
  %out = tensor.collapse_shape %ot [[0, 1], [2, 3]] : tensor<1x64x2x64xbf16> into tensor<64x128xbf16>
  return %out : tensor<64x128xbf16>
}

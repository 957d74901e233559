// The Hopper 3xTF32 wgmma template (gemm_wgmma_3xtf32, sm_90a) verifies on
// the GPU under the f32 bound (atol = rtol = 1e-4) with every trial of the
// evaluator, special values included: an A B^T (linear layer) over
// k = 2048 in both depths of its ring; a batch of two whose m and n are no
// multiples of the tile; a fill + matmul with n odd (C's rows are not
// aligned to pairs, so the store stage writes single elements and the last
// column has no partner), and a fill + matmul + bias + relu written by its
// store stage. With B row-major (K x N: copied by rows, split transposed):
// k = 2048, and a batch of two from a fill with m, n and k no tile
// multiples. With k in slices (split_k: partial sums in a workspace, added
// in order by a second launch that runs the store stage): C += A B^T in
// three slices (22, 22 and 20 k tiles), the fill + bias + relu in four, the
// ragged batch of two with B K x N in two (9 and 8 k tiles), and a planted
// wrong split whose grid leaves out the last slice. Convolutions, with A
// gathered first by a launch of its own (im2col): VGG-16's 512 -> 512 at
// 28 x 28 in nine slices and unsplit, and a strided batch-1 convolution
// with bias and relu (m and n no tile multiples) stored by its epilogue.
// The first-enumerated sets run two producer warpgroups (512 threads);
// those with explicit parameters one, B as K x N included.

// RUN: stark-template --problem %S/Inputs/linear-f32-k2048.mlir --family gemm_wgmma_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/linear-f32-k2048.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/linear-f32-k2048.mlir --family gemm_wgmma_3xtf32 --params stages=4,group_m=16 | stark-eval --target cuda --no-timing --problem %S/Inputs/linear-f32-k2048.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/linear-f32-ragged.mlir --family gemm_wgmma_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/linear-f32-ragged.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-linear-f32-odd-n.mlir --family gemm_wgmma_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-linear-f32-odd-n.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-linear-f32-bias-relu.mlir --family gemm_wgmma_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-linear-f32-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-f32-kn-k2048.mlir --family gemm_wgmma_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-f32-kn-k2048.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-f32-kn-k2048.mlir --family gemm_wgmma_3xtf32 --params stages=3,group_m=8,producers=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-f32-kn-k2048.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-batch-matmul-f32-kn-ragged.mlir --family gemm_wgmma_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-batch-matmul-f32-kn-ragged.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/linear-f32-k2048.mlir --family gemm_wgmma_3xtf32 --params stages=3,group_m=8,split_k=3 | stark-eval --target cuda --no-timing --problem %S/Inputs/linear-f32-k2048.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-linear-f32-bias-relu.mlir --family gemm_wgmma_3xtf32 --params stages=3,group_m=8,split_k=4 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-linear-f32-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-batch-matmul-f32-kn-ragged.mlir --family gemm_wgmma_3xtf32 --params stages=3,group_m=8,split_k=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-batch-matmul-f32-kn-ragged.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-conv2d-nchw-512ch-28.mlir --family gemm_wgmma_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-conv2d-nchw-512ch-28.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-conv2d-nchw-512ch-28.mlir --family gemm_wgmma_3xtf32 --params stages=3,group_m=8,split_k=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-conv2d-nchw-512ch-28.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-conv2d-b1-bias-relu-k144.mlir --family gemm_wgmma_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-conv2d-b1-bias-relu-k144.mlir --candidate - | FileCheck %s

// CHECK: status: ok

// RUN: stark-template --problem %S/Inputs/linear-f32-k2048.mlir --family gemm_wgmma_3xtf32 --params stages=3,group_m=8,split_k=3 > %t.split.mlir
// RUN: grep -q "grid = array<i64: 32, 3, 1>" %t.split.mlir
// RUN: sed -e "s/grid = array<i64: 32, 3, 1>/grid = array<i64: 32, 2, 1>/" %t.split.mlir > %t.skip.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/Inputs/linear-f32-k2048.mlir --candidate %t.skip.mlir | FileCheck %s --check-prefix=SKIP
// SKIP: status: wrong

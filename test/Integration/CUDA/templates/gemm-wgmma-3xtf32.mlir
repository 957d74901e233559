// The Hopper 3xTF32 wgmma template (gemm_wgmma_3xtf32, sm_90a) verifies on
// the GPU under the f32 bound (atol = rtol = 1e-4) with every trial of the
// evaluator, special values included: an A B^T (linear layer) over
// k = 2048 in both depths of its ring; a batch of two whose m and n are no
// multiples of the tile; a fill + matmul with n odd (C's rows are not
// aligned to pairs, so the store stage writes single elements and the last
// column has no partner), and a fill + matmul + bias + relu written by its
// store stage. With B row-major (K x N: copied by rows, split transposed):
// k = 2048, and a batch of two from a fill with m, n and k no tile
// multiples.

// RUN: stark-template --problem %S/Inputs/linear-f32-k2048.mlir --family gemm_wgmma_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/linear-f32-k2048.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/linear-f32-k2048.mlir --family gemm_wgmma_3xtf32 --params stages=4,group_m=16 | stark-eval --target cuda --no-timing --problem %S/Inputs/linear-f32-k2048.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/linear-f32-ragged.mlir --family gemm_wgmma_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/linear-f32-ragged.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-linear-f32-odd-n.mlir --family gemm_wgmma_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-linear-f32-odd-n.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-linear-f32-bias-relu.mlir --family gemm_wgmma_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-linear-f32-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-f32-kn-k2048.mlir --family gemm_wgmma_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-f32-kn-k2048.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-batch-matmul-f32-kn-ragged.mlir --family gemm_wgmma_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-batch-matmul-f32-kn-ragged.mlir --candidate - | FileCheck %s

// CHECK: status: ok

// The Hopper wgmma GEMM template (sm_90a) verifies on the GPU: a 2048^3 bf16
// GEMM, f16 batches whose m, n and k are no multiples of the tiles (copies
// past the edges read zeros, the epilogue guards its stores) and a bf16
// output; both tile widths and several pipeline depths.

// RUN: stark-template --problem %S/Inputs/matmul-2048-bf16.mlir --family gemm_wgmma | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-2048-bf16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-2048-bf16.mlir --family gemm_wgmma --params bn=128,stages=5 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-2048-bf16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/batch-matmul-f16-k136.mlir --family gemm_wgmma | stark-eval --target cuda --no-timing --problem %S/Inputs/batch-matmul-f16-k136.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/batch-matmul-f16-k136.mlir --family gemm_wgmma --params bn=256,stages=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/batch-matmul-f16-k136.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-bf16-out.mlir --family gemm_wgmma | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-bf16-out.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-bf16-out.mlir --family gemm_wgmma --params bn=128,stages=3,group_m=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-bf16-out.mlir --candidate - | FileCheck %s

// CHECK: status: ok

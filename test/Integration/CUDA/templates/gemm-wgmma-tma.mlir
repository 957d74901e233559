// The Hopper wgmma GEMM with TMA loads (gemm_wgmma_tma, sm_90a) verifies
// on the GPU: its operands read through tensor maps the launch encodes
// (#stark.tensor_map), zeros past the edges. The inputs of gemm-wgmma.mlir:
// a 2048x2048 bf16 GEMM over k = 512 (persistent, and a block per tile),
// a fill + matmul into f32, a bf16 matmul's truncation and a batched f16
// matmul + bias + relu in the store stage, f16 batches whose m, n and k are
// no tile multiples (persistent with 7 blocks, so each block runs tiles of
// both batches through one ring), and a bf16 output. The 64- and 192-wide
// tiles on the odd f16 batches and the fused bias + relu, and so is the
// 64-row tile (one consumer warpgroup).

// RUN: stark-template --problem %S/Inputs/matmul-2048x512-bf16.mlir --family gemm_wgmma_tma | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-2048x512-bf16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-2048x512-bf16.mlir --family gemm_wgmma_tma --params bn=128,stages=5,blocks=0 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-2048x512-bf16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-matmul-bf16-f32.mlir --family gemm_wgmma_tma | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-matmul-bf16-f32.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-matmul-bf16-truncf.mlir --family gemm_wgmma_tma | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-matmul-bf16-truncf.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-batch-matmul-f16-bias-relu.mlir --family gemm_wgmma_tma | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-batch-matmul-f16-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/batch-matmul-f16-k136.mlir --family gemm_wgmma_tma --params bn=128,stages=3,blocks=7 | stark-eval --target cuda --no-timing --problem %S/Inputs/batch-matmul-f16-k136.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/batch-matmul-f16-k136.mlir --family gemm_wgmma_tma --params bn=256,stages=2,blocks=0 | stark-eval --target cuda --no-timing --problem %S/Inputs/batch-matmul-f16-k136.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/batch-matmul-f16-k136.mlir --family gemm_wgmma_tma --params bn=64,stages=8,blocks=7 | stark-eval --target cuda --no-timing --problem %S/Inputs/batch-matmul-f16-k136.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/batch-matmul-f16-k136.mlir --family gemm_wgmma_tma --params bn=192,stages=4,blocks=5 | stark-eval --target cuda --no-timing --problem %S/Inputs/batch-matmul-f16-k136.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-batch-matmul-f16-bias-relu.mlir --family gemm_wgmma_tma --params bn=192,stages=4,blocks=132 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-batch-matmul-f16-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-batch-matmul-f16-bias-relu.mlir --family gemm_wgmma_tma --params bn=64,stages=8,blocks=132 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-batch-matmul-f16-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/batch-matmul-f16-k136.mlir --family gemm_wgmma_tma --params bm=64,bn=128,stages=8,blocks=5 | stark-eval --target cuda --no-timing --problem %S/Inputs/batch-matmul-f16-k136.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-batch-matmul-f16-bias-relu.mlir --family gemm_wgmma_tma --params bm=64,bn=128,stages=8,blocks=132 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-batch-matmul-f16-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-2048x512-bf16.mlir --family gemm_wgmma_tma --params bm=64,bn=128,stages=8,blocks=0 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-2048x512-bf16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-bf16-out.mlir --family gemm_wgmma_tma | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-bf16-out.mlir --candidate - | FileCheck %s
// With timing (the maps are encoded and written before every launch):
// RUN: stark-template --problem %S/Inputs/matmul-2048x512-bf16.mlir --family gemm_wgmma_tma | stark-eval --target cuda --problem %S/Inputs/matmul-2048x512-bf16.mlir --candidate - | FileCheck %s --check-prefix=TIMED

// CHECK: status: ok
// TIMED: status: ok
// TIMED: speedup:

// A contraction with its epilogue as one kernel: the embedded GEMM kernels
// compute the element-wise ops after the contraction in their store stage
// (bias + erf-GELU, a per-row scale + residual add + SiLU from a non-zero
// fill, a batch matmul scaled by a constant), with and without split-K, and
// gemm_tc a bf16 matmul + bias truncated to a bf16 output (judged at bf16
// precision), and the SIMT gemm (its store hands each sum to the epilogue:
// vectorised and scalar C paths, the batch, a bf16 output), verified against the upstream lowering of the whole fused
// problem (the intermediate result is never written by the candidate).

// RUN: stark-template --problem %S/Inputs/fused-matmul-bias-gelu.mlir --family gemm_f32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-matmul-bias-gelu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-matmul-bias-gelu.mlir --family gemm_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-matmul-bias-gelu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-matmul-bias-gelu.mlir --family gemm_f32 --params bm=128,bn=128,bk=16,wm=64,wn=32,tm=8,tn=8,stages=3,min_blocks=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-matmul-bias-gelu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-batch-matmul-scale.mlir --family gemm_f32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-batch-matmul-scale.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-batch-matmul-scale.mlir --family gemm_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-batch-matmul-scale.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-matmul-residual-silu.mlir --family gemm_f32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-matmul-residual-silu.mlir --candidate - | FileCheck %s
// The epilogue runs once, on the sum of the slices, in the second launch.
// RUN: stark-template --problem %S/Inputs/fused-matmul-residual-silu.mlir --family gemm_f32 --params bm=64,bn=64,bk=16,wm=32,wn=32,tm=8,tn=4,stages=4,min_blocks=4,split_k=4 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-matmul-residual-silu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-matmul-residual-silu.mlir --family gemm_3xtf32 --params bm=64,bn=64,bk=32,wm=32,wn=32,stages=3,split_k=3 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-matmul-residual-silu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-matmul-bias-bf16.mlir --family gemm_tc | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-matmul-bias-bf16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-matmul-bias-bf16.mlir --family gemm_tc --params bm=32,bn=32,bk=32,wm=16,wn=16,stages=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-matmul-bias-bf16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-matmul-bias-gelu.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-matmul-bias-gelu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-matmul-bias-gelu.mlir --family gemm --params bm=32,bn=32,bk=16,tm=2,tn=2,double_buffer=0 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-matmul-bias-gelu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-batch-matmul-scale.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-batch-matmul-scale.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-matmul-residual-silu.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-matmul-residual-silu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-matmul-bias-bf16.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-matmul-bias-bf16.mlir --candidate - | FileCheck %s
// CHECK: status: ok

// The tensor-core (WMMA) GEMM template verifies on the GPU: f16 with A B^T
// (both operands through 16-byte cp.async), f16 in and out, f16 sizes that forbid 16-byte
// copies (element copies, guarded), bf16 batches, an f16 convolution as an
// implicit GEMM; several tilings and pipeline depths. (tf32 is opt-in and
// not held to the f32 tolerance here.)

// RUN: stark-template --problem %S/Inputs/matmul-tb-f16.mlir --family gemm_tc | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-tb-f16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-tb-f16.mlir --family gemm_tc --params bm=128,bn=128,bk=32,wm=64,wn=32,stages=3 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-tb-f16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-tb-f16.mlir --family gemm_tc --params bm=64,bn=64,bk=64,wm=32,wn=32,stages=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-tb-f16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-f16-out.mlir --family gemm_tc | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-f16-out.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-f16-out.mlir --family gemm_tc --params bm=64,bn=64,bk=32,wm=32,wn=32,stages=3 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-f16-out.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-f16-odd.mlir --family gemm_tc | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-f16-odd.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-f16-odd.mlir --family gemm_tc --params bm=128,bn=64,bk=32,wm=64,wn=32,stages=4 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-f16-odd.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/batch-matmul-bf16.mlir --family gemm_tc | stark-eval --target cuda --no-timing --problem %S/Inputs/batch-matmul-bf16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/batch-matmul-bf16.mlir --family gemm_tc --params bm=64,bn=128,bk=32,wm=32,wn=64,stages=3 | stark-eval --target cuda --no-timing --problem %S/Inputs/batch-matmul-bf16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/conv-nhwc-f16.mlir --family gemm_tc | stark-eval --target cuda --no-timing --problem %S/Inputs/conv-nhwc-f16.mlir --candidate - | FileCheck %s

// CHECK: status: ok

// Controls of the GPU planted-fault suite: the correct counterparts of the
// faults in this directory must be verified, also once special-value
// trials, finite-garbage prefills, rotating timed inputs and repeated
// correctness trials are added: the tiled matmul with both barriers, a
// 3xTF32-style split that keeps inf and NaN (hand-written, and the
// gemm_3xtf32 template), and bf16 matmuls accumulated in f32 (hand-written
// on a bf16-accumulating problem, and the gemm_wgmma template).
//
// DEFINE: %{eval} = stark-eval --target cuda --trials 2 --max-trials 2 --warmup 1 --time-budget 1
// DEFINE: %{gen} = python3 %S/../Inputs/cuda_candidate.py
// DEFINE: %{mm} = %S/../Inputs/matmul-problem.mlir

// RUN: %{gen} %{mm} %S/../Inputs/matmul-tiled.cu -D M=255 -D K=129 -D N=191 > %t.tiled.mlir
// RUN: %{eval} --problem %{mm} --candidate %t.tiled.mlir | FileCheck %s

// RUN: %{gen} %{mm} %S/Inputs/matmul-3xtf32-guarded.cu -D M=255 -D K=129 -D N=191 > %t.split.mlir
// RUN: %{eval} --problem %{mm} --candidate %t.split.mlir | FileCheck %s

// RUN: stark-template --problem %S/../templates/Inputs/matmul-1024-f32.mlir --family gemm_3xtf32 > %t.3xtf32.mlir
// RUN: %{eval} --problem %S/../templates/Inputs/matmul-1024-f32.mlir --candidate %t.3xtf32.mlir | FileCheck %s

// RUN: %{gen} %S/Inputs/matmul-bf16-k1024-problem.mlir %S/Inputs/matmul-bf16-f32acc.cu -D M=64 -D K=1024 -D N=64 > %t.bf16.mlir
// RUN: %{eval} --problem %S/Inputs/matmul-bf16-k1024-problem.mlir --candidate %t.bf16.mlir | FileCheck %s

// RUN: stark-template --problem %S/../templates/Inputs/matmul-bf16-out.mlir --family gemm_wgmma > %t.wgmma.mlir
// RUN: %{eval} --problem %S/../templates/Inputs/matmul-bf16-out.mlir --candidate %t.wgmma.mlir | FileCheck %s

// CHECK: status: ok

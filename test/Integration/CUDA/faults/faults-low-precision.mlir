// Planted faults on the GPU, class "low precision": a bf16 matmul whose
// baseline accumulates in bf16, and a kernel that accumulates in f32 but
// drops the last 8 of K = 1024. Its f32-accumulating counterpart is a
// control in faults-controls.mlir.
//
// Expected: wrong.
// RUN: python3 %S/../Inputs/cuda_candidate.py %S/Inputs/matmul-bf16-k1024-problem.mlir %S/Inputs/matmul-bf16-drop-last-8.cu -D M=64 -D K=1024 -D N=64 > %t.drop.mlir
// RUN: not stark-eval --target cuda --trials 2 --max-trials 2 --warmup 1 --time-budget 1 --problem %S/Inputs/matmul-bf16-k1024-problem.mlir --candidate %t.drop.mlir | FileCheck %s

// CHECK:      status: wrong
// CHECK-NEXT: message: argument #2 differs

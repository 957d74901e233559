// Correct candidates verify and are timed on the GPU: GPU-dialect ones (an
// inline gpu.launch; an outlined gpu.module with gpu.launch_func) and CUDA C++
// ones through NVRTC (a naive and a shared-memory tiled matmul, an element-wise
// add, a block-per-row reduction). The baseline each is compared with is the problem itself,
// lowered the plain upstream way (parallel loops mapped to blocks and threads).

// RUN: stark-eval --target cuda --time-budget 0.5 --problem %S/Inputs/matmul-problem.mlir --candidate %S/Inputs/matmul-gpu-launch.mlir | FileCheck %s
// RUN: stark-eval --target cuda --time-budget 0.5 --problem %S/Inputs/rowsum-problem.mlir --candidate %S/Inputs/rowsum-gpu-module.mlir | FileCheck %s

// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-problem.mlir %S/Inputs/matmul-naive.cu -D M=255 -D K=129 -D N=191 > %t.naive.mlir
// RUN: stark-eval --target cuda --time-budget 0.5 --problem %S/Inputs/matmul-problem.mlir --candidate %t.naive.mlir | FileCheck %s
// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-problem.mlir %S/Inputs/matmul-tiled.cu -D M=255 -D K=129 -D N=191 > %t.tiled.mlir
// RUN: stark-eval --target cuda --time-budget 0.5 --problem %S/Inputs/matmul-problem.mlir --candidate %t.tiled.mlir | FileCheck %s
// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/add-problem.mlir %S/Inputs/add-grid-stride.cu -D R=1023 -D C_COLS=517 > %t.add.mlir
// RUN: stark-eval --target cuda --time-budget 0.5 --problem %S/Inputs/add-problem.mlir --candidate %t.add.mlir | FileCheck %s
// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/rowsum-problem.mlir %S/Inputs/rowsum-block.cu -D R=1023 -D C=997 > %t.rowsum.mlir
// RUN: stark-eval --target cuda --time-budget 0.5 --problem %S/Inputs/rowsum-problem.mlir --candidate %t.rowsum.mlir | FileCheck %s

// A speedup above 10x adds extra trials.
// CHECK: status: ok
// CHECK-NEXT: message: verified on {{6|16}} trials
// CHECK-NEXT: target: cuda
// CHECK: correctness: {{6|16}} trials (uniform, normal, large, tiny, negative, special
// CHECK-NEXT: baseline: median
// CHECK-NEXT: candidate: median
// CHECK-NEXT: speedup:

// A kernel that writes to an unmapped address is a crash, a kernel that
// never ends is a timeout; both stay inside the worker process, and the
// next evaluation (a new worker) runs normally.

// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-problem.mlir %S/Inputs/crash-illegal-address.cu > %t.crash.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-problem.mlir --candidate %t.crash.mlir | FileCheck %s --check-prefix=CRASH
// CRASH: status: crash
// CRASH-NEXT: message: the candidate failed to run (trial 0 {{.*}}CUDA_ERROR_ILLEGAL_ADDRESS
// CRASH-NEXT: target: cuda

// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-problem.mlir %S/Inputs/hang-spin.cu > %t.hang.mlir
// RUN: not stark-eval --target cuda --no-timing --timeout 20 --problem %S/Inputs/matmul-problem.mlir --candidate %t.hang.mlir | FileCheck %s --check-prefix=HANG
// HANG: status: timeout
// HANG-NEXT: message: {{.*}}20 s
// HANG-NEXT: target: cuda
// HANG-NEXT: phase: running the candidate: trial 0

// RUN: stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-problem.mlir --candidate %S/Inputs/matmul-gpu-launch.mlir | FileCheck %s --check-prefix=AFTER
// AFTER: status: ok

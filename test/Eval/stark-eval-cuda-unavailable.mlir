// Without a usable GPU the cuda target fails cleanly with its reason.
// UNSUPPORTED: cuda-device
//
// RUN: not stark-eval --target cuda --problem %S/Inputs/matmul-problem.mlir --candidate %S/Inputs/matmul-ikj.mlir | FileCheck %s
// CHECK:      status: error
// CHECK-NEXT: message: target 'cuda' cannot run here: {{.+}}
// CHECK-NEXT: target: cuda

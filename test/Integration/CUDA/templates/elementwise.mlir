// The element-wise template verifies on the GPU: a broadcast bias with erf
// GELU (16-byte vectors), a transposed f16 ReLU (scalar gathers), bf16 with
// 8-wide vectors, an output the payload reads (accumulation) with an
// innermost extent of 3, and a fill.

// RUN: stark-template --problem %S/Inputs/bias-gelu.mlir --family elementwise | stark-eval --target cuda --no-timing --problem %S/Inputs/bias-gelu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/bias-gelu.mlir --family elementwise --params block=128,vec=2,per_thread=4 | stark-eval --target cuda --no-timing --problem %S/Inputs/bias-gelu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/relu-transpose-f16.mlir --family elementwise | stark-eval --target cuda --no-timing --problem %S/Inputs/relu-transpose-f16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/relu-transpose-f16.mlir --family elementwise --params block=64,vec=1,per_thread=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/relu-transpose-f16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/add-relu-bf16.mlir --family elementwise | stark-eval --target cuda --no-timing --problem %S/Inputs/add-relu-bf16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/add-relu-bf16.mlir --family elementwise --params block=256,vec=8,per_thread=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/add-relu-bf16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/accumulate-scaled.mlir --family elementwise | stark-eval --target cuda --no-timing --problem %S/Inputs/accumulate-scaled.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill.mlir --family elementwise | stark-eval --target cuda --no-timing --problem %S/Inputs/fill.mlir --candidate - | FileCheck %s

// CHECK: status: ok

// The direct template (one thread per output, reductions in order) verifies
// on the GPU for depthwise convolution, max and sum pooling, a strided
// convolution, a matmul, and a depthwise convolution whose output is
// filled first (the kernel starts from the fill value).

// RUN: stark-template --problem %S/Inputs/depthwise.mlir --family direct | stark-eval --target cuda --no-timing --problem %S/Inputs/depthwise.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/depthwise.mlir --family reduce_col | stark-eval --target cuda --no-timing --problem %S/Inputs/depthwise.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/maxpool.mlir --family direct | stark-eval --target cuda --no-timing --problem %S/Inputs/maxpool.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/sumpool.mlir --family direct --params block=64 | stark-eval --target cuda --no-timing --problem %S/Inputs/sumpool.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/conv-nchw-strided.mlir --family direct | stark-eval --target cuda --no-timing --problem %S/Inputs/conv-nchw-strided.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-255x129x191.mlir --family direct | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-255x129x191.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-depthwise.mlir --family direct | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-depthwise.mlir --candidate - | FileCheck %s

// CHECK: status: ok

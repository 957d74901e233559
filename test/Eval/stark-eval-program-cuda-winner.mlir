// REQUIRES: nvrtc
// A model on tensors whose matmul was replaced by a CUDA C++ winner (the
// call goes to a host function of gpu.wait and gpu.launch_func ops) is
// bufferized like any program: the deallocation pass does not look into
// the launching function. On the cpu target it then stops where it
// should, at the gpu.binary the cpu lowering cannot run; on the GPU,
// test/Integration/CUDA/tensor-program-cuda.mlir evaluates it.
//
// RUN: stark-template --problem %S/../Integration/CUDA/Inputs/fill-zero-matmul-255x129x191.mlir --family gemm_f32 > %t.winner.mlir
// RUN: %python %S/../Integration/CUDA/Inputs/with_winner.py %S/Inputs/substitute-matmul-tensor-program.mlir %t.winner.mlir > %t.program.mlir
// RUN: stark-opt %t.program.mlir --stark-substitute -o %t.substituted.mlir
// RUN: FileCheck %s --check-prefix=SUB < %t.substituted.mlir
// RUN: not stark-eval --target cpu --no-timing --problem %S/Inputs/matmul-tanh-program.mlir --candidate %t.substituted.mlir | FileCheck %s

// SUB-LABEL: func.func @forward
// SUB: call @stark_kernel_5ab57177e5ab5717
// SUB: math.tanh
// SUB: gpu.launch_func

// CHECK: status: compile_error
// CHECK-NEXT: message: the cpu lowering cannot convert 'gpu.binary'

// A convolution with its epilogue as one kernel: the embedded GEMM kernels
// run the convolution as an implicit GEMM (m = batch x output image, n =
// output channels, k = input channels x filter window) and compute the
// element-wise ops after it in their store stage: conv2d NCHW with stride 2
// + per-channel bias + relu, conv1d NCW + bias + relu, and conv2d NHWC from a
// non-zero fill + a residual of the output's shape + tanh (also with the
// SIMT gemm). Each is verified
// against the upstream lowering of the whole fused problem (the
// convolution's result is never written by the candidate).

// RUN: stark-template --problem %S/Inputs/fused-conv2d-bias-relu.mlir --family gemm_f32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-conv2d-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-conv2d-bias-relu.mlir --family gemm_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-conv2d-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-conv2d-bias-relu.mlir --family gemm_f32 --params bm=128,bn=128,bk=16,wm=64,wn=32,tm=8,tn=8,stages=3,min_blocks=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-conv2d-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-conv1d-bias-relu.mlir --family gemm_f32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-conv1d-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-conv1d-bias-relu.mlir --family gemm_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-conv1d-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-conv2d-nhwc-residual-tanh.mlir --family gemm_f32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-conv2d-nhwc-residual-tanh.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-conv2d-nhwc-residual-tanh.mlir --family gemm_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-conv2d-nhwc-residual-tanh.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-conv2d-bias-relu.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-conv2d-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-conv2d-nhwc-residual-tanh.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-conv2d-nhwc-residual-tanh.mlir --candidate - | FileCheck %s
// CHECK: status: ok

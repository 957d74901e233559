// The conv template (direct convolution on CUDA cores: filter values staged
// in shared memory, reduction offsets from constant-memory tables) verifies
// on the GPU against the upstream lowering:
// - conv2d NCHW with stride 2 accumulating into its output (no fill), with
//   the default parameters and with scalar filter loads (ft = 1, 2);
// - conv2d NCHW from a fill of 0.5 with dilations (2, 3), strides (1, 2)
//   and k = 120 staged 16 at a time (a partial last chunk of 8), 9 channels in
//   tiles of 8 and 32 (partial channel tiles), partial x and row tiles;
// - conv2d NCHW and conv1d NCW followed by bias + relu, the epilogue in the
//   store stage (the convolution's result is never written).
// The default parameters come from the enumeration (`stark-template`
// without --params takes the first set).

// RUN: stark-template --problem %S/Inputs/conv-nchw-strided.mlir --family conv | stark-eval --target cuda --no-timing --problem %S/Inputs/conv-nchw-strided.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/conv-nchw-strided.mlir --family conv --params ft=1,pw=1,wf=4,wr=1,kch=8 | stark-eval --target cuda --no-timing --problem %S/Inputs/conv-nchw-strided.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/conv-nchw-strided.mlir --family conv --params ft=2,pw=8,wf=2,wr=2,kch=27 | stark-eval --target cuda --no-timing --problem %S/Inputs/conv-nchw-strided.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-conv2d-nchw-dilated.mlir --family conv | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-conv2d-nchw-dilated.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-conv2d-nchw-dilated.mlir --family conv --params ft=4,pw=2,wf=2,wr=2,kch=16 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-conv2d-nchw-dilated.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-conv2d-nchw-dilated.mlir --family conv --params ft=16,pw=4,wf=2,wr=4,kch=64 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-conv2d-nchw-dilated.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-conv2d-bias-relu.mlir --family conv | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-conv2d-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-conv2d-bias-relu.mlir --family conv --params ft=8,pw=1,wf=1,wr=8,kch=5 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-conv2d-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-conv1d-bias-relu.mlir --family conv | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-conv1d-bias-relu.mlir --candidate - | FileCheck %s

// CHECK: status: ok

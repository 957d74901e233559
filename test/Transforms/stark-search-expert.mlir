// The expert policy on the host, where the outcome does not depend on
// timing: a problem with no applicable strategy.
// RUN: stark-opt %s --stark-hot-ops="profile=h200 top-k=1" --stark-outline --stark-search="target=cpu progress=0" --stark-substitute -verify-diagnostics 2>&1 | FileCheck %s
// CHECK-LABEL: func.func @conv
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: stark.problem

// The expert policy has no host strategy for convolutions yet: the op is
// left alone with the reason.
func.func @conv(%i: tensor<1x10x10x4xf32>, %w: tensor<3x3x4x8xf32>, %o: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  // expected-remark @+3 {{hot op #1}}
  // expected-remark @+2 {{outlined as @stark_problem_0}}
  // expected-remark @+1 {{stark-search: left as is: no strategy applies (indexing maps that are not projected permutations (convolution or pooling windows) are not vectorised on the host yet)}}
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%i, %w : tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

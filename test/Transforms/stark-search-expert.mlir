// The expert policy on the host, where the outcome does not depend on
// timing: a problem with no applicable strategy.
// RUN: stark-opt %s --stark-hot-ops="profile=h200 top-k=1" --stark-outline --stark-search="target=cpu progress=0" --stark-substitute -verify-diagnostics 2>&1 | FileCheck %s
// CHECK-LABEL: func.func @long_softmax
// CHECK: linalg.softmax
// CHECK-NOT: stark.problem

// Rows this long are not kept in vectors by the host's softmax schedule,
// and no other family takes linalg.softmax: the op is left alone with the
// reason.
func.func @long_softmax(%x: tensor<2x16384xf32>, %o: tensor<2x16384xf32>) -> tensor<2x16384xf32> {
  // expected-remark @+3 {{hot op #1}}
  // expected-remark @+2 {{outlined as @stark_problem_0}}
  // expected-remark @+1 {{stark-search: upstream: no strategy applies (softmax rows of 16384 elements are longer than the 8192 the host schedule keeps in vectors)}}
  %0 = linalg.softmax dimension(1) ins(%x : tensor<2x16384xf32>) outs(%o : tensor<2x16384xf32>) -> tensor<2x16384xf32>
  return %0 : tensor<2x16384xf32>
}

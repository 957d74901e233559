// A TOSA model comes down to linalg with the upstream conversions stark-opt
// registers, and stark ranks and outlines what they produce in the same
// command.
// RUN: stark-opt %s --tosa-to-linalg-pipeline --tosa-to-arith | FileCheck %s --check-prefix=LINALG
// RUN: stark-opt %s --tosa-to-linalg-pipeline --tosa-to-arith --stark-hot-ops="top-k=1" --stark-outline -o /dev/null 2>&1 | FileCheck %s --check-prefix=STARK
// The whole pipeline on the CPU, one candidate: the output verifies (it is
// printed) and holds no TOSA op.
// RUN: stark-opt %s --tosa-to-linalg-pipeline --tosa-to-arith --stark-pipeline="target=cpu top-k=1 budget=1 trials=1 timing-trials=1 progress=0" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=PIPE

// LINALG-LABEL: func.func @mlp
// LINALG-NOT:   tosa.
// LINALG:       linalg.batch_matmul
// LINALG:       linalg.generic
// LINALG-NOT:   tosa.

// STARK: remark: hot op #1: fill + contraction
// STARK: remark: outlined with the fill of its output as @stark_problem_0 (linalg.fill + linalg.batch_matmul
// PIPE:       remark: stark-search:
// PIPE-LABEL: func.func @mlp
// PIPE-NOT:   tosa.
func.func @mlp(%x: tensor<1x64x256xf32>, %w: tensor<1x256x128xf32>) -> tensor<1x64x128xf32> {
  %b = "tosa.const"() <{values = dense<0.25> : tensor<1x1x128xf32>}> : () -> tensor<1x1x128xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %h = tosa.matmul %x, %w, %zp, %zp : (tensor<1x64x256xf32>, tensor<1x256x128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x128xf32>
  %a = tosa.add %h, %b : (tensor<1x64x128xf32>, tensor<1x1x128xf32>) -> tensor<1x64x128xf32>
  %r = tosa.clamp %a {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x64x128xf32>) -> tensor<1x64x128xf32>
  return %r : tensor<1x64x128xf32>
}

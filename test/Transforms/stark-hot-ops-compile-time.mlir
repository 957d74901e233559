// Work on constants alone is compile-time work: never ranked, with a remark
// saying so; the last hot op's remark gives the share the hot ops cover.
// RUN: stark-opt %s --stark-hot-ops="top-k=1 remark-all=1" -o /dev/null 2>&1 | FileCheck %s

// CHECK-DAG: 13:9: remark: not ranked: computed from constants alone
// CHECK-DAG: 17:8: remark: hot op #1: fill + contraction, {{.+}}; hot ops so far cover {{[0-9.]+}}% of the model's estimated time
// CHECK-DAG: 19:9: remark: not ranked: computed from constants alone
// CHECK-DAG: 20:8: remark: op #2 (not hot)
ml_program.global private @w(dense_resource<blob> : tensor<64x32xf32>) : tensor<64x32xf32>
func.func @linear(%x: tensor<16x32xf32>, %y: tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %w = ml_program.global_load_const @w : tensor<64x32xf32>
  %e = tensor.empty() : tensor<32x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.matmul ins(%x, %wt : tensor<16x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  %b = arith.constant dense<0.5> : tensor<64xf32>
  %bb = linalg.broadcast ins(%b : tensor<64xf32>) outs(%e2 : tensor<16x64xf32>) dimensions = [0]
  %s = linalg.add ins(%y, %bb : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r, %s : tensor<16x64xf32>, tensor<16x64xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x04000000"
    }
  }
#-}

// What ML frontends leave at the linalg level parses in stark-opt and prints
// back: torch-mlir's ml_program globals, TOSA, shape, complex, cf.assert,
// bufferization and sparse_tensor.
// RUN: stark-opt %s | stark-opt | FileCheck %s

#sparse = #sparse_tensor.encoding<{map = (d0, d1) -> (d0 : dense, d1 : compressed)}>

// CHECK: ml_program.global private @w(dense<1.000000e+00> : tensor<4x4xf32>)
// CHECK: ml_program.global private mutable @state
ml_program.global private @w(dense<1.0> : tensor<4x4xf32>) : tensor<4x4xf32>
ml_program.global private mutable @state(dense<0.0> : tensor<4xf32>) : tensor<4xf32>

// CHECK-LABEL: func.func @model
func.func @model(%x: tensor<4x4xf32>, %c: complex<f32>,
                 %s: tensor<4x4xf32, #sparse>) -> (tensor<4x4xf32>, index, f32) {
  // CHECK: ml_program.global_load_const @w
  %w = ml_program.global_load_const @w : tensor<4x4xf32>
  // CHECK: ml_program.global_load @state
  %st = ml_program.global_load @state : tensor<4xf32>
  // CHECK: ml_program.global_store @state
  ml_program.global_store @state = %st : tensor<4xf32>
  // CHECK: shape.shape_of
  %shape = shape.shape_of %x : tensor<4x4xf32> -> tensor<2xindex>
  // CHECK: complex.re
  %re = complex.re %c : complex<f32>
  %t = arith.constant true
  // CHECK: cf.assert
  cf.assert %t, "shapes agree"
  // CHECK: tosa.add
  %y = tosa.add %x, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  // CHECK: bufferization.alloc_tensor
  %m = bufferization.alloc_tensor() : tensor<4x4xf32>
  // CHECK: sparse_tensor.number_of_entries
  %n = sparse_tensor.number_of_entries %s : tensor<4x4xf32, #sparse>
  return %y, %n, %re : tensor<4x4xf32>, index, f32
}

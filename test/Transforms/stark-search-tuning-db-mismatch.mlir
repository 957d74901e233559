// A record whose winner cannot stand in for the problem (here: its @kernel
// takes f16 buffers, the problem f32 ones) is an error, never applied.
//
// RUN: sed 's/"KERNEL"/"WRONG"/' %S/Inputs/tuning-db-matmul.json > %t.json
// RUN: %python %S/Inputs/tuning_db.py %t.db %t.json --module-file WRONG=%S/Inputs/tuning-matmul-wrong-type.mlir
// RUN: stark-opt %s --stark-outline=all --stark-search="target=cpu device=cpu:test tuning-db=%t.db progress=0" -verify-diagnostics

func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  // expected-remark @+2 {{outlined as @stark_problem_0}}
  // expected-error @+1 {{on cpu:test cannot be applied: the record's entry type ((memref<16x8xf16>, memref<8x4xf16>, memref<16x4xf16>) -> ()) is not the problem's ((memref<16x8xf32>, memref<8x4xf32>, memref<16x4xf32>) -> ())}}
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x4xf32>)
                     outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

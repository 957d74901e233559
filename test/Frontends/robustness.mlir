// What real exports hold and stark cannot optimise is reported, never a
// crash: dynamic shapes, cf.assert, tensor.extract in a payload (a table
// lookup), complex arithmetic, an op of an unknown dialect. The whole
// pipeline runs, each op it leaves gets a remark saying why, and the output
// verifies (it is parsed again).
// RUN: stark-opt %s --allow-unregistered-dialect --stark-pipeline="target=cpu top-k=5 budget=1 progress=0" -verify-diagnostics -o %t.mlir
// RUN: stark-opt %t.mlir --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @dyn
// CHECK:       linalg.matmul
// CHECK-LABEL: func.func @assert_and_extract
// CHECK:       cf.assert
// CHECK:       tensor.extract
// CHECK-LABEL: func.func @unknown
// CHECK:       "frontend.custom"
func.func @dyn(%x: tensor<?x64xf32>, %w: tensor<64x64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%d) : tensor<?x64xf32>
  // expected-remark @below {{cost unknown: dynamic shape}}
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  // expected-remark @below {{cost unknown: dynamic shape}}
  %y = linalg.matmul ins(%x, %w : tensor<?x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}
func.func @assert_and_extract(%x: tensor<64x64xf32>, %table: tensor<16xf32>, %idx: tensor<64xi32>) -> tensor<64x64xf32> {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<64x64xf32>
  %ok = arith.cmpi eq, %d, %c64 : index
  cf.assert %ok, "batch must be 64"
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-remark @below {{stark-extracts-to-operands: the op keeps its tensor.extract of a tensor from above: index 0 of a tensor.extract is not computed from the loop indices alone: it depends on the op's operands}}
  // expected-remark @below {{cost unknown: body op 'tensor.extract' has no known cost}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %idx : tensor<64x64xf32>, tensor<64xi32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %i: i32, %o: f32):
    %ii = arith.index_cast %i : i32 to index
    %t = tensor.extract %table[%ii] : tensor<16xf32>
    %r = arith.mulf %v, %t : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
func.func @unknown(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-remark @below {{cost unknown: body op 'complex.create' has no known cost}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c = complex.create %v, %v : complex<f32>
    %a = complex.abs %c : complex<f32>
    linalg.yield %a : f32
  } -> tensor<64x64xf32>
  %s = shape.const_shape [64, 64] : tensor<2xindex>
  %r = "frontend.custom"(%y) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

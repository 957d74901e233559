// RUN: stark-opt %s --split-input-file --stark-unit-dim-transposes | FileCheck %s

// V of an attention for a batch of one, as torch-mlir writes it: heads split
// off the projection, moved outward, and the unit batch dropped. The
// transpose ends up on the dimensions that are not 1, right before the
// batch_matmul; the two reshapes merge into one.

// CHECK-LABEL: func.func @v_heads
// CHECK-SAME: (%[[P:.*]]: tensor<512x2048xf16>
// CHECK: %[[R:.*]] = tensor.expand_shape %[[P]] {{\[\[}}0], [1, 2]] output_shape [512, 16, 128] : tensor<512x2048xf16> into tensor<512x16x128xf16>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[R]] : tensor<512x16x128xf16>) outs(%{{.*}} : tensor<16x512x128xf16>) permutation = [1, 0, 2]
// CHECK: linalg.batch_matmul ins(%{{.*}}, %[[T]] :
// CHECK-NOT: tensor.collapse_shape
func.func @v_heads(%p: tensor<512x2048xf16>, %probs: tensor<16x512x512xf16>) -> tensor<16x512x128xf16> {
  %e = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [1, 512, 16, 128] : tensor<512x2048xf16> into tensor<1x512x16x128xf16>
  %init = tensor.empty() : tensor<1x16x512x128xf16>
  %t = linalg.transpose ins(%e : tensor<1x512x16x128xf16>) outs(%init : tensor<1x16x512x128xf16>) permutation = [0, 2, 1, 3]
  %v = tensor.collapse_shape %t [[0, 1], [2], [3]] : tensor<1x16x512x128xf16> into tensor<16x512x128xf16>
  %zero = arith.constant 0.0 : f16
  %oe = tensor.empty() : tensor<16x512x128xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%oe : tensor<16x512x128xf16>) -> tensor<16x512x128xf16>
  %o = linalg.batch_matmul ins(%probs, %v : tensor<16x512x512xf16>, tensor<16x512x128xf16>) outs(%acc : tensor<16x512x128xf16>) -> tensor<16x512x128xf16>
  return %o : tensor<16x512x128xf16>
}

// -----

// The attention output moved back: the transpose reads the batch_matmul's
// result directly, and one reshape joins the heads.

// CHECK-LABEL: func.func @o_heads
// CHECK: %[[O:.*]] = linalg.batch_matmul
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[O]] : tensor<16x512x128xf16>) outs(%{{.*}} : tensor<512x16x128xf16>) permutation = [1, 0, 2]
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[T]] {{\[\[}}0], [1, 2]] : tensor<512x16x128xf16> into tensor<512x2048xf16>
// CHECK: return %[[R]]
func.func @o_heads(%probs: tensor<16x512x512xf16>, %v: tensor<16x512x128xf16>) -> tensor<512x2048xf16> {
  %zero = arith.constant 0.0 : f16
  %oe = tensor.empty() : tensor<16x512x128xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%oe : tensor<16x512x128xf16>) -> tensor<16x512x128xf16>
  %o = linalg.batch_matmul ins(%probs, %v : tensor<16x512x512xf16>, tensor<16x512x128xf16>) outs(%acc : tensor<16x512x128xf16>) -> tensor<16x512x128xf16>
  %e = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 16, 512, 128] : tensor<16x512x128xf16> into tensor<1x16x512x128xf16>
  %init = tensor.empty() : tensor<1x512x16x128xf16>
  %t = linalg.transpose ins(%e : tensor<1x16x512x128xf16>) outs(%init : tensor<1x512x16x128xf16>) permutation = [0, 2, 1, 3]
  %r = tensor.collapse_shape %t [[0, 1], [2, 3]] : tensor<1x512x16x128xf16> into tensor<512x2048xf16>
  return %r : tensor<512x2048xf16>
}

// -----

// Unit dimensions on both sides of a group, and a unit dimension the
// transpose moves to the end.

// CHECK-LABEL: func.func @units_around
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x1x8x1xf32>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2, 3, 4]] : tensor<1x4x1x8x1xf32> into tensor<4x8xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[C]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<8x4xf32>) permutation = [1, 0]
// CHECK: return %[[T]]
func.func @units_around(%x: tensor<1x4x1x8x1xf32>) -> tensor<8x4xf32> {
  %init = tensor.empty() : tensor<1x8x4x1x1xf32>
  %t = linalg.transpose ins(%x : tensor<1x4x1x8x1xf32>) outs(%init : tensor<1x8x4x1x1xf32>) permutation = [0, 3, 1, 2, 4]
  %r = tensor.collapse_shape %t [[0, 1], [2, 3, 4]] : tensor<1x8x4x1x1xf32> into tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// Not moved: the reshape splits a dimension into two that are not 1 (the
// heads out of the hidden size), and a transpose with another user.

// CHECK-LABEL: func.func @real_reshapes
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2, 3]] output_shape [1, 512, 16, 128]
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x512x16x128xf16>) outs(%{{.*}} : tensor<1x16x512x128xf16>) permutation = [0, 2, 1, 3]
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<1x16x512x128xf16> into tensor<16x512x128xf16>
func.func @real_reshapes(%p: tensor<512x2048xf16>) -> (tensor<16x512x128xf16>, tensor<1x16x512x128xf16>) {
  %e = tensor.expand_shape %p [[0, 1], [2, 3]] output_shape [1, 512, 16, 128] : tensor<512x2048xf16> into tensor<1x512x16x128xf16>
  %init = tensor.empty() : tensor<1x16x512x128xf16>
  %t = linalg.transpose ins(%e : tensor<1x512x16x128xf16>) outs(%init : tensor<1x16x512x128xf16>) permutation = [0, 2, 1, 3]
  %v = tensor.collapse_shape %t [[0, 1], [2], [3]] : tensor<1x16x512x128xf16> into tensor<16x512x128xf16>
  return %v, %t : tensor<16x512x128xf16>, tensor<1x16x512x128xf16>
}

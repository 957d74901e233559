// RUN: stark-opt %s --split-input-file --stark-hot-ops="profile=h200 top-k=0 remark-all" -verify-diagnostics | FileCheck %s

// An op computes from constants alone only when every value it reads is
// constant: its operands and the values its body captures from above.
// torch-mlir's AdaptiveAvgPool2d iterates over a kernel-sized tensor.empty
// and reads the pooled tensor with tensor.extract of a value captured from
// above; here that tensor comes from the image, so neither the pool (ranked
// or left uncosted) nor the classifier matmul on a constant weight after it
// computes from constants alone.
// CHECK-LABEL: func.func @adaptive_pool_classifier
// CHECK:       linalg.matmul {stark.cost = #stark.cost<
func.func @adaptive_pool_classifier(%img: tensor<1x8x4x4xf32>) -> tensor<1x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  // expected-remark @+1 {{hot op #}}
  %relu = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%img : tensor<1x8x4x4xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x8x4x4xf32>
  %kernel = tensor.empty() : tensor<2x2xf32>
  %ep = tensor.empty() : tensor<1x8x2x2xf32>
  // expected-remark @+1 {{hot op #}}
  %acc = linalg.fill ins(%zero : f32) outs(%ep : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  // expected-remark-re @+1 {{{{^(cost unknown|hot op #)}}}}
  %pool = linalg.generic {indexing_maps = [affine_map<(n, c, h, w, kh, kw) -> (kh, kw)>, affine_map<(n, c, h, w, kh, kw) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%kernel : tensor<2x2xf32>) outs(%acc : tensor<1x8x2x2xf32>) {
  ^bb0(%unused: f32, %s: f32):
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %w = linalg.index 3 : index
    %kh = linalg.index 4 : index
    %kw = linalg.index 5 : index
    %c2 = arith.constant 2 : index
    %h2 = arith.muli %h, %c2 : index
    %w2 = arith.muli %w, %c2 : index
    %ih = arith.addi %h2, %kh : index
    %iw = arith.addi %w2, %kw : index
    %v = tensor.extract %relu[%n, %c, %ih, %iw] : tensor<1x8x4x4xf32>
    %sum = arith.addf %s, %v : f32
    linalg.yield %sum : f32
  } -> tensor<1x8x2x2xf32>
  %flat = tensor.collapse_shape %pool [[0], [1, 2, 3]] : tensor<1x8x2x2xf32> into tensor<1x32xf32>
  %wt = arith.constant dense<0.5> : tensor<32x16xf32>
  %eo = tensor.empty() : tensor<1x16xf32>
  %out = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x16xf32>) -> tensor<1x16xf32>
  // expected-remark @+1 {{: fill + contraction}}
  %y = linalg.matmul ins(%flat, %wt : tensor<1x32xf32>, tensor<32x16xf32>) outs(%out : tensor<1x16xf32>) -> tensor<1x16xf32>
  return %y : tensor<1x16xf32>
}

// -----

// The control: the pooled tensor is a constant, so the pool computes from
// constants alone, and so do the matmul of its result by a constant and the
// fills they own.
// CHECK-LABEL: func.func @adaptive_pool_of_constant
// CHECK-NOT:   stark.cost
// CHECK:       linalg.add {stark.cost = #stark.cost<
func.func @adaptive_pool_of_constant(%x: tensor<1x32xf32>) -> (tensor<1x16xf32>, tensor<1x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %feat = arith.constant dense<1.5> : tensor<1x8x4x4xf32>
  %kernel = tensor.empty() : tensor<2x2xf32>
  %ep = tensor.empty() : tensor<1x8x2x2xf32>
  // expected-remark @+1 {{not ranked: computed from constants alone}}
  %acc = linalg.fill ins(%zero : f32) outs(%ep : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  // expected-remark @+1 {{not ranked: computed from constants alone}}
  %pool = linalg.generic {indexing_maps = [affine_map<(n, c, h, w, kh, kw) -> (kh, kw)>, affine_map<(n, c, h, w, kh, kw) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%kernel : tensor<2x2xf32>) outs(%acc : tensor<1x8x2x2xf32>) {
  ^bb0(%unused: f32, %s: f32):
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %w = linalg.index 3 : index
    %kh = linalg.index 4 : index
    %kw = linalg.index 5 : index
    %c2 = arith.constant 2 : index
    %h2 = arith.muli %h, %c2 : index
    %w2 = arith.muli %w, %c2 : index
    %ih = arith.addi %h2, %kh : index
    %iw = arith.addi %w2, %kw : index
    %v = tensor.extract %feat[%n, %c, %ih, %iw] : tensor<1x8x4x4xf32>
    %sum = arith.addf %s, %v : f32
    linalg.yield %sum : f32
  } -> tensor<1x8x2x2xf32>
  %flat = tensor.collapse_shape %pool [[0], [1, 2, 3]] : tensor<1x8x2x2xf32> into tensor<1x32xf32>
  %wt = arith.constant dense<0.5> : tensor<32x16xf32>
  %eo = tensor.empty() : tensor<1x16xf32>
  // expected-remark @+1 {{not ranked: computed from constants alone}}
  %out = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x16xf32>) -> tensor<1x16xf32>
  // expected-remark @+1 {{not ranked: computed from constants alone}}
  %y = linalg.matmul ins(%flat, %wt : tensor<1x32xf32>, tensor<32x16xf32>) outs(%out : tensor<1x16xf32>) -> tensor<1x16xf32>
  // Ranked, so the control has an op that is not constant.
  // expected-remark @+1 {{hot op #1}}
  %r = linalg.add ins(%x, %flat : tensor<1x32xf32>, tensor<1x32xf32>) outs(%x : tensor<1x32xf32>) -> tensor<1x32xf32>
  return %y, %r : tensor<1x16xf32>, tensor<1x32xf32>
}

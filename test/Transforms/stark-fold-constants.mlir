// RUN: stark-opt %s --split-input-file --stark-fold-constants | FileCheck %s
// RUN: stark-opt %s --split-input-file --stark-fold-constants="max-fold-bytes=0" | FileCheck %s --check-prefix=NOBIG

// A weight transpose of torch-mlir's nn.Linear: the global becomes a
// constant, the transpose the transposed constant, the global goes.
// CHECK-NOT:   ml_program.global
// CHECK-LABEL: func.func @linear
// CHECK-DAG:   %[[WT:.+]] = arith.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK-NOT:   linalg.transpose
// CHECK:       linalg.matmul ins(%{{.+}}, %[[WT]] :
// Without room for a new constant, only the load is folded.
// NOBIG-LABEL: func.func @linear
// NOBIG:       linalg.transpose
ml_program.global private @w(dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
func.func @linear(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %w = ml_program.global_load_const @w : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %wt = linalg.transpose ins(%w : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<4x3xf32>, tensor<3x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// A broadcast of a non-splat bias (TOSA's rank-1 to rank-2) moves its
// elements; the reshape of a constant folds through tensor's folder.
// CHECK-LABEL: func.func @bias
// CHECK:       %[[B:.+]] = arith.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [1.000000e+00, 2.000000e+00], [1.000000e+00, 2.000000e+00]]> : tensor<3x2xf32>
// CHECK-NOT:   linalg.generic
// CHECK-NOT:   tensor.expand_shape
// CHECK:       return %[[B]]
func.func @bias() -> tensor<3x2xf32> {
  %b = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b2 = tensor.expand_shape %b [[0, 1]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%b2 : tensor<1x2xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----

// Element-wise work on splats is one splat: exp(2 * 0.5) everywhere.
// CHECK-LABEL: func.func @splat
// CHECK:       %[[C:.+]] = arith.constant dense<2.71828175> : tensor<4x3xf32>
// CHECK-NOT:   linalg.
// CHECK:       return %[[C]]
func.func @splat() -> tensor<4x3xf32> {
  %b = arith.constant dense<0.5> : tensor<3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %bb = linalg.broadcast ins(%b : tensor<3xf32>) outs(%e : tensor<4x3xf32>) dimensions = [0]
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%bb : tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %two : f32
    %x = math.exp %m : f32
    linalg.yield %x : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// What the program reads at run time stays: an extern global, a mutable
// one, a block argument, and the fill a contraction owns.
// CHECK-LABEL: ml_program.global private @ext
// CHECK:       ml_program.global private mutable @state
// CHECK-LABEL: func.func @runtime
// CHECK:       ml_program.global_load_const @ext
// CHECK:       linalg.transpose
// CHECK:       ml_program.global_load @state
// CHECK:       linalg.transpose
// CHECK:       linalg.fill
ml_program.global private @ext(#ml_program.extern : tensor<2x3xf32>) : tensor<2x3xf32>
ml_program.global private mutable @state(dense<1.0> : tensor<2x3xf32>) : tensor<2x3xf32>
func.func @runtime() -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>) {
  %a = ml_program.global_load_const @ext : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %at = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %s = ml_program.global_load @state : tensor<2x3xf32>
  %st = linalg.transpose ins(%s : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %at, %st, %f : tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>
}

// -----

// A payload reads what it captures from above too: the pool reads the
// image through tensor.extract and the scale multiplies a splat by a value
// extracted from an argument. Neither computes from constants alone, so
// both stay, and so does the matmul of the pool by a constant weight.
// CHECK-LABEL: func.func @captured
// CHECK:       %[[POOL:.+]] = linalg.generic
// CHECK:       tensor.extract %{{.+}}[
// CHECK:       linalg.matmul ins(%{{.+}}, %{{.+}} :
// CHECK:       %[[SCALE:.+]] = linalg.generic
// CHECK:       tensor.extract %{{.+}}[
// CHECK:       return %{{.+}}, %[[SCALE]]
func.func @captured(%img: tensor<1x8x2x2xf32>, %s: tensor<3xf32>) -> (tensor<1x16xf32>, tensor<4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %kernel = tensor.empty() : tensor<1x1xf32>
  %ep = tensor.empty() : tensor<1x8x2x2xf32>
  %pool = linalg.generic {indexing_maps = [affine_map<(n, c, h, w, kh, kw) -> (kh, kw)>, affine_map<(n, c, h, w, kh, kw) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%kernel : tensor<1x1xf32>) outs(%ep : tensor<1x8x2x2xf32>) {
  ^bb0(%unused: f32, %acc: f32):
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %w = linalg.index 3 : index
    %v = tensor.extract %img[%n, %c, %h, %w] : tensor<1x8x2x2xf32>
    linalg.yield %v : f32
  } -> tensor<1x8x2x2xf32>
  %flat = tensor.collapse_shape %pool [[0], [1, 2, 3]] : tensor<1x8x2x2xf32> into tensor<1x32xf32>
  %wt = arith.constant dense<0.5> : tensor<32x16xf32>
  %eo = tensor.empty() : tensor<1x16xf32>
  %out = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x16xf32>) -> tensor<1x16xf32>
  %y = linalg.matmul ins(%flat, %wt : tensor<1x32xf32>, tensor<32x16xf32>) outs(%out : tensor<1x16xf32>) -> tensor<1x16xf32>
  %ones = arith.constant dense<1.0> : tensor<4x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %c1 = arith.constant 1 : index
  %scale = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
      ins(%ones : tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    %k = tensor.extract %s[%c1] : tensor<3xf32>
    %m = arith.mulf %in, %k : f32
    linalg.yield %m : f32
  } -> tensor<4x3xf32>
  return %y, %scale : tensor<1x16xf32>, tensor<4x3xf32>
}

// -----

// The control: the scale's captured tensor is a constant, and it folds.
// CHECK-LABEL: func.func @captured_constant
// CHECK:       %[[C:.+]] = arith.constant dense<2.500000e+00> : tensor<4x3xf32>
// CHECK-NOT:   linalg.generic
// CHECK:       return %[[C]]
func.func @captured_constant() -> tensor<4x3xf32> {
  %s = arith.constant dense<2.5> : tensor<3xf32>
  %ones = arith.constant dense<1.0> : tensor<4x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %c1 = arith.constant 1 : index
  %scale = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
      ins(%ones : tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    %k = tensor.extract %s[%c1] : tensor<3xf32>
    %m = arith.mulf %in, %k : f32
    linalg.yield %m : f32
  } -> tensor<4x3xf32>
  return %scale : tensor<4x3xf32>
}

// RUN: stark-opt %s --split-input-file --stark-extracts-to-operands -verify-diagnostics | FileCheck %s

// Adaptive average pooling as torch-mlir writes it: a generic over the
// output and the window whose body extracts from the captured input at
// computed indices. Where every index is an affine function of the loops,
// the read becomes an operand and the body a plain sum.

// 8 x 8 pooled to 1 x 1 (MobileNet's squeeze-excite): the window input
// goes, the input is read at (n, c, k2, k3), the mask select folds.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @pool_to_one
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x8x8xf32>)
// CHECK: %[[ACC:.*]] = linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[X]] : tensor<1x4x8x8xf32>) outs(%[[ACC]] : tensor<1x4x1x1xf32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[O]], %[[V]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @pool_to_one(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x1x1xf32> {
  %win = tensor.empty() : tensor<8x8xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x4x1x1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %k0c = arith.constant 0 : index
  %k1c = arith.constant 1 : index
  %k7c = arith.constant 7 : index
  %k8c = arith.constant 8 : index
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%win : tensor<8x8xf32>) outs(%acc : tensor<1x4x1x1xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %one = arith.constant 1 : index
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %o2 = linalg.index 2 : index
    %o3 = linalg.index 3 : index
    %k2 = linalg.index 4 : index
    %k3 = linalg.index 5 : index
    %st2 = arith.muli %o2, %k8c : index
    %s2 = arith.divui %st2, %k1c : index
    %i2 = arith.addi %s2, %k2 : index
    %ob2 = arith.addi %o2, %one : index
    %en2 = arith.muli %ob2, %k8c : index
    %enr2 = arith.addi %en2, %k0c : index
    %e2 = arith.divui %enr2, %k1c : index
    %in2ok = arith.cmpi ult, %i2, %e2 : index
    %ic2 = arith.minui %i2, %k7c : index
    %st3 = arith.muli %o3, %k8c : index
    %s3 = arith.divui %st3, %k1c : index
    %i3 = arith.addi %s3, %k3 : index
    %ob3 = arith.addi %o3, %one : index
    %en3 = arith.muli %ob3, %k8c : index
    %enr3 = arith.addi %en3, %k0c : index
    %e3 = arith.divui %enr3, %k1c : index
    %in3ok = arith.cmpi ult, %i3, %e3 : index
    %ic3 = arith.minui %i3, %k7c : index
    %v = tensor.extract %x[%n, %c, %ic2, %ic3] : tensor<1x4x8x8xf32>
    %ok = arith.andi %in2ok, %in3ok : i1
    %z = arith.select %ok, %v, %zero : f32
    %r = arith.addf %out, %z : f32
    linalg.yield %r : f32
  } -> tensor<1x4x1x1xf32>
  return %sum : tensor<1x4x1x1xf32>
}

// -----

// 7 x 7 pooled to 7 x 7 (VGG-16 and ResNet-18 at 224): a window of one,
// the read is the identity; the window input stays, the only operand that
// gives the two window loops their extent.
// CHECK-DAG: #[[$WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @pool_same_size
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x7x7xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$WIN]], #[[$ID]], #[[$ID]]]
// CHECK-SAME: ins(%{{.*}}, %[[X]] : tensor<1x1xf32>, tensor<1x4x7x7xf32>)
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %[[V:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[O]], %[[V]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @pool_same_size(%x: tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32> {
  %win = tensor.empty() : tensor<1x1xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x4x7x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  %k6c = arith.constant 6 : index
  %k7c = arith.constant 7 : index
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%win : tensor<1x1xf32>) outs(%acc : tensor<1x4x7x7xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %one = arith.constant 1 : index
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %o2 = linalg.index 2 : index
    %o3 = linalg.index 3 : index
    %k2 = linalg.index 4 : index
    %k3 = linalg.index 5 : index
    %st2 = arith.muli %o2, %k7c : index
    %s2 = arith.divui %st2, %k7c : index
    %i2 = arith.addi %s2, %k2 : index
    %ob2 = arith.addi %o2, %one : index
    %en2 = arith.muli %ob2, %k7c : index
    %enr2 = arith.addi %en2, %k6c : index
    %e2 = arith.divui %enr2, %k7c : index
    %in2ok = arith.cmpi ult, %i2, %e2 : index
    %ic2 = arith.minui %i2, %k6c : index
    %st3 = arith.muli %o3, %k7c : index
    %s3 = arith.divui %st3, %k7c : index
    %i3 = arith.addi %s3, %k3 : index
    %ob3 = arith.addi %o3, %one : index
    %en3 = arith.muli %ob3, %k7c : index
    %enr3 = arith.addi %en3, %k6c : index
    %e3 = arith.divui %enr3, %k7c : index
    %in3ok = arith.cmpi ult, %i3, %e3 : index
    %ic3 = arith.minui %i3, %k6c : index
    %v = tensor.extract %x[%n, %c, %ic2, %ic3] : tensor<1x4x7x7xf32>
    %ok = arith.andi %in2ok, %in3ok : i1
    %z = arith.select %ok, %v, %zero : f32
    %r = arith.addf %out, %z : f32
    linalg.yield %r : f32
  } -> tensor<1x4x7x7xf32>
  return %sum : tensor<1x4x7x7xf32>
}

// -----

// 8 x 8 pooled to 4 x 4, batch 2: windows of 2 at stride 2, the read is
// (n, c, 2 * o2 + k2, 2 * o3 + k3).
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[$WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-LABEL: func.func @pool_halves
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x8x8xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$WIN]], #[[$IN]], #{{.*}}]
// CHECK-SAME: ins(%{{.*}}, %[[X]] : tensor<2x2xf32>, tensor<2x3x8x8xf32>)
// CHECK-NOT: tensor.extract
// CHECK: return
func.func @pool_halves(%x: tensor<2x3x8x8xf32>) -> tensor<2x3x4x4xf32> {
  %win = tensor.empty() : tensor<2x2xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<2x3x4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
  %k3c = arith.constant 3 : index
  %k4c = arith.constant 4 : index
  %k7c = arith.constant 7 : index
  %k8c = arith.constant 8 : index
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%win : tensor<2x2xf32>) outs(%acc : tensor<2x3x4x4xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %one = arith.constant 1 : index
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %o2 = linalg.index 2 : index
    %o3 = linalg.index 3 : index
    %k2 = linalg.index 4 : index
    %k3 = linalg.index 5 : index
    %st2 = arith.muli %o2, %k8c : index
    %s2 = arith.divui %st2, %k4c : index
    %i2 = arith.addi %s2, %k2 : index
    %ob2 = arith.addi %o2, %one : index
    %en2 = arith.muli %ob2, %k8c : index
    %enr2 = arith.addi %en2, %k3c : index
    %e2 = arith.divui %enr2, %k4c : index
    %in2ok = arith.cmpi ult, %i2, %e2 : index
    %ic2 = arith.minui %i2, %k7c : index
    %st3 = arith.muli %o3, %k8c : index
    %s3 = arith.divui %st3, %k4c : index
    %i3 = arith.addi %s3, %k3 : index
    %ob3 = arith.addi %o3, %one : index
    %en3 = arith.muli %ob3, %k8c : index
    %enr3 = arith.addi %en3, %k3c : index
    %e3 = arith.divui %enr3, %k4c : index
    %in3ok = arith.cmpi ult, %i3, %e3 : index
    %ic3 = arith.minui %i3, %k7c : index
    %v = tensor.extract %x[%n, %c, %ic2, %ic3] : tensor<2x3x8x8xf32>
    %ok = arith.andi %in2ok, %in3ok : i1
    %z = arith.select %ok, %v, %zero : f32
    %r = arith.addf %out, %z : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4x4xf32>
  return %sum : tensor<2x3x4x4xf32>
}

// -----

// 5 x 5 pooled to 3 x 3: the windows [0, 2), [1, 4), [3, 5) overlap and
// differ in size; the index is not affine and the op stays as it is.
// CHECK-LABEL: func.func @pool_uneven
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x2x5x5xf32>
func.func @pool_uneven(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %win = tensor.empty() : tensor<3x3xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %k2c = arith.constant 2 : index
  %k3c = arith.constant 3 : index
  %k4c = arith.constant 4 : index
  %k5c = arith.constant 5 : index
  // expected-remark @+1 {{stark-extracts-to-operands: the op keeps its tensor.extract of a tensor from above: index 3 of a tensor.extract is not an affine function of the loop indices}}
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%win : tensor<3x3xf32>) outs(%acc : tensor<1x2x3x3xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %one = arith.constant 1 : index
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %o2 = linalg.index 2 : index
    %o3 = linalg.index 3 : index
    %k2 = linalg.index 4 : index
    %k3 = linalg.index 5 : index
    %st2 = arith.muli %o2, %k5c : index
    %s2 = arith.divui %st2, %k3c : index
    %i2 = arith.addi %s2, %k2 : index
    %ob2 = arith.addi %o2, %one : index
    %en2 = arith.muli %ob2, %k5c : index
    %enr2 = arith.addi %en2, %k2c : index
    %e2 = arith.divui %enr2, %k3c : index
    %in2ok = arith.cmpi ult, %i2, %e2 : index
    %ic2 = arith.minui %i2, %k4c : index
    %st3 = arith.muli %o3, %k5c : index
    %s3 = arith.divui %st3, %k3c : index
    %i3 = arith.addi %s3, %k3 : index
    %ob3 = arith.addi %o3, %one : index
    %en3 = arith.muli %ob3, %k5c : index
    %enr3 = arith.addi %en3, %k2c : index
    %e3 = arith.divui %enr3, %k3c : index
    %in3ok = arith.cmpi ult, %i3, %e3 : index
    %ic3 = arith.minui %i3, %k4c : index
    %v = tensor.extract %x[%n, %c, %ic2, %ic3] : tensor<1x2x5x5xf32>
    %ok = arith.andi %in2ok, %in3ok : i1
    %z = arith.select %ok, %v, %zero : f32
    %r = arith.addf %out, %z : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  return %sum : tensor<1x2x3x3xf32>
}

// -----

// An embedding gather: the row comes from the data. Left as it is.
// CHECK-LABEL: func.func @gather
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<16x8xf32>
func.func @gather(%ids: tensor<4xi64>, %table: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @+1 {{stark-extracts-to-operands: the op keeps its tensor.extract of a tensor from above: index 0 of a tensor.extract is not computed from the loop indices alone: it depends on the op's operands}}
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<4xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%id: i64, %out: f32):
    %row = arith.index_cast %id : i64 to index
    %d = linalg.index 1 : index
    %v = tensor.extract %table[%row, %d] : tensor<16x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

// A transposed read: x[d1, d0] of a 3 x 5 tensor over loops of 5 x 3, and a
// reversed one, x[d1, 4 - d0]; both become operands.
// CHECK-DAG: #[[$T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[$REV:.*]] = affine_map<(d0, d1) -> (d1, -d0 + 4)>
// CHECK-LABEL: func.func @permuted
// CHECK-SAME: (%[[X:.*]]: tensor<3x5xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$T]], #[[$REV]], #{{.*}}]
// CHECK-SAME: ins(%[[X]], %[[X]] : tensor<3x5xf32>, tensor<3x5xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[S:.*]] = arith.subf %[[A]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
func.func @permuted(%x: tensor<3x5xf32>) -> tensor<5x3xf32> {
  %e = tensor.empty() : tensor<5x3xf32>
  %c4 = arith.constant 4 : index
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<5x3xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %r = arith.subi %c4, %i : index
    %a = tensor.extract %x[%j, %i] : tensor<3x5xf32>
    %b = tensor.extract %x[%j, %r] : tensor<3x5xf32>
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<5x3xf32>
  return %g : tensor<5x3xf32>
}

// -----

// A read one past the end at the last point: not rewritten.
// CHECK-LABEL: func.func @past_the_end
// CHECK: tensor.extract
func.func @past_the_end(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %c1 = arith.constant 1 : index
  // expected-remark @+1 {{index 0 of a tensor.extract leaves the tensor at some point}}
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e : tensor<4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %n = arith.addi %i, %c1 : index
    %v = tensor.extract %x[%n] : tensor<4xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// The batch index of a batch of one, folded to a constant 0 (as
// canonicalisation leaves `linalg.index 0` of a unit loop): the read keeps
// the unit loop, so the map stays a projected permutation.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5)>
// CHECK-LABEL: func.func @batch_index_folded
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #{{.*}}]
func.func @batch_index_folded(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x1x1xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %win = tensor.empty() : tensor<8x8xf32>
  %e = tensor.empty() : tensor<1x4x1x1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%win : tensor<8x8xf32>) outs(%acc : tensor<1x4x1x1xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %c = linalg.index 1 : index
    %k2 = linalg.index 4 : index
    %k3 = linalg.index 5 : index
    %v = tensor.extract %x[%c0, %c, %k2, %k3] : tensor<1x4x8x8xf32>
    %r = arith.addf %out, %v : f32
    linalg.yield %r : f32
  } -> tensor<1x4x1x1xf32>
  return %sum : tensor<1x4x1x1xf32>
}

// RUN: stark-opt %s --split-input-file --stark-outline=all -verify-diagnostics | FileCheck %s
// RUN: stark-opt %s --split-input-file --stark-outline="all fuse-epilogues=false" 2>/dev/null | FileCheck %s --check-prefix=NOEPI

// Operand prologues: the element-wise chain that computes an operand of a
// contraction (and nothing else) is fused with it, grown from either op:
// relu(x * scale) as A is one problem with the matmul and its fill; the
// computed operand is a temporary of the problem. With fuse-epilogues=false
// (no head, so no prologue either) they are two problems.
// CHECK-LABEL: func.func @scale_relu_matmul
// CHECK: linalg.generic {{.*}}stark.problem = @stark_problem_0
// CHECK: linalg.fill {stark.problem = @stark_problem_0}
// CHECK: linalg.matmul {stark.problem = @stark_problem_0}
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.generic,linalg.matmul)", shapes = "64x48xf32,48xf32,48x32xf32->64x32xf32"
// CHECK-NEXT: func.func @kernel(%[[X:.+]]: memref<64x48xf32>, %[[S:.+]]: memref<48xf32>, %[[W:.+]]: memref<48x32xf32>, %[[OUT:.+]]: memref<64x32xf32>)
// CHECK: %[[A:.+]] = memref.alloc() : memref<64x48xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[X]], %[[S]] : memref<64x48xf32>, memref<48xf32>) outs(%[[A]] : memref<64x48xf32>)
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[OUT]] : memref<64x32xf32>)
// CHECK-NEXT: linalg.matmul ins(%[[A]], %[[W]] : memref<64x48xf32>, memref<48x32xf32>) outs(%[[OUT]] : memref<64x32xf32>)
// CHECK-NOT: module @stark_problem_1
// NOEPI-LABEL: func.func @scale_relu_matmul
// NOEPI: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic"
// NOEPI: module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.matmul"
func.func @scale_relu_matmul(%x: tensor<64x48xf32>, %s: tensor<48xf32>, %w: tensor<48x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x48xf32>, tensor<48xf32>) outs(%e : tensor<64x48xf32>) {
  ^bb0(%v: f32, %k: f32, %o: f32):
    %p = arith.mulf %v, %k : f32
    %r = arith.maximumf %p, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x48xf32>
  %c0 = tensor.empty() : tensor<64x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%c0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  // expected-remark @+1 {{outlined with 1 producer/consumer op(s) as @stark_problem_0 (fused(linalg.generic,linalg.matmul) 64x48xf32,48xf32,48x32xf32->64x32xf32}}
  %y = linalg.matmul ins(%a, %w : tensor<64x48xf32>, tensor<48x32xf32>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}

// -----

// Both ends at once: an f16 weight widened and scaled per column (B's
// prologue), the matmul and a bias (its epilogue) are one problem.
// CHECK-LABEL: func.func @dequant_matmul_bias
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.generic,linalg.matmul,linalg.generic)", shapes = "72x130xf16,130xf32,100x72xf32,130xf32->100x130xf32"
// CHECK-NOT: module @stark_problem_1
func.func @dequant_matmul_bias(%x: tensor<100x72xf32>, %w: tensor<72x130xf16>, %s: tensor<130xf32>, %bias: tensor<130xf32>) -> tensor<100x130xf32> {
  %zero = arith.constant 0.0 : f32
  %eb = tensor.empty() : tensor<72x130xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %s : tensor<72x130xf16>, tensor<130xf32>) outs(%eb : tensor<72x130xf32>) {
  ^bb0(%v: f16, %k: f32, %o: f32):
    %f = arith.extf %v : f16 to f32
    %p = arith.mulf %f, %k : f32
    linalg.yield %p : f32
  } -> tensor<72x130xf32>
  %e = tensor.empty() : tensor<100x130xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<100x130xf32>) -> tensor<100x130xf32>
  // expected-remark @+1 {{outlined with 2 producer/consumer op(s) as @stark_problem_0 (fused(linalg.generic,linalg.matmul,linalg.generic) 72x130xf16,130xf32,100x72xf32,130xf32->100x130xf32}}
  %mm = linalg.matmul ins(%x, %b : tensor<100x72xf32>, tensor<72x130xf32>) outs(%c : tensor<100x130xf32>) -> tensor<100x130xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<100x130xf32>, tensor<130xf32>) outs(%e : tensor<100x130xf32>) {
  ^bb0(%v: f32, %t: f32, %o: f32):
    %z = arith.addf %v, %t : f32
    linalg.yield %z : f32
  } -> tensor<100x130xf32>
  return %y : tensor<100x130xf32>
}

// -----

// No prologue where the computed operand is also used elsewhere (it must
// be written anyway), or where the chain is another contraction's
// epilogue: relu(x @ w1) feeds the second matmul but stays the first's
// epilogue.
// CHECK-LABEL: func.func @operand_escapes
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.matmul"
// CHECK: module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic"
func.func @operand_escapes(%x: tensor<16x8xf32>, %w: tensor<8x4xf32>) -> (tensor<16x8xf32>, tensor<16x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  // expected-remark @+1 {{outlined as @stark_problem_1 (linalg.generic}}
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  %c0 = tensor.empty() : tensor<16x4xf32>
  %c = linalg.fill ins(%zero : f32) outs(%c0 : tensor<16x4xf32>) -> tensor<16x4xf32>
  // expected-remark @+1 {{outlined with the fill of its output as @stark_problem_0 (linalg.fill + linalg.matmul}}
  %y = linalg.matmul ins(%a, %w : tensor<16x8xf32>, tensor<8x4xf32>) outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %a, %y : tensor<16x8xf32>, tensor<16x4xf32>
}

// -----

// CHECK-LABEL: func.func @epilogue_not_prologue
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.matmul,linalg.generic)", shapes = "16x8xf32,8x8xf32->16x8xf32"
// CHECK: module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.matmul"
// CHECK-NOT: module @stark_problem_2
func.func @epilogue_not_prologue(%x: tensor<16x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x4xf32>) -> tensor<16x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %c1 = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark @+1 {{outlined with 1 producer/consumer op(s) as @stark_problem_0 (fused(linalg.matmul,linalg.generic)}}
  %h = linalg.matmul ins(%x, %w1 : tensor<16x8xf32>, tensor<8x8xf32>) outs(%c1 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  %c0 = tensor.empty() : tensor<16x4xf32>
  %c = linalg.fill ins(%zero : f32) outs(%c0 : tensor<16x4xf32>) -> tensor<16x4xf32>
  // expected-remark @+1 {{outlined with the fill of its output as @stark_problem_1 (linalg.fill + linalg.matmul}}
  %y = linalg.matmul ins(%a, %w2 : tensor<16x8xf32>, tensor<8x4xf32>) outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}

// -----

// A prologue no GEMM kernel takes (it reads a loop index) is left out:
// the matmul keeps its epilogue, the prologue is a problem of its own.
// CHECK-LABEL: func.func @prologue_declined
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.matmul,linalg.generic)"
// CHECK: module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic"
func.func @prologue_declined(%x: tensor<16x8xf32>, %w: tensor<8x4xf32>) -> tensor<16x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  // expected-remark @+1 {{outlined as @stark_problem_1 (linalg.generic}}
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %r = arith.mulf %v, %f : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  %c0 = tensor.empty() : tensor<16x4xf32>
  %c = linalg.fill ins(%zero : f32) outs(%c0 : tensor<16x4xf32>) -> tensor<16x4xf32>
  // expected-remark @+2 {{not fused with the element-wise ops computing its operands: contraction epilogue: the ops computing an operand read a loop index or a reduction}}
  // expected-remark @+1 {{outlined with 1 producer/consumer op(s) as @stark_problem_0 (fused(linalg.matmul,linalg.generic)}}
  %y = linalg.matmul ins(%a, %w : tensor<16x8xf32>, tensor<8x4xf32>) outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<16x4xf32>) outs(%c0 : tensor<16x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  } -> tensor<16x4xf32>
  return %t : tensor<16x4xf32>
}

// RUN: stark-opt %s --split-input-file --stark-outline=all 2>&1 | FileCheck %s
// RUN: stark-opt %s --split-input-file --stark-outline="all fuse-attention=false" 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: stark-opt %s --split-input-file --stark-outline="all profile=h200" 2>&1 | FileCheck %s --check-prefix=GPU

// Attention is one problem: the contraction Q K^T, the ops on the scores
// (scale, mask, softmax written out or linalg.softmax) and the contraction
// with V, where the problem reads as attention. With fuse-attention=false
// the chain is grouped as any other: Q K^T with the scale as its epilogue,
// the softmax rows, and P V with its fill. On a GPU profile the chain is
// one problem only where the attention family takes it (f32 of any shape
// here; not bf16 at head dim 8, causal or not, nor f16 at head dim 4), else
// it is grouped as any other, with a remark.
// GPU: remark: outlined with 5 producer/consumer op(s) as @stark_problem_0 (fused(linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.batch_matmul)
// GPU: remark: not fused as attention: no kernel takes it: the tensor-core kernel takes head dims 64 and 128
// GPU: remark: not fused as attention: no kernel takes it: the tensor-core kernel takes head dims 64 and 128

// CHECK: remark: outlined with 5 producer/consumer op(s) as @stark_problem_0 (fused(linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.batch_matmul) 2x8x4xf32,2x8x4xf32,2x8x4xf32->2x8x4xf32
// CHECK-NOT: remark: outlined
// CHECK: func.func @attention_decomposed
// CHECK: module @stark_problem_0
// CHECK-NOT: module @stark_problem_1
// OFF-NOT: fused(linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.batch_matmul)
// OFF: func.func @attention_decomposed
// OFF: module @stark_problem_0
// OFF: module @stark_problem_1
func.func @attention_decomposed(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %s0 = tensor.empty() : tensor<2x8x8xf32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%s1 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %t0 = tensor.empty() : tensor<2x8x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x8x8xf32>) outs(%t0 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.5 : f32
    %r = arith.mulf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %m0 = tensor.empty() : tensor<2x8xf32>
  %m1 = linalg.fill ins(%ninf : f32) outs(%m0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%t : tensor<2x8x8xf32>) outs(%m1 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  %z0 = tensor.empty() : tensor<2x8xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%z0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%t, %mx : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%z1 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    %r = arith.addf %e, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  %p0 = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t, %mx, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) outs(%p0 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %z: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    %r = arith.divf %e, %z : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x8x4xf32>
  %o1 = linalg.fill ins(%zero : f32) outs(%o0 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%o1 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %out : tensor<2x8x4xf32>
}

// -----

// torch-mlir's form of a causal decoder's attention: K transposed by
// linalg.transpose (in the problem, read through its permutation), the
// causal mask a select on linalg.index, exp written to a tensor of its own.
// CHECK: remark: outlined with 8 producer/consumer op(s) as @stark_problem_0 (fused(linalg.transpose,linalg.batch_matmul,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.batch_matmul) 4x16x8xbf16,4x16x8xbf16,4x16x8xbf16->4x16x8xbf16
// CHECK: func.func @attention_causal
// CHECK: module @stark_problem_0
// CHECK-NOT: module @stark_problem_1
func.func @attention_causal(%q: tensor<4x16x8xbf16>, %k: tensor<4x16x8xbf16>, %v: tensor<4x16x8xbf16>) -> tensor<4x16x8xbf16> {
  %zero = arith.constant 0.0 : bf16
  %ninf = arith.constant 0xFF80 : bf16
  %kt0 = tensor.empty() : tensor<4x8x16xbf16>
  %kt = linalg.transpose ins(%k : tensor<4x16x8xbf16>) outs(%kt0 : tensor<4x8x16xbf16>) permutation = [0, 2, 1]
  %s0 = tensor.empty() : tensor<4x16x16xbf16>
  %s1 = linalg.fill ins(%zero : bf16) outs(%s0 : tensor<4x16x16xbf16>) -> tensor<4x16x16xbf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xbf16>, tensor<4x8x16xbf16>) outs(%s1 : tensor<4x16x16xbf16>) -> tensor<4x16x16xbf16>
  %t0 = tensor.empty() : tensor<4x16x16xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x16xbf16>) outs(%t0 : tensor<4x16x16xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %c = arith.constant 8.0 : bf16
    %r = arith.divf %a, %c : bf16
    linalg.yield %r : bf16
  } -> tensor<4x16x16xbf16>
  %u0 = tensor.empty() : tensor<4x16x16xbf16>
  %u = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t : tensor<4x16x16xbf16>) outs(%u0 : tensor<4x16x16xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %up = arith.cmpi ugt, %j, %i : index
    %m = arith.select %up, %ninf, %zero : bf16
    %r = arith.addf %a, %m : bf16
    linalg.yield %r : bf16
  } -> tensor<4x16x16xbf16>
  %m0 = tensor.empty() : tensor<4x16xbf16>
  %m1 = linalg.fill ins(%ninf : bf16) outs(%m0 : tensor<4x16xbf16>) -> tensor<4x16xbf16>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%u : tensor<4x16x16xbf16>) outs(%m1 : tensor<4x16xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %r = arith.maximumf %a, %o : bf16
    linalg.yield %r : bf16
  } -> tensor<4x16xbf16>
  %e0 = tensor.empty() : tensor<4x16x16xbf16>
  %e = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%u, %mx : tensor<4x16x16xbf16>, tensor<4x16xbf16>) outs(%e0 : tensor<4x16x16xbf16>) {
  ^bb0(%a: bf16, %m: bf16, %o: bf16):
    %d = arith.subf %a, %m : bf16
    %r = math.exp %d : bf16
    linalg.yield %r : bf16
  } -> tensor<4x16x16xbf16>
  %z0 = tensor.empty() : tensor<4x16xbf16>
  %z1 = linalg.fill ins(%zero : bf16) outs(%z0 : tensor<4x16xbf16>) -> tensor<4x16xbf16>
  %sum = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<4x16x16xbf16>) outs(%z1 : tensor<4x16xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %r = arith.addf %a, %o : bf16
    linalg.yield %r : bf16
  } -> tensor<4x16xbf16>
  %p0 = tensor.empty() : tensor<4x16x16xbf16>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %sum : tensor<4x16x16xbf16>, tensor<4x16xbf16>) outs(%p0 : tensor<4x16x16xbf16>) {
  ^bb0(%a: bf16, %z: bf16, %o: bf16):
    %r = arith.divf %a, %z : bf16
    linalg.yield %r : bf16
  } -> tensor<4x16x16xbf16>
  %o0 = tensor.empty() : tensor<4x16x8xbf16>
  %o1 = linalg.fill ins(%zero : bf16) outs(%o0 : tensor<4x16x8xbf16>) -> tensor<4x16x8xbf16>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xbf16>, tensor<4x16x8xbf16>) outs(%o1 : tensor<4x16x8xbf16>) -> tensor<4x16x8xbf16>
  return %out : tensor<4x16x8xbf16>
}

// -----

// Heads as a dimension of their own, a padding mask shared by the heads

// -----

// Heads as a dimension of their own, a padding mask shared by the heads
// (added after the scale), and linalg.softmax.
// CHECK: remark: outlined with 3 producer/consumer op(s) as @stark_problem_0 (fused(linalg.generic,linalg.generic,linalg.softmax,linalg.generic) 2x3x8x4xf16,2x3x8x4xf16,2x8x8xf16,2x3x8x4xf16->2x3x8x4xf16
// CHECK: func.func @attention_mask
// CHECK: module @stark_problem_0
// CHECK-NOT: module @stark_problem_1
func.func @attention_mask(%q: tensor<2x3x8x4xf16>, %k: tensor<2x3x8x4xf16>, %v: tensor<2x3x8x4xf16>, %mask: tensor<2x8x8xf16>) -> tensor<2x3x8x4xf16> {
  %zero = arith.constant 0.0 : f16
  %s0 = tensor.empty() : tensor<2x3x8x8xf16>
  %s1 = linalg.fill ins(%zero : f16) outs(%s0 : tensor<2x3x8x8xf16>) -> tensor<2x3x8x8xf16>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x3x8x4xf16>, tensor<2x3x8x4xf16>) outs(%s1 : tensor<2x3x8x8xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %m = arith.mulf %a, %c : f16
    %r = arith.addf %o, %m : f16
    linalg.yield %r : f16
  } -> tensor<2x3x8x8xf16>
  %t0 = tensor.empty() : tensor<2x3x8x8xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<2x3x8x8xf16>, tensor<2x8x8xf16>) outs(%t0 : tensor<2x3x8x8xf16>) {
  ^bb0(%a: f16, %mk: f16, %o: f16):
    %c = arith.constant 0.5 : f16
    %x = arith.mulf %a, %c : f16
    %r = arith.addf %x, %mk : f16
    linalg.yield %r : f16
  } -> tensor<2x3x8x8xf16>
  %p0 = tensor.empty() : tensor<2x3x8x8xf16>
  %p = linalg.softmax dimension(3) ins(%t : tensor<2x3x8x8xf16>) outs(%p0 : tensor<2x3x8x8xf16>) -> tensor<2x3x8x8xf16>
  %o0 = tensor.empty() : tensor<2x3x8x4xf16>
  %o1 = linalg.fill ins(%zero : f16) outs(%o0 : tensor<2x3x8x4xf16>) -> tensor<2x3x8x4xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x3x8x8xf16>, tensor<2x3x8x4xf16>) outs(%o1 : tensor<2x3x8x4xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %m = arith.mulf %a, %c : f16
    %r = arith.addf %o, %m : f16
    linalg.yield %r : f16
  } -> tensor<2x3x8x4xf16>
  return %out : tensor<2x3x8x4xf16>
}

// -----

// A softmax whose exp is not shifted by the row maximum is not attention:
// the chain is grouped as its ops otherwise are, and a remark says why.
// CHECK: remark: not fused as attention: not attention: a reduction is neither the row maximum nor the sum of exp(scores - maximum)
// CHECK-NOT: fused(linalg.batch_matmul,linalg.generic,linalg.generic,linalg.generic,linalg.batch_matmul)
// CHECK: func.func @softmax_without_max
func.func @softmax_without_max(%q: tensor<2x8x4xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %s0 = tensor.empty() : tensor<2x8x8xf32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%s1 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %m0 = tensor.empty() : tensor<2x8xf32>
  %m1 = linalg.fill ins(%ninf : f32) outs(%m0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%m1 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  %z0 = tensor.empty() : tensor<2x8xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%z0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x8xf32>) outs(%z1 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    %r = arith.addf %e, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  %p0 = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mx, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) outs(%p0 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %z: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    %r = arith.divf %e, %z : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x8x4xf32>
  %o1 = linalg.fill ins(%zero : f32) outs(%o0 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%o1 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %out : tensor<2x8x4xf32>
}

// -----

// A matmul, an element-wise op and a matmul (an MLP) holds no softmax: it
// is never taken for attention.
// CHECK-NOT: fused as attention
// CHECK: func.func @mlp
func.func @mlp(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %h0 = tensor.empty() : tensor<8x32xf32>
  %h1 = linalg.fill ins(%zero : f32) outs(%h0 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x16xf32>, tensor<16x32xf32>) outs(%h1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %r0 = tensor.empty() : tensor<8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<8x32xf32>) outs(%r0 : tensor<8x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<8x32xf32>
  %y0 = tensor.empty() : tensor<8x16xf32>
  %y1 = linalg.fill ins(%zero : f32) outs(%y0 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%r, %w2 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%y1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// RUN: stark-opt %s --split-input-file --stark-outline=all -verify-diagnostics | FileCheck %s
// RUN: stark-opt %s --split-input-file --stark-outline="all fuse-conv-epilogues=false" 2>/dev/null | FileCheck %s --check-prefix=NOCONV
// RUN: stark-opt %s --split-input-file --stark-outline="all fuse=false" 2>/dev/null | FileCheck %s --check-prefix=NOFUSE
// RUN: stark-opt %s --split-input-file --stark-outline="all fuse-epilogues=false" 2>/dev/null | FileCheck %s --check-prefix=NOEPI

// A layer norm written as two reductions and two element-wise ops is one
// problem: the chain's inputs (x, gamma, beta), then its output; the row
// statistics live in temporaries; the zero fill the sums start from is
// cloned in, once per sum. Every op of the chain is tagged with the problem,
// and so is the fill, which the problem rebuilds.
// CHECK-LABEL: func.func @layernorm
// CHECK: linalg.fill {stark.problem = @stark_problem_0}
// CHECK-COUNT-4: linalg.generic {{.*}}stark.problem = @stark_problem_0
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 4, num_outputs = 1, op = "fused(linalg.generic,linalg.generic,linalg.generic,linalg.generic)", shapes = "16x64xf32,64xf32,64xf32->16x64xf32", signature = "{{[0-9a-f]+}}">}
// CHECK-NEXT: func.func @kernel(%[[X:.+]]: memref<16x64xf32>, %[[G:.+]]: memref<64xf32>, %[[B:.+]]: memref<64xf32>, %[[Y:.+]]: memref<16x64xf32>)
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[N:.+]] = arith.constant 6.400000e+01 : f32
// CHECK-DAG: %[[EPS:.+]] = arith.constant 9.99999974E-6 : f32
// CHECK: %[[SUM:.+]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: linalg.fill ins(%[[ZERO]] : f32) outs(%[[SUM]] : memref<16xf32>)
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[X]] : memref<16x64xf32>) outs(%[[SUM]] : memref<16xf32>)
// CHECK: %[[MEAN:.+]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[SUM]] : memref<16xf32>) outs(%[[MEAN]] : memref<16xf32>)
// CHECK: arith.divf %{{.+}}, %[[N]] : f32
// CHECK: %[[SQ:.+]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: linalg.fill ins(%[[ZERO]] : f32) outs(%[[SQ]] : memref<16xf32>)
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[X]], %[[MEAN]] : memref<16x64xf32>, memref<16xf32>) outs(%[[SQ]] : memref<16xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[MEAN]], %[[SQ]], %[[G]], %[[B]] : {{.*}}) outs(%[[Y]] : memref<16x64xf32>)
// CHECK: arith.addf %{{.+}}, %[[EPS]] : f32
// CHECK: math.rsqrt
// CHECK: memref.dealloc %[[SUM]]
// CHECK-NEXT: memref.dealloc %[[MEAN]]
// CHECK-NEXT: memref.dealloc %[[SQ]]
// CHECK-NEXT: return
// CHECK-NOT: module @stark_problem_1
// Without fusion every op is a problem of its own (the fill too).
// NOFUSE-LABEL: func.func @layernorm
// NOFUSE: module @stark_problem_4
// NOFUSE-NOT: fused_ops
func.func @layernorm(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty() : tensor<16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  // expected-remark @+1 {{outlined with 3 producer/consumer op(s) as @stark_problem_0 (fused(linalg.generic,linalg.generic,linalg.generic,linalg.generic) 16x64xf32,64xf32,64xf32->16x64xf32, signature}}
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%v: f32, %a: f32):
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%er : tensor<16xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<16x64xf32>, tensor<16xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%v: f32, %m: f32, %a: f32):
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %a, %d2 : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %ex = tensor.empty() : tensor<16x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq, %g, %b : tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>, tensor<64xf32>, tensor<64xf32>) outs(%ex : tensor<16x64xf32>) {
  ^bb0(%v: f32, %m: f32, %q: f32, %gv: f32, %bv: f32, %o: f32):
    %var = arith.divf %q, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %v, %m : f32
    %t = arith.mulf %d, %r : f32
    %u = arith.mulf %t, %gv : f32
    %w = arith.addf %u, %bv : f32
    linalg.yield %w : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

// When an intermediate (the mean) is also a result of the function, the
// whole chain is not one problem; it is cut there: the sum and the mean
// (now an output) are one problem, the variance and the normalisation
// (reading the mean as an input) another. Each rebuilds the fill.
// CHECK-LABEL: func.func @escaping_mean
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2
// CHECK: linalg.fill
// CHECK: module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2
// CHECK: linalg.fill
func.func @escaping_mean(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> (tensor<16x64xf32>, tensor<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty() : tensor<16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  // expected-remark @+1 {{outlined with 1 producer/consumer op(s) as @stark_problem_0 (fused(linalg.generic,linalg.generic) 16x64xf32->16xf32}}
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%v: f32, %a: f32):
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%er : tensor<16xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  // expected-remark @+1 {{outlined with 1 producer/consumer op(s) as @stark_problem_1 (fused(linalg.generic,linalg.generic) 16x64xf32,16xf32,64xf32,64xf32->16x64xf32}}
  %sq = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<16x64xf32>, tensor<16xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%v: f32, %m: f32, %a: f32):
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %a, %d2 : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %ex = tensor.empty() : tensor<16x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq, %g, %b : tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>, tensor<64xf32>, tensor<64xf32>) outs(%ex : tensor<16x64xf32>) {
  ^bb0(%v: f32, %m: f32, %q: f32, %gv: f32, %bv: f32, %o: f32):
    %var = arith.divf %q, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %v, %m : f32
    %t = arith.mulf %d, %r : f32
    %u = arith.mulf %t, %gv : f32
    %w = arith.addf %u, %bv : f32
    linalg.yield %w : f32
  } -> tensor<16x64xf32>
  return %y, %mean : tensor<16x64xf32>, tensor<16xf32>
}

// -----

// Two ops whose first result is also a result of the function: no cut
// leaves two ops, so each is outlined alone and the remark says why once.
// CHECK-LABEL: func.func @escaping_pair
// CHECK-NOT: fused_ops
func.func @escaping_pair(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %e = tensor.empty() : tensor<64xf32>
  // expected-remark @+2 {{not fused with its producers and consumers: result #0 of 'linalg.generic' is used both inside and outside the chain}}
  // expected-remark @+1 {{outlined as @stark_problem_0 (linalg.generic 64xf32->64xf32}}
  %a = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  // expected-remark @+1 {{outlined as @stark_problem_1 (linalg.generic 64xf32->64xf32}}
  %b = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %a, %b : tensor<64xf32>, tensor<64xf32>
}

// -----

// Identical chains have one signature, however their values are named and
// their constants spelled: both functions share one problem.
// CHECK-LABEL: func.func @layernorm
// CHECK-COUNT-4: stark.problem = @stark_problem_0
// CHECK-LABEL: func.func @layernorm_again
// CHECK-COUNT-4: stark.problem = @stark_problem_0
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<{{.*}}fused_ops = 4
// CHECK-NOT: module @stark_problem_1
func.func @layernorm(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty() : tensor<16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  // expected-remark @+1 {{outlined with 3 producer/consumer op(s) as @stark_problem_0 (fused(linalg.generic,linalg.generic,linalg.generic,linalg.generic) 16x64xf32,64xf32,64xf32->16x64xf32, signature}}
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%v: f32, %a: f32):
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%er : tensor<16xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<16x64xf32>, tensor<16xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%v: f32, %m: f32, %a: f32):
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %a, %d2 : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %ex = tensor.empty() : tensor<16x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq, %g, %b : tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>, tensor<64xf32>, tensor<64xf32>) outs(%ex : tensor<16x64xf32>) {
  ^bb0(%v: f32, %m: f32, %q: f32, %gv: f32, %bv: f32, %o: f32):
    %var = arith.divf %q, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %v, %m : f32
    %t = arith.mulf %d, %r : f32
    %u = arith.mulf %t, %gv : f32
    %w = arith.addf %u, %bv : f32
    linalg.yield %w : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

func.func @layernorm_again(%in: tensor<16x64xf32>, %scale: tensor<64xf32>, %shift: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 0.00001 : f32
  %er = tensor.empty() : tensor<16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  // expected-remark @+1 {{outlined with 3 producer/consumer op(s) as @stark_problem_0}}
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%in : tensor<16x64xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%v: f32, %a: f32):
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%er : tensor<16xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%in, %mean : tensor<16x64xf32>, tensor<16xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%v: f32, %m: f32, %a: f32):
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %a, %d2 : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %ex = tensor.empty() : tensor<16x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%in, %mean, %sq, %scale, %shift : tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>, tensor<64xf32>, tensor<64xf32>) outs(%ex : tensor<16x64xf32>) {
  ^bb0(%v: f32, %m: f32, %q: f32, %gv: f32, %bv: f32, %o: f32):
    %var = arith.divf %q, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %v, %m : f32
    %t = arith.mulf %d, %r : f32
    %u = arith.mulf %t, %gv : f32
    %w = arith.addf %u, %bv : f32
    linalg.yield %w : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// -----

// The element-wise chain after a matmul (bias add, then relu) is the
// matmul's epilogue: the three ops are one problem, the fill of the matmul's
// output cloned in, the matmul's result a temporary. With
// fuse-epilogues=false the contraction is a problem of its own (with the
// fill of its output) and the chain another.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK: linalg.matmul {stark.problem = @stark_problem_0}
// CHECK-COUNT-2: stark.problem = @stark_problem_0
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.matmul,linalg.generic,linalg.generic)", shapes = "16x4xf32,4x8xf32,8xf32->16x8xf32"
// CHECK-NEXT: func.func @kernel(%[[A:.+]]: memref<16x4xf32>, %[[W:.+]]: memref<4x8xf32>, %[[BIAS:.+]]: memref<8xf32>, %[[OUT:.+]]: memref<16x8xf32>)
// CHECK: %[[MM:.+]] = memref.alloc() : memref<16x8xf32>
// CHECK-NEXT: linalg.fill ins(%{{.+}} : f32) outs(%[[MM]] : memref<16x8xf32>)
// CHECK-NEXT: linalg.matmul ins(%[[A]], %[[W]] : memref<16x4xf32>, memref<4x8xf32>) outs(%[[MM]] : memref<16x8xf32>)
// CHECK: %[[T:.+]] = memref.alloc() : memref<16x8xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[MM]], %[[BIAS]] : memref<16x8xf32>, memref<8xf32>) outs(%[[T]] : memref<16x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[T]] : memref<16x8xf32>) outs(%[[OUT]] : memref<16x8xf32>)
// CHECK: memref.dealloc %[[MM]]
// CHECK-NEXT: memref.dealloc %[[T]]
// CHECK-NOT: module @stark_problem_1
// NOEPI-LABEL: func.func @matmul_bias_relu
// NOEPI: linalg.fill {stark.problem = @stark_problem_0}
// NOEPI: linalg.matmul {stark.problem = @stark_problem_0}
// NOEPI-COUNT-2: stark.problem = @stark_problem_1
// NOEPI: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.matmul"
// NOEPI: module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.generic,linalg.generic)", shapes = "16x8xf32,8xf32->16x8xf32"
func.func @matmul_bias_relu(%a: tensor<16x4xf32>, %w: tensor<4x8xf32>, %bias: tensor<8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark @+1 {{outlined with 2 producer/consumer op(s) as @stark_problem_0 (fused(linalg.matmul,linalg.generic,linalg.generic) 16x4xf32,4x8xf32,8xf32->16x8xf32}}
  %mm = linalg.matmul ins(%a, %w : tensor<16x4xf32>, tensor<4x8xf32>) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  %biased = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<16x8xf32>, tensor<8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%biased : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  return %relu : tensor<16x8xf32>
}

// -----

// An op outside the chain between two of its ops (the matmul reads the
// doubled value and feeds the sum): the call could not be placed, so
// nothing is fused.
// CHECK-LABEL: func.func @outside_op_between
// CHECK-NOT: fused_ops
func.func @outside_op_between(%x: tensor<16x16xf32>, %w: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  // expected-remark @+2 {{not fused with its producers and consumers: result #0 of 'linalg.generic' is used before the chain ends}}
  // expected-remark @+1 {{outlined as @stark_problem_0}}
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  // expected-remark @+1 {{outlined as @stark_problem_1}}
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %two : f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  // expected-remark @+1 {{outlined as @stark_problem_2 (linalg.matmul}}
  %m = linalg.matmul ins(%b, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%x : tensor<16x16xf32>) -> tensor<16x16xf32>
  // expected-remark @+1 {{outlined as @stark_problem_3}}
  %d = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %a : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %r = arith.addf %u, %v : f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}

// -----

// A chain with a reduction takes no contraction (the reduction stays a
// kernel of its own): the matmul keeps the fill of its output, bias +
// sigmoid + sum is one problem. (Contractions are outlined first, those of
// the next function too: the chain's problem comes after theirs.)
// CHECK-LABEL: func.func @matmul_sigmoid_sum
// CHECK: linalg.matmul {stark.problem = @stark_problem_0}
func.func @matmul_sigmoid_sum(%a: tensor<16x4xf32>, %w: tensor<4x8xf32>, %bias: tensor<8xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %er = tensor.empty() : tensor<16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark @+1 {{outlined with the fill of its output as @stark_problem_0 (linalg.fill + linalg.matmul}}
  %mm = linalg.matmul ins(%a, %w : tensor<16x4xf32>, tensor<4x8xf32>) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark @+1 {{outlined with 1 producer/consumer op(s) as @stark_problem_2 (fused(linalg.generic,linalg.generic) 16x8xf32,8xf32->16xf32}}
  %biased = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<16x8xf32>, tensor<8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %n = arith.negf %s : f32
    %x = math.exp %n : f32
    %d = arith.addf %x, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  %rinit = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%biased : tensor<16x8xf32>) outs(%rinit : tensor<16xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %sum : tensor<16xf32>
}

// An element-wise op of two contractions' results is the epilogue of the
// later one (silu(gate) * up in a gated MLP); the earlier one's result is
// an input of that problem.
// CHECK-LABEL: func.func @two_matmuls_add
// CHECK: linalg.matmul {stark.problem = @stark_problem_0}
// CHECK: linalg.matmul {stark.problem = @stark_problem_1}
// CHECK: linalg.generic {{.*}}stark.problem = @stark_problem_1
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.matmul"
// CHECK: module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.matmul,linalg.generic)"
// CHECK: func.func @kernel(%{{.*}}: memref<16x4xf32>, %{{.*}}: memref<4x8xf32>, %{{.*}}: memref<16x8xf32>, %{{.*}}: memref<16x8xf32>)
// CHECK: module @stark_problem_2 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.generic,linalg.generic)"
func.func @two_matmuls_add(%a: tensor<16x4xf32>, %w: tensor<4x8xf32>, %b: tensor<16x4xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark @+1 {{outlined with the fill of its output as @stark_problem_0 (linalg.fill + linalg.matmul}}
  %m1 = linalg.matmul ins(%a, %w : tensor<16x4xf32>, tensor<4x8xf32>) outs(%i1 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark @+1 {{outlined with 1 producer/consumer op(s) as @stark_problem_1 (fused(linalg.matmul,linalg.generic) 16x4xf32,4x8xf32,16x8xf32->16x8xf32}}
  %m2 = linalg.matmul ins(%b, %w : tensor<16x4xf32>, tensor<4x8xf32>) outs(%i2 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %m2 : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %r = arith.addf %u, %v : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}

// -----

// With fuse-conv-epilogues (the default), a convolution is the head of its
// element-wise chain too (an implicit GEMM: its input read through
// oh * stride + kh): conv + per-channel bias + relu is one problem with the
// conv's fill cloned in. With fuse-conv-epilogues=false or
// fuse-epilogues=false, the convolution keeps the fill of its output and the
// chain is a problem of its own.
// CHECK-LABEL: func.func @conv2d_bias_relu
// CHECK: linalg.fill {stark.problem = @stark_problem_0}
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}stark.problem = @stark_problem_0
// CHECK-COUNT-2: stark.problem = @stark_problem_0
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.conv_2d_nchw_fchw,linalg.generic,linalg.generic)", shapes = "2x3x11x9xf32,5x3x3x3xf32,5xf32->2x5x5x4xf32"
// CHECK-NEXT: func.func @kernel(%[[X:.+]]: memref<2x3x11x9xf32>, %[[W:.+]]: memref<5x3x3x3xf32>, %[[BIAS:.+]]: memref<5xf32>, %[[OUT:.+]]: memref<2x5x5x4xf32>)
// CHECK: %[[C:.+]] = memref.alloc() : memref<2x5x5x4xf32>
// CHECK-NEXT: linalg.fill ins(%{{.+}} : f32) outs(%[[C]] : memref<2x5x5x4xf32>)
// CHECK-NEXT: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %[[W]] : memref<2x3x11x9xf32>, memref<5x3x3x3xf32>) outs(%[[C]] : memref<2x5x5x4xf32>)
// CHECK: %[[T:.+]] = memref.alloc() : memref<2x5x5x4xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[C]], %[[BIAS]] : memref<2x5x5x4xf32>, memref<5xf32>) outs(%[[T]] : memref<2x5x5x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[T]] : memref<2x5x5x4xf32>) outs(%[[OUT]] : memref<2x5x5x4xf32>)
// CHECK-NOT: module @stark_problem_1
// NOCONV-LABEL: func.func @conv2d_bias_relu
// NOCONV: linalg.fill {stark.problem = @stark_problem_0}
// NOCONV: linalg.conv_2d_nchw_fchw {{.*}}stark.problem = @stark_problem_0
// NOCONV-COUNT-2: stark.problem = @stark_problem_1
// NOCONV: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.conv_2d_nchw_fchw"
// NOCONV: module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.generic,linalg.generic)", shapes = "2x5x5x4xf32,5xf32->2x5x5x4xf32"
// NOEPI-LABEL: func.func @conv2d_bias_relu
// NOEPI: linalg.fill {stark.problem = @stark_problem_0}
// NOEPI: linalg.conv_2d_nchw_fchw {{.*}}stark.problem = @stark_problem_0
// NOEPI-COUNT-2: stark.problem = @stark_problem_1
// NOEPI: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.conv_2d_nchw_fchw"
// NOEPI: module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.generic,linalg.generic)", shapes = "2x5x5x4xf32,5xf32->2x5x5x4xf32"
func.func @conv2d_bias_relu(%x: tensor<2x3x11x9xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<2x5x5x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x5x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32>
  // expected-remark @+1 {{outlined with 2 producer/consumer op(s) as @stark_problem_0 (fused(linalg.conv_2d_nchw_fchw,linalg.generic,linalg.generic) 2x3x11x9xf32,5x3x3x3xf32,5xf32->2x5x5x4xf32}}
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<2x3x11x9xf32>, tensor<5x3x3x3xf32>) outs(%init : tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32>
  %biased = linalg.generic {indexing_maps = [affine_map<(n, f, h, w) -> (n, f, h, w)>, affine_map<(n, f, h, w) -> (f)>, affine_map<(n, f, h, w) -> (n, f, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<2x5x5x4xf32>, tensor<5xf32>) outs(%e : tensor<2x5x5x4xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<2x5x5x4xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(n, f, h, w) -> (n, f, h, w)>, affine_map<(n, f, h, w) -> (n, f, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%biased : tensor<2x5x5x4xf32>) outs(%e : tensor<2x5x5x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x5x5x4xf32>
  return %relu : tensor<2x5x5x4xf32>
}

// -----

// A depthwise convolution heads no chain (one channel per GEMM, n = 1): it
// keeps the fill of its output, the bias add is a problem of its own.
// CHECK-LABEL: func.func @depthwise_bias
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.depthwise_conv_2d_nhwc_hwc"
// CHECK: module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic"
func.func @depthwise_bias(%x: tensor<2x9x9x4xf32>, %w: tensor<3x3x4xf32>, %b: tensor<4xf32>) -> tensor<2x7x7x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x7x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7x4xf32>) -> tensor<2x7x7x4xf32>
  // expected-remark @+1 {{outlined with the fill of its output as @stark_problem_0 (linalg.fill + linalg.depthwise_conv_2d_nhwc_hwc}}
  %d = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<2x9x9x4xf32>, tensor<3x3x4xf32>) outs(%init : tensor<2x7x7x4xf32>) -> tensor<2x7x7x4xf32>
  // expected-remark @+1 {{outlined as @stark_problem_1 (linalg.generic}}
  %t = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%d, %b : tensor<2x7x7x4xf32>, tensor<4xf32>) outs(%e : tensor<2x7x7x4xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<2x7x7x4xf32>
  return %t : tensor<2x7x7x4xf32>
}

// -----

// A chain no GEMM store stage would compute (a bitcast has no CUDA
// translation; f64 operands) is not fused with its convolution: the fused
// problem would get no kernel but the upstream lowering of the whole group.
// The convolution keeps the fill of its output, the chain is outlined
// alone.
// CHECK-LABEL: func.func @conv_epilogue_declined
// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.conv_2d_nhwc_hwcf"
// CHECK: module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.conv_2d_nhwc_hwcf"
// CHECK: module @stark_problem_2 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic"
// CHECK: module @stark_problem_3 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic"
func.func @conv_epilogue_declined(%x: tensor<1x6x6x3xf32>, %w: tensor<3x3x3x4xf32>, %xd: tensor<1x6x6x3xf64>, %wd: tensor<3x3x3x4xf64>) -> (tensor<1x4x4x4xi32>, tensor<1x4x4x4xf64>) {
  %zero = arith.constant 0.0 : f32
  %zerod = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %ei = tensor.empty() : tensor<1x4x4x4xi32>
  %ed = tensor.empty() : tensor<1x4x4x4xf64>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  // expected-remark @+2 {{not fused with the 'linalg.conv_2d_nhwc_hwcf' it is the epilogue of: fused chain: payload op 'arith.bitcast' has no CUDA translation}}
  // expected-remark @+1 {{outlined with the fill of its output as @stark_problem_0}}
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x6x6x3xf32>, tensor<3x3x3x4xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  // expected-remark @+1 {{outlined as @stark_problem_2 (linalg.generic}}
  %y = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (n, h, w, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x4x4x4xf32>) outs(%ei : tensor<1x4x4x4xi32>) {
  ^bb0(%v: f32, %o: i32):
    %r = arith.bitcast %v : f32 to i32
    linalg.yield %r : i32
  } -> tensor<1x4x4x4xi32>
  %initd = linalg.fill ins(%zerod : f64) outs(%ed : tensor<1x4x4x4xf64>) -> tensor<1x4x4x4xf64>
  // expected-remark @+2 {{not fused with the 'linalg.conv_2d_nhwc_hwcf' it is the epilogue of: the GEMM kernels take f32, f16 or bf16 operands and outputs}}
  // expected-remark @+1 {{outlined with the fill of its output as @stark_problem_1}}
  %cd = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%xd, %wd : tensor<1x6x6x3xf64>, tensor<3x3x3x4xf64>) outs(%initd : tensor<1x4x4x4xf64>) -> tensor<1x4x4x4xf64>
  // expected-remark @+1 {{outlined as @stark_problem_3 (linalg.generic}}
  %yd = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (n, h, w, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%cd : tensor<1x4x4x4xf64>) outs(%ed : tensor<1x4x4x4xf64>) {
  ^bb0(%v: f64, %o: f64):
    %r = arith.maximumf %v, %zerod : f64
    linalg.yield %r : f64
  } -> tensor<1x4x4x4xf64>
  return %y, %yd : tensor<1x4x4x4xi32>, tensor<1x4x4x4xf64>
}

// -----

// A squeeze-excite block: the pool's input is also scaled by the pool's
// result, so the whole diamond is not one problem and its first op goes
// alone; the pool and its divide still make one problem of their own, and
// the scale is outlined alone.
// CHECK-LABEL: func.func @squeeze_excite
// CHECK: linalg.generic {{.*}}stark.problem = @stark_problem_0
// CHECK: linalg.fill {stark.problem = @stark_problem_1}
// CHECK: linalg.generic {{.*}}stark.problem = @stark_problem_1
// CHECK: linalg.generic {{.*}}stark.problem = @stark_problem_1
// CHECK: linalg.generic {{.*}}stark.problem = @stark_problem_2
func.func @squeeze_excite(%x0: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %count = arith.constant 64.0 : f32
  %er = tensor.empty() : tensor<1x16x8x8xf32>
  // expected-remark @+2 {{not fused with its producers and consumers: result #0 of 'linalg.generic' is used both inside and outside the chain}}
  // expected-remark @+1 {{outlined as @stark_problem_0 (linalg.generic 1x16x8x8xf32->1x16x8x8xf32}}
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x0 : tensor<1x16x8x8xf32>) outs(%er : tensor<1x16x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x16x8x8xf32>
  %e = tensor.empty() : tensor<1x16x1x1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x1x1xf32>) -> tensor<1x16x1x1xf32>
  // expected-remark @+1 {{outlined with 1 producer/consumer op(s) as @stark_problem_1 (fused(linalg.generic,linalg.generic) 1x16x8x8xf32->1x16x1x1xf32}}
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<1x16x8x8xf32>) outs(%acc : tensor<1x16x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } -> tensor<1x16x1x1xf32>
  %e2 = tensor.empty() : tensor<1x16x1x1xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x16x1x1xf32>) outs(%e2 : tensor<1x16x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.divf %in, %count : f32
    linalg.yield %r : f32
  } -> tensor<1x16x1x1xf32>
  %em = tensor.empty() : tensor<1x16x8x8xf32>
  // expected-remark @+1 {{outlined as @stark_problem_2 (linalg.generic 1x16x8x8xf32,1x16x1x1xf32->1x16x8x8xf32}}
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %d : tensor<1x16x8x8xf32>, tensor<1x16x1x1xf32>) outs(%em : tensor<1x16x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x16x8x8xf32>
  return %m : tensor<1x16x8x8xf32>
}

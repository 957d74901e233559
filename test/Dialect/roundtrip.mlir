// RUN: stark-opt %s --split-input-file | FileCheck %s
// RUN: stark-opt %s --split-input-file | stark-opt --split-input-file | FileCheck %s

// Every attribute of the stark dialect prints as it parses, and the printed
// form parses again.

// CHECK-LABEL: func.func @cost
// CHECK: linalg.matmul {stark.cost = #stark.cost<bound = "compute", bytes = 16777216, op_class = "contraction", dtype = "f32", flops = 2147483648, profile = "h200", rank = 1, share = 1.000000e+00, time_us = 3.250000e+00>}
func.func @cost(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %r = linalg.matmul {stark.cost = #stark.cost<bound = "compute", bytes = 16777216, op_class = "contraction", dtype = "f32", flops = 2147483648, profile = "h200", rank = 1, share = 1.0, time_us = 3.25>}
      ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}

// -----

// Parameters may come in any order; optional ones left at their default
// are not printed (fused_ops = 1, op, shapes, signature).

// CHECK: module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "8x4xf32,4x2xf32->8x2xf32", signature = "0123456789abcdef0123456789abcdef">}
// CHECK: module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 2>}
// CHECK: module @stark_problem_2 attributes {stark.problem = #stark.problem<entry = "f", num_outputs = 1>}
// CHECK-LABEL: func.func @program
// CHECK: linalg.matmul {stark.problem = @stark_problem_0}
module {
  module @stark_problem_0 attributes {stark.problem = #stark.problem<signature = "0123456789abcdef0123456789abcdef", shapes = "8x4xf32,4x2xf32->8x2xf32", op = "linalg.matmul", num_outputs = 1, entry = "kernel">} {
  }
  module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 2>} {
  }
  module @stark_problem_2 attributes {stark.problem = #stark.problem<entry = "f", num_outputs = 1, fused_ops = 1>} {
  }
  func.func @program(%a: tensor<8x4xf32>, %b: tensor<4x2xf32>, %c: tensor<8x2xf32>) -> tensor<8x2xf32> {
    %r = linalg.matmul {stark.problem = @stark_problem_0}
        ins(%a, %b : tensor<8x4xf32>, tensor<4x2xf32>) outs(%c : tensor<8x2xf32>) -> tensor<8x2xf32>
    return %r : tensor<8x2xf32>
  }
}

// -----

// The winner on a problem module (search); the call that replaced the op
// (substitute) carries a builtin dictionary, for stock tools.

// Parameters are typed (integers, booleans, numbers); strings stay valid.
// CHECK: module @stark_problem_0 attributes {stark.winner = #stark.winner<baseline_us = 5.000000e+00, candidate = 7, chip = "sm_80", params = {bm = 64 : i64, bn = "32", ratio = 5.000000e-01 : f64, vec = true}, speedup = 2.500000e+00, strategy = "gemm", target = "cuda", winner_us = 2.000000e+00>}
// CHECK-LABEL: func.func @program
// CHECK: call @stark_kernel_0123456789abcdef() {stark.winner = {candidate = 7 : i64, signature = "0123456789abcdef0123456789abcdef", speedup = 2.500000e+00 : f64, strategy = "gemm"}} : () -> ()
module {
  module @stark_problem_0 attributes {stark.winner = #stark.winner<baseline_us = 5.0, candidate = 7, chip = "sm_80", params = {bm = 64 : i64, bn = "32", ratio = 0.5 : f64, vec = true}, speedup = 2.5, strategy = "gemm", target = "cuda", winner_us = 2.0>} {
  }
  func.func private @stark_kernel_0123456789abcdef()
  func.func @program() {
    call @stark_kernel_0123456789abcdef() {stark.winner = {candidate = 7 : i64, signature = "0123456789abcdef0123456789abcdef", speedup = 2.5 : f64, strategy = "gemm"}} : () -> ()
    return
  }
}

// -----

// A CUDA C++ candidate: launches are #stark.launch attributes; a launch's
// shared_bytes defaults to 0, options, family and params are optional.

// CHECK-LABEL: func.func private @kernel
// CHECK-SAME: stark.cuda = #stark.cuda<family = "gemm", launches = [#stark.launch<block = array<i64: 256, 1, 1>, grid = array<i64: 4, 2>, kernel = "stark_gemm", shared_bytes = 1024>, #stark.launch<block = array<i64: 32>, grid = array<i64: 1>, kernel = "add_one<1000>">], options = ["-use_fast_math"], params = {bm = "128"}, source = "extern \22C\22 __global__ void stark_gemm() {}">
// CHECK-LABEL: func.func private @bare
// CHECK-SAME: stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 1>, grid = array<i64: 1>, kernel = "k">], source = "__global__ void k() {}">
func.func private @kernel(%a: memref<4xf32>) attributes {stark.cuda = #stark.cuda<
    source = "extern \22C\22 __global__ void stark_gemm() {}",
    launches = [#stark.launch<kernel = "stark_gemm", grid = array<i64: 4, 2>, block = array<i64: 256, 1, 1>, shared_bytes = 1024>,
                #stark.launch<kernel = "add_one<1000>", grid = array<i64: 1>, block = array<i64: 32>, shared_bytes = 0>],
    options = ["-use_fast_math"], family = "gemm", params = {bm = "128"}>}
func.func private @bare() attributes {stark.cuda = #stark.cuda<source = "__global__ void k() {}", launches = [#stark.launch<kernel = "k", grid = array<i64: 1>, block = array<i64: 1>>]>}

// -----

// A launch with tensor maps of its arguments (TMA descriptors).

// CHECK-LABEL: func.func private @tma
// CHECK-SAME: tensor_maps = [#stark.tensor_map<arg = 0, box = array<i64: 1, 128, 64>, shape = array<i64: 1, 256, 64>>, #stark.tensor_map<arg = 1, box = array<i64: 64, 64>, shape = array<i64: 64, 64>>]
func.func private @tma(%a: memref<256x64xbf16>, %b: memref<64x64xbf16>) attributes {stark.cuda = #stark.cuda<source = "__global__ void k() {}", launches = [#stark.launch<kernel = "k", grid = array<i64: 1>, block = array<i64: 1>, tensor_maps = [#stark.tensor_map<arg = 0, shape = array<i64: 1, 256, 64>, box = array<i64: 1, 128, 64>>, #stark.tensor_map<arg = 1, shape = array<i64: 64, 64>, box = array<i64: 64, 64>>]>]>}

// -----

// CHECK-LABEL: func.func @scheduled
// CHECK-SAME: stark.schedule = #stark.schedule<family = "td-matmul", params = {bm = 64 : i64, tm = 4 : i64}, script = "transform.named_sequence">
func.func @scheduled() attributes {stark.schedule = #stark.schedule<family = "td-matmul", params = {bm = 64 : i64, tm = 4 : i64}, script = "transform.named_sequence">} {
  return
}

// -----

// The weights a program had no data for and got synthesised ones.
// CHECK: module attributes {stark.synthesized_weights = ["@w", "__elided__#0"]}
module attributes {stark.synthesized_weights = ["@w", "__elided__#0"]} {}

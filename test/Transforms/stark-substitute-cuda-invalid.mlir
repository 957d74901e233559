// REQUIRES: cuda-target
// RUN: stark-opt %s --split-input-file --stark-substitute -verify-diagnostics
// RUN: not stark-opt %s --split-input-file --stark-substitute="cuda-format=sass" 2>&1 | FileCheck %s --check-prefix=FORMAT

// FORMAT: error: stark-substitute: cuda-format must be cubin or ptx, got 'sass'

// Malformed CUDA C++ winners are rejected when the input is parsed (the
// stark dialect verifies #stark.cuda), before stark-substitute runs.

// A CUDA C++ winner without launches cannot have been verified.
func.func @no_launches(%x: memref<16xf32>, %y: memref<16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      {stark.problem = @stark_problem_0}
      ins(%x : memref<16xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "16xf32->16xf32", signature = "00000000000000ee00000000000000ee">, stark.winner = #stark.winner<baseline_us = 1.0, candidate = 1, params = {}, speedup = 2.0, strategy = "elementwise", target = "cuda", winner_us = 0.5>} {
  func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) {
    return
  }
  module @winner {
    // expected-error @+1 {{struct is missing required parameter: launches}}
    func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) attributes {stark.cuda = #stark.cuda<source = "extern \22C\22 __global__ void k(const float *x, float *y) {}">} {
      return
    }
  }
}

// -----

// A grid with a zero extent.
func.func @zero_grid(%x: memref<16xf32>, %y: memref<16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      {stark.problem = @stark_problem_0}
      ins(%x : memref<16xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "16xf32->16xf32", signature = "00000000000000ee00000000000000ee">, stark.winner = #stark.winner<baseline_us = 1.0, candidate = 1, params = {}, speedup = 2.0, strategy = "elementwise", target = "cuda", winner_us = 0.5>} {
  func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) {
    return
  }
  module @winner {
    // expected-error @+2 {{'grid' must be 1 to 3 positive integers (array<i64: x, y, z>)}}
    // expected-error @+1 {{failed to parse Stark_CudaKernelAttr parameter 'launches'}}
    func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 16>, grid = array<i64: 0>, kernel = "k">], source = "extern \22C\22 __global__ void k(const float *x, float *y) {}">} {
      return
    }
  }
}

// -----

// `stark.cuda` must be a #stark.cuda attribute.
func.func @not_a_dictionary(%x: memref<16xf32>, %y: memref<16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      {stark.problem = @stark_problem_0}
      ins(%x : memref<16xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "16xf32->16xf32", signature = "00000000000000ee00000000000000ee">, stark.winner = #stark.winner<baseline_us = 1.0, candidate = 1, params = {}, speedup = 2.0, strategy = "elementwise", target = "cuda", winner_us = 0.5>} {
  func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) {
    return
  }
  module @winner {
    // expected-error @+1 {{'func.func' op 'stark.cuda' must be a #stark.cuda attribute}}
    func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) attributes {stark.cuda = "__global__ void k() {}"} {
      return
    }
  }
}

// -----

// A module that parses, so that the pass runs and checks its options.
func.func @nothing() {
  return
}

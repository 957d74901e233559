// REQUIRES: cuda-target
// RUN: stark-opt %s --split-input-file --stark-substitute -verify-diagnostics
// RUN: not stark-opt %s --split-input-file --stark-substitute="cuda-format=sass" 2>&1 | FileCheck %s --check-prefix=FORMAT

// FORMAT: error: stark-substitute: cuda-format must be cubin or ptx, got 'sass'

// A CUDA C++ winner without launches cannot have been verified.
func.func @no_launches(%x: memref<16xf32>, %y: memref<16xf32>) {
  // expected-error @+1 {{stark-substitute: the CUDA C++ winner of @stark_problem_0 is malformed: 'stark.cuda' needs a non-empty array 'launches'}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      {stark.problem = @stark_problem_0}
      ins(%x : memref<16xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}
module @stark_problem_0 attributes {stark.problem = {entry = "kernel", num_outputs = 1 : i64, op = "linalg.generic", shapes = "16xf32->16xf32", signature = "00000000000000ee00000000000000ee"}, stark.winner = {baseline_us = 1.0 : f64, candidate = 1 : i64, params = {}, speedup = 2.0 : f64, strategy = "elementwise", target = "cuda", winner_us = 0.5 : f64}} {
  func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) {
    return
  }
  module @winner {
    func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) attributes {stark.cuda = {source = "extern \22C\22 __global__ void k(const float *x, float *y) {}"}} {
      return
    }
  }
}

// -----

// A grid with a zero extent.
func.func @zero_grid(%x: memref<16xf32>, %y: memref<16xf32>) {
  // expected-error @+1 {{stark-substitute: the CUDA C++ winner of @stark_problem_0 is malformed: launch #0 (k): 'grid' must be 1 to 3 positive integers (array<i64: x, y, z>)}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      {stark.problem = @stark_problem_0}
      ins(%x : memref<16xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}
module @stark_problem_0 attributes {stark.problem = {entry = "kernel", num_outputs = 1 : i64, op = "linalg.generic", shapes = "16xf32->16xf32", signature = "00000000000000ee00000000000000ee"}, stark.winner = {baseline_us = 1.0 : f64, candidate = 1 : i64, params = {}, speedup = 2.0 : f64, strategy = "elementwise", target = "cuda", winner_us = 0.5 : f64}} {
  func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) {
    return
  }
  module @winner {
    func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) attributes {stark.cuda = {launches = [{block = array<i64: 16>, grid = array<i64: 0>, kernel = "k"}], source = "extern \22C\22 __global__ void k(const float *x, float *y) {}"}} {
      return
    }
  }
}

// -----

// `stark.cuda` must be a dictionary.
func.func @not_a_dictionary(%x: memref<16xf32>, %y: memref<16xf32>) {
  // expected-error @+1 {{stark-substitute: the CUDA C++ winner of @stark_problem_0 is malformed: 'stark.cuda' on @kernel must be a dictionary}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      {stark.problem = @stark_problem_0}
      ins(%x : memref<16xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}
module @stark_problem_0 attributes {stark.problem = {entry = "kernel", num_outputs = 1 : i64, op = "linalg.generic", shapes = "16xf32->16xf32", signature = "00000000000000ee00000000000000ee"}, stark.winner = {baseline_us = 1.0 : f64, candidate = 1 : i64, params = {}, speedup = 2.0 : f64, strategy = "elementwise", target = "cuda", winner_us = 0.5 : f64}} {
  func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) {
    return
  }
  module @winner {
    func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) attributes {stark.cuda = "__global__ void k() {}"} {
      return
    }
  }
}

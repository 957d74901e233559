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

// -----

// A tensor map of an argument the entry does not have.
func.func @map_of_no_argument(%x: memref<16xf32>, %y: memref<16xf32>) {
  // expected-error @+1 {{stark-substitute: the CUDA C++ winner of @stark_problem_0 is malformed: launch of k: tensor map of argument #2: the entry has 2 arguments}}
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
    func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 16>, grid = array<i64: 1>, kernel = "k", tensor_maps = [#stark.tensor_map<arg = 2, shape = array<i64: 16>, box = array<i64: 16>>]>], source = "extern \22C\22 __global__ void k(const float *x, float *y, const void *m) {}">} {
      return
    }
  }
}

// -----

// A tensor map whose shape does not hold the argument's elements.
func.func @map_of_another_size(%x: memref<16xf32>, %y: memref<16xf32>) {
  // expected-error @+1 {{is malformed: launch of k: tensor map of argument #0: 'shape' holds 32 elements, the argument 16}}
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
    func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 16>, grid = array<i64: 1>, kernel = "k", tensor_maps = [#stark.tensor_map<arg = 0, shape = array<i64: 2, 16>, box = array<i64: 1, 16>>]>], source = "extern \22C\22 __global__ void k(const float *x, float *y, const void *m) {}">} {
      return
    }
  }
}

// -----

// A box row wider than the 128-byte swizzle.
func.func @map_box_too_wide(%x: memref<4x64xf32>, %y: memref<4x64xf32>) {
  // expected-error @+1 {{is malformed: launch of k: tensor map of argument #0: a box row of 256 bytes (the 128-byte swizzle takes 16 to 128 in steps of 16)}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      {stark.problem = @stark_problem_0}
      ins(%x : memref<4x64xf32>) outs(%y : memref<4x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "4x64xf32->4x64xf32", signature = "00000000000000ef00000000000000ef">, stark.winner = #stark.winner<baseline_us = 1.0, candidate = 1, params = {}, speedup = 2.0, strategy = "elementwise", target = "cuda", winner_us = 0.5>} {
  func.func @kernel(%x: memref<4x64xf32>, %y: memref<4x64xf32>) {
    return
  }
  module @winner {
    func.func @kernel(%x: memref<4x64xf32>, %y: memref<4x64xf32>) attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 16>, grid = array<i64: 1>, kernel = "k", tensor_maps = [#stark.tensor_map<arg = 0, shape = array<i64: 4, 64>, box = array<i64: 4, 64>>]>], source = "extern \22C\22 __global__ void k(const float *x, float *y, const void *m) {}">} {
      return
    }
  }
}

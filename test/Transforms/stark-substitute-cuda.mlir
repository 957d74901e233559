// REQUIRES: nvrtc
// RUN: stark-opt %s --split-input-file --stark-substitute -verify-diagnostics | FileCheck %s
// RUN: stark-opt %s --split-input-file --stark-substitute="cuda-format=ptx" 2>/dev/null | FileCheck %s --check-prefix=PTX
// RUN: stark-opt %s --split-input-file --stark-substitute="cuda-chip=sm_100a" 2>/dev/null | FileCheck %s --check-prefix=CHIP

// A CUDA C++ winner with two launches: an extern "C" kernel and a template
// instance (a name expression, launched by its mangled name) with dynamic
// shared memory. It becomes a gpu.binary holding NVRTC's cubin and a host
// function that launches both, in order, on one stream, with the aligned
// pointers of its memref arguments.
// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: func.func @two_launches
// CHECK-SAME: (%[[X:.+]]: memref<1000xf32>, %[[Y:.+]]: memref<1000xf32>)
// CHECK-NEXT: call @stark_kernel_00000000000000cc(%[[X]], %[[Y]]) {stark.winner = {candidate = 4 : i64, signature = "00000000000000cc00000000000000cc", speedup = 3.000000e+00 : f64, strategy = "elementwise"}} : (memref<1000xf32>, memref<1000xf32>) -> ()
// CHECK-NEXT: return
// CHECK-NOT: module @stark_problem_0
// CHECK: gpu.binary @stark_kernel_00000000000000cc_bin [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, bin = "\7FELF{{.*}}">]
// CHECK-LABEL: func.func private @stark_kernel_00000000000000cc
// CHECK-SAME: (%[[A:.+]]: memref<1000xf32>, %[[B:.+]]: memref<1000xf32>)
// CHECK-NEXT: %[[AI:.+]] = memref.extract_aligned_pointer_as_index %[[A]] : memref<1000xf32> -> index
// CHECK-NEXT: %[[AW:.+]] = arith.index_cast %[[AI]] : index to i64
// CHECK-NEXT: %[[AP:.+]] = llvm.inttoptr %[[AW]] : i64 to !llvm.ptr
// CHECK-NEXT: %[[BI:.+]] = memref.extract_aligned_pointer_as_index %[[B]] : memref<1000xf32> -> index
// CHECK-NEXT: %[[BW:.+]] = arith.index_cast %[[BI]] : index to i64
// CHECK-NEXT: %[[BP:.+]] = llvm.inttoptr %[[BW]] : i64 to !llvm.ptr
// CHECK-NEXT: %[[T0:.+]] = gpu.wait async
// CHECK-NEXT: %[[C4:.+]] = arith.constant 4 : index
// CHECK-NEXT: %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT: %[[C256:.+]] = arith.constant 256 : index
// CHECK-NEXT: %[[T1:.+]] = gpu.launch_func async [%[[T0]]] @stark_kernel_00000000000000cc_bin::@scale blocks in (%[[C4]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]]) args(%[[AP]] : !llvm.ptr, %[[BP]] : !llvm.ptr)
// CHECK-NEXT: %[[SHARED:.+]] = arith.constant 1024 : i32
// CHECK-NEXT: %[[T2:.+]] = gpu.launch_func async [%[[T1]]] @stark_kernel_00000000000000cc_bin::@_Z7add_oneILi1000EEvPKfPf blocks in (%[[C4]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]]) dynamic_shared_memory_size %[[SHARED]] args(%[[AP]] : !llvm.ptr, %[[BP]] : !llvm.ptr)
// CHECK-NEXT: gpu.wait [%[[T2]]]
// CHECK-NEXT: return

// With cuda-format=ptx the binary holds NVRTC's PTX for the chip.
// PTX-LABEL: func.func @two_launches
// PTX: gpu.binary @stark_kernel_00000000000000cc_bin [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, assembly = "{{.*}}.target sm_90a{{.*}}.entry scale({{.*}}.entry _Z7add_oneILi1000EEvPKfPf({{.*}}">]

// cuda-chip names the chip; its PTX features follow it.
// CHIP-LABEL: func.func @two_launches
// CHIP: gpu.binary @stark_kernel_00000000000000cc_bin [#gpu.object<#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx86">, bin = "\7FELF{{.*}}">]
func.func @two_launches(%x: memref<1000xf32>, %y: memref<1000xf32>) {
  // expected-remark @+1 {{stark-substitute: replaced by @stark_kernel_00000000000000cc (elementwise, 3.00x, verified): CUDA C++ compiled for sm_90a into gpu.binary @stark_kernel_00000000000000cc_bin}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      {stark.problem = @stark_problem_0}
      ins(%x : memref<1000xf32>) outs(%y : memref<1000xf32>) {
  ^bb0(%v: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %one = arith.constant 1.0 : f32
    %m = arith.mulf %v, %two : f32
    %a = arith.addf %m, %one : f32
    linalg.yield %a : f32
  }
  return
}
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "1000xf32->1000xf32", signature = "00000000000000cc00000000000000cc">, stark.winner = #stark.winner<baseline_us = 3.0, candidate = 4, params = {}, speedup = 3.0, strategy = "elementwise", target = "cuda", winner_us = 1.0>} {
  func.func @kernel(%x: memref<1000xf32>, %y: memref<1000xf32>) {
    return
  }
  module @winner {
    func.func @kernel(%x: memref<1000xf32>, %y: memref<1000xf32>) attributes {stark.cuda = #stark.cuda<
        source = "extern \22C\22 __global__ void scale(const float *x, float *y) {\0A  int i = blockIdx.x * blockDim.x + threadIdx.x;\0A  if (i < 1000) y[i] = 2.0f * x[i];\0A}\0Atemplate <int N> __global__ void add_one(const float *x, float *y) {\0A  extern __shared__ float s[];\0A  int i = blockIdx.x * blockDim.x + threadIdx.x;\0A  if (i < N) { s[threadIdx.x] = y[i]; y[i] = s[threadIdx.x] + 1.0f; }\0A}\0A",
        launches = [#stark.launch<kernel = "scale", grid = array<i64: 4>, block = array<i64: 256>>,
                    #stark.launch<kernel = "add_one<1000>", grid = array<i64: 4>, block = array<i64: 256>, shared_bytes = 1024>]>} {
      return
    }
  }
}

// -----

// A tensor op with a CUDA C++ winner: the same bridging as any winner, the
// call goes to the host function. The winner's record names its chip.
// CHECK-LABEL: func.func @tensor_matmul
// CHECK-SAME: (%[[A:.+]]: tensor<8x4xf32>, %[[B:.+]]: tensor<4x2xf32>, %[[C:.+]]: tensor<8x2xf32>)
// CHECK-DAG: %[[AB:.+]] = bufferization.to_buffer %[[A]] read_only
// CHECK-DAG: %[[BB:.+]] = bufferization.to_buffer %[[B]] read_only
// CHECK: %[[OUT:.+]] = memref.alloc() : memref<8x2xf32>
// CHECK: %[[CB:.+]] = bufferization.to_buffer %[[C]] read_only
// CHECK: memref.copy %[[CB]], %[[OUT]]
// CHECK: call @stark_kernel_0123456789abcdef(%[[AB]], %[[BB]], %[[OUT]]) {stark.winner = {candidate = 7 : i64, signature = "0123456789abcdef0123456789abcdef", speedup = 2.500000e+00 : f64, strategy = "gemm"}}
// CHECK: %[[R:.+]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK: return %[[R]]
// CHECK-NOT: linalg.matmul
// CHECK: gpu.binary @stark_kernel_0123456789abcdef_bin [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, bin = "\7FELF{{.*}}">]
// CHECK-LABEL: func.func private @stark_kernel_0123456789abcdef
// CHECK-SAME: (%{{.+}}: memref<8x4xf32>, %{{.+}}: memref<4x2xf32>, %{{.+}}: memref<8x2xf32>)
// CHECK: gpu.launch_func async [%{{.+}}] @stark_kernel_0123456789abcdef_bin::@matmul blocks in (%[[ONE:.+]], %[[ONE]], %[[ONE]]) threads in (%[[TWO:.+]], %[[EIGHT:.+]], %[[ONE]]) args(%{{.+}} : !llvm.ptr, %{{.+}} : !llvm.ptr, %{{.+}} : !llvm.ptr)
// PTX-LABEL: func.func @tensor_matmul
// PTX: assembly = "{{.*}}.target sm_80{{.*}}">]
// CHIP-LABEL: func.func @tensor_matmul
// CHIP: #nvvm.target<O = 3, chip = "sm_100a", features = "+ptx86">
func.func @tensor_matmul(%a: tensor<8x4xf32>, %b: tensor<4x2xf32>, %c: tensor<8x2xf32>) -> tensor<8x2xf32> {
  // expected-remark @+1 {{stark-substitute: replaced by @stark_kernel_0123456789abcdef (gemm, 2.50x, verified): CUDA C++ compiled for sm_80 into gpu.binary @stark_kernel_0123456789abcdef_bin}}
  %0 = linalg.matmul {stark.problem = @stark_problem_0}
         ins(%a, %b : tensor<8x4xf32>, tensor<4x2xf32>) outs(%c : tensor<8x2xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "8x4xf32,4x2xf32->8x2xf32", signature = "0123456789abcdef0123456789abcdef">, stark.winner = #stark.winner<baseline_us = 5.0, candidate = 7, chip = "sm_80", params = {}, speedup = 2.5, strategy = "gemm", target = "cuda", winner_us = 2.0>} {
  func.func @kernel(%a: memref<8x4xf32>, %b: memref<4x2xf32>, %c: memref<8x2xf32>) {
    linalg.matmul ins(%a, %b : memref<8x4xf32>, memref<4x2xf32>) outs(%c : memref<8x2xf32>)
    return
  }
  module @winner {
    func.func private @kernel(%a: memref<8x4xf32>, %b: memref<4x2xf32>, %c: memref<8x2xf32>) attributes {stark.cuda = #stark.cuda<
        source = "extern \22C\22 __global__ void matmul(const float *a, const float *b, float *c) {\0A  int i = threadIdx.y, j = threadIdx.x;\0A  float acc = c[i * 2 + j];\0A  for (int k = 0; k < 4; ++k) acc += a[i * 4 + k] * b[k * 2 + j];\0A  c[i * 2 + j] = acc;\0A}\0A",
        launches = [#stark.launch<kernel = "matmul", grid = array<i64: 1>, block = array<i64: 2, 8>>]>}
  }
}

// -----

// NVRTC rejects the source: the op is left as it is, with NVRTC's log.
// CHECK-LABEL: func.func @compile_error
// CHECK-NEXT: linalg.generic
// CHECK-NOT: stark.problem
// CHECK-NOT: gpu.binary
// CHECK-NOT: stark_kernel
// PTX-LABEL: func.func @compile_error
// CHIP-LABEL: func.func @compile_error
func.func @compile_error(%x: memref<16xf32>, %y: memref<16xf32>) {
  // expected-remark @+1 {{stark-substitute: left as is: the CUDA C++ winner of @stark_problem_0 could not be compiled for sm_90a: NVRTC compilation failed (NVRTC_ERROR_COMPILATION):}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      {stark.problem = @stark_problem_0}
      ins(%x : memref<16xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  }
  return
}
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "16xf32->16xf32", signature = "00000000000000dd00000000000000dd">, stark.winner = #stark.winner<baseline_us = 1.0, candidate = 1, params = {}, speedup = 3.0, strategy = "elementwise", target = "cuda", winner_us = 0.3>} {
  func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) {
    return
  }
  module @winner {
    func.func @kernel(%x: memref<16xf32>, %y: memref<16xf32>) attributes {stark.cuda = #stark.cuda<launches = [#stark.launch<block = array<i64: 16, 1, 1>, grid = array<i64: 1, 1, 1>, kernel = "k", shared_bytes = 0>], source = "extern \22C\22 __global__ void k(const float *x, float *y) { y[threadIdx.x] = expf(x[threadIdx.x]) + undeclared; }">} {
      return
    }
  }
}

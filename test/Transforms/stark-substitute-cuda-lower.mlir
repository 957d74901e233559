// REQUIRES: nvrtc, mlir-runner
// A substituted CUDA C++ winner lowers with upstream's standard passes:
// gpu-to-llvm with its default options (and the whole
// gpu-lower-to-nvvm-pipeline), then the LLVM IR translation, which loads the
// embedded cubin and launches the kernel with the memrefs' aligned pointers.
// RUN: stark-opt %s --stark-substitute 2>/dev/null | mlir-opt --gpu-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM
// RUN: stark-opt %s --stark-substitute 2>/dev/null | mlir-opt --gpu-to-llvm --reconcile-unrealized-casts | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR
// RUN: stark-opt %s --stark-substitute 2>/dev/null | mlir-opt --gpu-lower-to-nvvm-pipeline | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// LLVM-LABEL: llvm.func @program
// LLVM: llvm.call @stark_kernel_00000000000000cc(
// LLVM: gpu.binary @stark_kernel_00000000000000cc_bin [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, bin =
// LLVM-LABEL: llvm.func @stark_kernel_00000000000000cc
// The aligned pointer is field 1 of a memref descriptor.
// LLVM: %[[XA:.+]] = llvm.extractvalue %{{.+}}[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// LLVM-NEXT: %[[XI:.+]] = llvm.ptrtoint %[[XA]] : !llvm.ptr to i64
// LLVM-NEXT: %[[XP:.+]] = llvm.inttoptr %[[XI]] : i64 to !llvm.ptr
// LLVM-NEXT: %[[YA:.+]] = llvm.extractvalue %{{.+}}[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// LLVM-NEXT: %[[YI:.+]] = llvm.ptrtoint %[[YA]] : !llvm.ptr to i64
// LLVM-NEXT: %[[YP:.+]] = llvm.inttoptr %[[YI]] : i64 to !llvm.ptr
// LLVM-NEXT: %[[STREAM:.+]] = llvm.call @mgpuStreamCreate()
// LLVM: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @stark_kernel_00000000000000cc_bin::@scale blocks in ({{.+}}) threads in ({{.+}}) : i64 args(%[[XP]] : !llvm.ptr, %[[YP]] : !llvm.ptr)
// LLVM-NEXT: llvm.call @mgpuStreamSynchronize(%[[STREAM]])
// LLVM-NEXT: llvm.call @mgpuStreamDestroy(%[[STREAM]])
// LLVM-NOT: memref.
// LLVM-NOT: gpu.wait

// IR: @stark_kernel_00000000000000cc_bin_binary = internal constant [{{[0-9]+}} x i8] c"\7FELF
// IR-LABEL: define void @program(
// IR: call void @stark_kernel_00000000000000cc(
// IR-LABEL: define void @stark_kernel_00000000000000cc(
// IR: call ptr @mgpuStreamCreate()
// IR: %[[FN:.+]] = call ptr @mgpuModuleGetFunction(ptr %{{.+}}, ptr @stark_kernel_00000000000000cc_bin_scale_name)
// IR: call void @mgpuLaunchKernel(ptr %[[FN]], i64 4, i64 1, i64 1, i64 256, i64 1, i64 1, i32 0, ptr %{{.+}}, ptr %{{.+}}, ptr null, i64 2)
// IR: call void @mgpuStreamSynchronize(
// IR: call ptr @mgpuModuleLoad(ptr @stark_kernel_00000000000000cc_bin_binary, i64 {{[0-9]+}})
func.func @program(%x: memref<1000xf32>, %y: memref<1000xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      {stark.problem = @stark_problem_0}
      ins(%x : memref<1000xf32>) outs(%y : memref<1000xf32>) {
  ^bb0(%v: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %m = arith.mulf %v, %two : f32
    linalg.yield %m : f32
  }
  return
}
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "1000xf32->1000xf32", signature = "00000000000000cc00000000000000cc">, stark.winner = #stark.winner<baseline_us = 3.0, candidate = 4, params = {}, speedup = 3.0, strategy = "elementwise", target = "cuda", winner_us = 1.0>} {
  func.func @kernel(%x: memref<1000xf32>, %y: memref<1000xf32>) {
    return
  }
  module @winner {
    func.func @kernel(%x: memref<1000xf32>, %y: memref<1000xf32>) attributes {stark.cuda = #stark.cuda<
        source = "extern \22C\22 __global__ void scale(const float *x, float *y) {\0A  int i = blockIdx.x * blockDim.x + threadIdx.x;\0A  if (i < 1000) y[i] = 2.0f * x[i];\0A}\0A",
        launches = [#stark.launch<kernel = "scale", grid = array<i64: 4>, block = array<i64: 256>>]>} {
      return
    }
  }
}

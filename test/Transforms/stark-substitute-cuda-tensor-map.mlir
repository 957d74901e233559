// REQUIRES: nvrtc, mlir-runner
// A substituted CUDA C++ winner whose launch takes a tensor map: the host
// function makes it with upstream's nvgpu.tma.create.descriptor over the
// argument seen as the map's shape and passes its device address after the
// arguments' pointers. Upstream's gpu-lower-to-nvvm-pipeline lowers that
// to a call of mgpuTensorMapEncodeTiledMemref (the cuda target's runtime
// has one with the same signature).
// RUN: stark-opt %s --stark-substitute 2>/dev/null | FileCheck %s
// RUN: stark-opt %s --stark-substitute 2>/dev/null | mlir-opt --gpu-lower-to-nvvm-pipeline | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func private @stark_kernel_00000000000000dd(
// CHECK-SAME: %[[X:.+]]: memref<256x64xbf16>, %{{.+}}: memref<256x64xbf16>)
// CHECK: %[[VIEW:.+]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [1, 256, 64], strides: [16384, 64, 1] : memref<256x64xbf16> to memref<1x256x64xbf16, strided<[16384, 64, 1]>>
// CHECK: %[[CAST:.+]] = memref.cast %[[VIEW]] : memref<1x256x64xbf16, strided<[16384, 64, 1]>> to memref<*xbf16>
// CHECK: %[[MAP:.+]] = nvgpu.tma.create.descriptor %[[CAST]] box[%{{.+}}, %{{.+}}, %{{.+}}] : memref<*xbf16> -> <tensor = memref<1x128x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
// CHECK: %[[PTR:.+]] = builtin.unrealized_conversion_cast %[[MAP]] : {{.+}} to !llvm.ptr
// CHECK: gpu.launch_func {{.+}}@copy {{.+}}args(%{{.+}} : !llvm.ptr, %{{.+}} : !llvm.ptr, %[[PTR]] : !llvm.ptr)

// LLVM: %[[ENCODED:.+]] = llvm.call @mgpuTensorMapEncodeTiledMemref(
// LLVM: gpu.launch_func {{.+}}args(%{{.+}} : !llvm.ptr, %{{.+}} : !llvm.ptr, %[[ENCODED]] : !llvm.ptr)
func.func @program(%x: memref<256x64xbf16>, %y: memref<256x64xbf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      {stark.problem = @stark_problem_0}
      ins(%x : memref<256x64xbf16>) outs(%y : memref<256x64xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    linalg.yield %v : bf16
  }
  return
}
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "256x64xbf16->256x64xbf16", signature = "00000000000000dd00000000000000dd">, stark.winner = #stark.winner<baseline_us = 3.0, candidate = 4, params = {}, speedup = 3.0, strategy = "copy", target = "cuda", winner_us = 1.0>} {
  func.func @kernel(%x: memref<256x64xbf16>, %y: memref<256x64xbf16>) {
    return
  }
  module @winner {
    func.func @kernel(%x: memref<256x64xbf16>, %y: memref<256x64xbf16>) attributes {stark.cuda = #stark.cuda<
        source = "extern \22C\22 __global__ void copy(const unsigned short *x, unsigned short *y, const void *map) {\0A  int i = blockIdx.x * blockDim.x + threadIdx.x;\0A  if (i < 256 * 64) y[i] = x[i];\0A}\0A",
        launches = [#stark.launch<kernel = "copy", grid = array<i64: 64>, block = array<i64: 256>, tensor_maps = [#stark.tensor_map<arg = 0, shape = array<i64: 1, 256, 64>, box = array<i64: 1, 128, 64>>]>]>} {
      return
    }
  }
}

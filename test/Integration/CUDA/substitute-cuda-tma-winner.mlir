// A substituted winner whose launch takes tensor maps (gemm_wgmma_tma)
// computes what its problem computes: stark-substitute makes each map in
// the host code with nvgpu.tma.create.descriptor over the argument seen as
// the map's shape, and the cuda target's runtime encodes it
// (mgpuTensorMapEncodeTiledMemref) before the launch.
// RUN: stark-template --problem %S/templates/Inputs/matmul-2048x512-bf16.mlir --family gemm_wgmma_tma > %t.tma.mlir
// RUN: python3 %S/Inputs/with_winner.py %S/Inputs/substitute-matmul-bf16-program.mlir %t.tma.mlir > %t.tma-program.mlir
// RUN: stark-opt %t.tma-program.mlir --stark-substitute > %t.tma-substituted.mlir
// RUN: FileCheck %s --check-prefix=TMA < %t.tma-substituted.mlir
// RUN: stark-eval --target cuda --no-timing --problem %S/templates/Inputs/matmul-2048x512-bf16.mlir --candidate %t.tma-substituted.mlir | FileCheck %s

// CHECK: status: ok

// TMA: nvgpu.tma.create.descriptor {{.*}} box[%{{.*}}, %{{.*}}, %{{.*}}] : memref<*xbf16> -> <tensor = memref<1x128x64xbf16
// TMA: nvgpu.tma.create.descriptor {{.*}} : memref<*xbf16> -> <tensor = memref<1x64x64xbf16
// TMA: gpu.launch_func {{.*}}@stark_gemm_wgmma_tma {{.*}}args({{.*}} : !llvm.ptr, {{.*}} : !llvm.ptr, {{.*}} : !llvm.ptr, {{.*}} : !llvm.ptr, {{.*}} : !llvm.ptr)

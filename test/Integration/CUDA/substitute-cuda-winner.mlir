// A substituted CUDA C++ winner computes what its problem computes: the
// program, with the winner spliced into its problem, goes through
// stark-substitute (gpu.binary + gpu.launch_func), and the result is
// evaluated as a candidate of the problem. The cuda target lowers it with
// lowerModuleForCuda: the winner's binary is loaded as it is, the host
// function launches its kernels.
//
// Two launches of a template kernel (name expressions) with dynamic shared
// memory, each over part of K, from NVRTC's cubin:
// RUN: python3 %S/Inputs/cuda_candidate.py %S/templates/Inputs/matmul-255x129x191.mlir %S/Inputs/matmul-split-k.cu -D M=255 -D K=129 -D N=191 > %t.split.mlir
// RUN: python3 %S/Inputs/with_winner.py %S/Inputs/substitute-matmul-program.mlir %t.split.mlir > %t.split-program.mlir
// RUN: stark-opt %t.split-program.mlir --stark-substitute > %t.split-substituted.mlir
// RUN: FileCheck %s --check-prefix=SPLIT < %t.split-substituted.mlir
// RUN: stark-eval --target cuda --no-timing --problem %S/templates/Inputs/matmul-255x129x191.mlir --candidate %t.split-substituted.mlir | FileCheck %s
//
// The same as PTX, which the driver compiles when the module is loaded:
// RUN: stark-opt %t.split-program.mlir --stark-substitute=cuda-format=ptx > %t.split-ptx.mlir
// RUN: FileCheck %s --check-prefix=PTX < %t.split-ptx.mlir
// RUN: stark-eval --target cuda --no-timing --problem %S/templates/Inputs/matmul-255x129x191.mlir --candidate %t.split-ptx.mlir | FileCheck %s
//
// A winner from stark's GEMM template:
// RUN: stark-template --problem %S/templates/Inputs/matmul-255x129x191.mlir --family gemm > %t.gemm.mlir
// RUN: python3 %S/Inputs/with_winner.py %S/Inputs/substitute-matmul-program.mlir %t.gemm.mlir > %t.gemm-program.mlir
// RUN: stark-opt %t.gemm-program.mlir --stark-substitute > %t.gemm-substituted.mlir
// RUN: FileCheck %s --check-prefix=GEMM < %t.gemm-substituted.mlir
// RUN: stark-eval --target cuda --no-timing --problem %S/templates/Inputs/matmul-255x129x191.mlir --candidate %t.gemm-substituted.mlir | FileCheck %s

// CHECK: status: ok

// SPLIT-LABEL: func.func @kernel
// SPLIT-NEXT: call @stark_kernel_5ab57177e5ab5717
// SPLIT-NOT: linalg.matmul
// SPLIT: gpu.binary @stark_kernel_5ab57177e5ab5717_bin [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, bin =
// SPLIT: gpu.launch_func async {{.+}} @stark_kernel_5ab57177e5ab5717_bin::@_Z11matmul_partILi0ELi64EEvPKfS1_Pf blocks in {{.+}} dynamic_shared_memory_size
// SPLIT: gpu.launch_func async {{.+}} @stark_kernel_5ab57177e5ab5717_bin::@_Z11matmul_partILi64ELi129EEvPKfS1_Pf blocks in {{.+}} dynamic_shared_memory_size

// PTX: gpu.binary @stark_kernel_5ab57177e5ab5717_bin [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, assembly =

// GEMM: gpu.binary @stark_kernel_5ab57177e5ab5717_bin
// GEMM: gpu.launch_func async {{.+}} @stark_kernel_5ab57177e5ab5717_bin::@stark_gemm

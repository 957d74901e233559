// gemm_wgmma: the Hopper wgmma GEMM family. Its source (GemmWgmma.cuh with
// the generated entry) compiles with nvcc for sm_90a without a GPU; the
// candidate names the family, its parameters and its launch; it is the
// first family of a row-major bf16 matmul and declines A B^T, whose B is
// contiguous along k, with the reason.

// RUN: stark-template --problem %s --family gemm_wgmma | FileCheck %s
// RUN: stark-template --problem %s --list | FileCheck %s --check-prefix=LIST
// RUN: not stark-template --problem %S/Inputs/templates/matmul-transpose-b-f16.mlir --family gemm_wgmma 2>&1 | FileCheck %s --check-prefix=TB
// RUN: stark-template --problem %s --source > %t.cu
// RUN: %if nvcc %{ %nvcc-compile %t.cu -o %t.o %}

// CHECK: stark.cuda = #stark.cuda<family = "gemm_wgmma", launches = [#stark.launch<block = array<i64: 384, 1, 1>, grid = array<i64: 512, 1, 1>, kernel = "stark_gemm_wgmma", shared_bytes = 197632>], params = {bn = "256", group_m = "8", stages = "4"}

// LIST: gemm_wgmma: {{[0-9]+}} parameter sets
// LIST-NEXT: bn=256,group_m=8,stages=4

// TB: family 'gemm_wgmma' does not apply to linalg.matmul: gemm_wgmma needs B contiguous along n (row-major B)

module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "4096x4096xbf16,4096x4096xbf16->4096x4096xf32", signature = "0">} {
  func.func @kernel(%a: memref<4096x4096xbf16>, %b: memref<4096x4096xbf16>, %c: memref<4096x4096xf32>) {
    linalg.matmul ins(%a, %b : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%c : memref<4096x4096xf32>)
    return
  }
}

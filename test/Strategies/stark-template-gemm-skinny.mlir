// gemm_skinny on f32 contractions with at most 16 rows of output: VGG-16's
// first classifier layer at batch 1 (1 x 25088 times 25088 x 4096, the fill
// and the bias) goes to it first, ahead of the GEMM tiles, with a strip of
// 1024 columns per block (256 threads, 16-byte loads of B) and k in slices
// for about four blocks per SM; the slices' sums are added by the split-K
// pass, which runs the bias epilogue. B along k (a linear layer's weight)
// takes the warp-per-column walk: scalar where A's and B's rows are not
// 16-byte multiples (k = 1030), vectors where they are (k = 2052). With
// many rows and at most 16 columns the kernel walks the transposed product
// (SkinnyConfig's last flag): a linear layer to 3 features with its bias
// goes to it first; a plain matrix times a vector goes to reduce_row first
// and to it next. The sources compile with nvcc for sm_90a; bad parameters
// and problems with more rows and columns are refused with the reason.

// RUN: stark-template --problem %s --list | FileCheck %s --check-prefix=LIST
// RUN: stark-template --problem %s --family gemm_skinny | FileCheck %s --check-prefix=PLAN
// RUN: stark-template --problem %s --family gemm_skinny --source | FileCheck %s --check-prefix=SRC
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/linear-f32-rows5-k1030.mlir --family gemm_skinny --source | FileCheck %s --check-prefix=ALONGK
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-linear-f32-rows8.mlir --family gemm_skinny --source | FileCheck %s --check-prefix=ALONGK-VEC
// RUN: stark-template --problem %s --family gemm_skinny --source > %t.kn.cu
// RUN: %if nvcc %{ %nvcc-compile -include cstdint %t.kn.cu -o %t.kn.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/linear-f32-rows5-k1030.mlir --family gemm_skinny --source > %t.k.cu
// RUN: %if nvcc %{ %nvcc-compile -include cstdint %t.k.cu -o %t.k.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-linear-f32-rows8.mlir --family gemm_skinny --source > %t.kvec.cu
// RUN: %if nvcc %{ %nvcc-compile -include cstdint %t.kvec.cu -o %t.kvec.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/vecmat.mlir --family gemm_skinny --source > %t.vecmat.cu
// RUN: %if nvcc %{ %nvcc-compile -include cstdint %t.vecmat.cu -o %t.vecmat.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-linear-f32-cols3-bias.mlir --list | FileCheck %s --check-prefix=SWAP-LIST
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-linear-f32-cols3-bias.mlir --family gemm_skinny --source > %t.swap.cu
// RUN: FileCheck %s --check-prefix=SWAP < %t.swap.cu
// RUN: %if nvcc %{ %nvcc-compile -include cstdint %t.swap.cu -o %t.swap.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/matvec.mlir --list | FileCheck %s --check-prefix=MATVEC
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/matvec.mlir --family gemm_skinny --source > %t.matvec.cu
// RUN: %if nvcc %{ %nvcc-compile -include cstdint %t.matvec.cu -o %t.matvec.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-conv1x1-pixel-bias-hardsigmoid.mlir --family gemm_skinny --source > %t.conv.cu
// RUN: %if nvcc %{ %nvcc-compile -include cstdint %t.conv.cu -o %t.conv.o %}
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-linear-f32-cols3-bias.mlir --family gemm_skinny --params bm=2 2>&1 | FileCheck %s --check-prefix=COLS
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/linear-f32-rows5-k1030.mlir --family gemm_skinny --params bm=4 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not stark-template --problem %s --family gemm_skinny --params bn=512 2>&1 | FileCheck %s --check-prefix=STRIP
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/linear-f32-rows5-k1030.mlir --family gemm_skinny --params bn=8,bk=64 2>&1 | FileCheck %s --check-prefix=LANES
// RUN: not stark-template --problem %s --family gemm_skinny --params split_k=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-linear-f32-bias-relu.mlir --family gemm_skinny 2>&1 | FileCheck %s --check-prefix=TALL

// LIST: gemm_skinny: 18 parameter sets
// LIST-NEXT: bk=8,bm=1,bn=1024,split_k=131,threads=256
// LIST-NEXT: bk=8,bm=1,bn=1024,split_k=262,threads=256
// LIST-NEXT: bk=8,bm=1,bn=1024,split_k=66,threads=256
// LIST: gemm_3xtf32:

// PLAN: launches = [#stark.launch<block = array<i64: 256, 1, 1>, grid = array<i64: 4, 131, 1>, kernel = "stark_gemm_skinny">, #stark.launch<block = array<i64: 256, 1, 1>, grid = array<i64: 16, 1, 1>, kernel = "stark_gemm_splitk_reduce">]
// PLAN-SAME: params = {bk = "8", bm = "1", bn = "1024", split_k = "131", threads = "256"}

// SRC: typedef stark_kernels::SkinnyConfig<1, 1024, 8, 256, false> StarkConfig;
// SRC: constexpr int SPLIT_K = 131, K_PER_SPLIT = 192;
// SRC: __launch_bounds__(StarkConfig::kThreads, 4) stark_gemm_skinny(
// SRC: stark_kernels::gemmSkinnyBlock<StarkConfig, false, false, true, StarkLayout>
// SRC: stark_gemm_splitk_reduce(
// SRC-NEXT: stark_kernels::detail::splitKReduce(

// ALONGK: typedef stark_kernels::SkinnyConfig<8, 8, 32, 256, false> StarkConfig;
// ALONGK: stark_kernels::gemmSkinnyBlock<StarkConfig, false, true, false, StarkLayout>
// ALONGK-VEC: typedef stark_kernels::SkinnyConfig<8, 4, 128, 128, false> StarkConfig;
// ALONGK-VEC: stark_kernels::gemmSkinnyBlock<StarkConfig, false, true, true, StarkLayout>

// SWAP-LIST: gemm_skinny: 10 parameter sets
// SWAP-LIST-NEXT: bk=128,bm=4,bn=4,split_k=4,threads=128
// SWAP: typedef stark_kernels::SkinnyConfig<4, 4, 128, 128, true> StarkConfig;
// SWAP: stark_kernels::gemmSkinnyBlock<StarkConfig, false, true, true, StarkLayout>
// MATVEC: reduce_row:
// MATVEC: gemm_skinny:
// MATVEC: gemm_3xtf32:

// COLS: bm must cover the 3 columns of output and be at most 16
// ROWS: bm must cover the 5 rows of output and be at most 16
// STRIP: with B along n, bn is threads times 4 columns and bk in [1, 16]
// LANES: with B along k, bk is 32 lanes of 1 elements (32) and bn 1 to 8 columns per warp
// ZERO: split_k must be at least 1 (got 0)
// TALL: gemm_skinny takes at most 16 rows or columns of output (m = 200, n = 300)

module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "linalg.fill + linalg.matmul + linalg.generic", shapes = "1x25088xf32,25088x4096xf32,4096xf32->1x4096xf32", signature = "0">} {
  func.func @kernel(%a: memref<1x25088xf32>, %w: memref<25088x4096xf32>, %b: memref<4096xf32>, %c: memref<1x4096xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<1x4096xf32>)
    linalg.matmul ins(%a, %w : memref<1x25088xf32>, memref<25088x4096xf32>) outs(%c : memref<1x4096xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : memref<4096xf32>) outs(%c : memref<1x4096xf32>) {
    ^bb0(%y: f32, %o: f32):
      %s = arith.addf %o, %y : f32
      linalg.yield %s : f32
    }
    return
  }
}

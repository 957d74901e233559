// Split-K in gemm_wgmma_3xtf32: BERT's second FFN matmul (128 x 768 x 3072)
// has six 128 x 128 tiles for 132 SMs, so the enumeration puts twelve slices
// of k (eight k tiles of 32 each) first; the plan launches the GEMM with the
// slices in grid.y and then the sums, which run the fill's store stage.
// LLaMA's gate projection (512 x 5632 x 2048, 176 tiles) fills the SMs but
// leaves its second wave two-thirds empty: three slices (528 blocks, four
// full waves) come first. The split sources compile with nvcc for sm_90a
// (the fill, an epilogue, a K x N B). Bad counts are refused with the
// reason.

// RUN: stark-template --problem %s --list | FileCheck %s --check-prefix=LIST
// RUN: stark-template --problem %s --family gemm_wgmma_3xtf32 | FileCheck %s --check-prefix=PLAN
// RUN: stark-template --problem %s --family gemm_wgmma_3xtf32 --source | FileCheck %s --check-prefix=SRC
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/matmul-f32-kn-k2048.mlir --list | FileCheck %s --check-prefix=KN
// RUN: stark-template --problem %S/Inputs/templates/fill-linear-f32-gate.mlir --list | FileCheck %s --check-prefix=WAVES
// RUN: stark-template --problem %s --family gemm_wgmma_3xtf32 --source > %t.fill.cu
// RUN: %if nvcc %{ %nvcc-compile %t.fill.cu -o %t.fill.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-linear-f32-bias-relu.mlir --family gemm_wgmma_3xtf32 --params stages=3,group_m=8,split_k=4 --source > %t.epi.cu
// RUN: %if nvcc %{ %nvcc-compile %t.epi.cu -o %t.epi.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-batch-matmul-f32-kn-ragged.mlir --family gemm_wgmma_3xtf32 --params stages=3,group_m=8,split_k=2 --source > %t.kn.cu
// RUN: %if nvcc %{ %nvcc-compile %t.kn.cu -o %t.kn.o %}
// RUN: not stark-template --problem %s --family gemm_wgmma_3xtf32 --params split_k=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not stark-template --problem %s --family gemm_wgmma_3xtf32 --params split_k=50 2>&1 | FileCheck %s --check-prefix=EMPTY

// LIST: gemm_wgmma_3xtf32: 6 parameter sets
// LIST-NEXT: group_m=8,producers=2,split_k=12,stages=4
// LIST-NEXT: group_m=8,producers=1,split_k=12,stages=4
// LIST-NEXT: group_m=8,producers=2,split_k=12,stages=3
// LIST-NEXT: group_m=8,producers=2,split_k=1,stages=4

// PLAN: launches = [#stark.launch<block = array<i64: 512, 1, 1>, grid = array<i64: 6, 12, 1>, kernel = "stark_gemm_wgmma_3xtf32", shared_bytes = 197632>, #stark.launch<block = array<i64: 256, 1, 1>, grid = array<i64: 384, 1, 1>, kernel = "stark_gemm_splitk_reduce">]
// PLAN-SAME: split_k = "12"

// SRC: constexpr int SPLIT_K = 12, K_TILES_PER_SPLIT = 8;
// SRC: __device__ float stark_gemm_ws[SPLIT_K * BATCH * M * N];
// SRC: stark_gemm_wgmma_3xtf32(const float* __restrict__ arg0, const float* __restrict__ arg1, float* __restrict__ arg2) {
// SRC: p.ws = stark_gemm_ws, p.batches = (int)BATCH, p.splits = SPLIT_K, p.kTilesPerSplit = K_TILES_PER_SPLIT;
// SRC: StarkStore st;
// SRC: stark_kernels::gemmWgmmaTf32Block<StarkConfig>(p, st);
// SRC: __launch_bounds__(256) stark_gemm_splitk_reduce(const float* __restrict__ arg0, const float* __restrict__ arg1, float* __restrict__ arg2) {
// SRC: p.ws = stark_gemm_ws, p.batches = (int)BATCH, p.splits = SPLIT_K, p.kTilesPerSplit = K_TILES_PER_SPLIT;
// SRC: StarkStore st;
// SRC: stark_kernels::wgmmaSplitKReduce(p, st);

// A 512 x 1024 x 2048 matmul with B K x N: 32 tiles, so slices for one
// wave (5) and for two (8) come before the unsplit kernel (three stages
// only: a K x N B takes a fourth tile a stage).
// KN: gemm_wgmma_3xtf32: 3 parameter sets
// KN-NEXT: group_m=8,producers=2,split_k=4,stages=3
// KN-NEXT: group_m=8,producers=2,split_k=8,stages=3
// KN-NEXT: group_m=8,producers=2,split_k=1,stages=3

// WAVES: gemm_wgmma_3xtf32: 6 parameter sets
// WAVES-NEXT: group_m=8,producers=2,split_k=3,stages=4
// WAVES-NEXT: group_m=8,producers=1,split_k=3,stages=4
// WAVES-NEXT: group_m=8,producers=2,split_k=3,stages=3
// WAVES-NEXT: group_m=8,producers=2,split_k=1,stages=4

// ZERO: split_k must be at least 1 (got 0)
// EMPTY: split_k = 50 leaves slices empty

module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.matmul", shapes = "128x3072xf32,768x3072xf32->128x768xf32", signature = "0">} {
  func.func @kernel(%a: memref<128x3072xf32>, %b: memref<768x3072xf32>, %c: memref<128x768xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<128x768xf32>)
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<128x3072xf32>, memref<768x3072xf32>) outs(%c : memref<128x768xf32>)
    return
  }
}

// Split-K in the families over the embedded GEMM kernels: where the output
// has too few tiles for the SMs and k is long, the enumeration proposes
// slices of k (one wave of blocks first); a split plan launches the GEMM with
// the slices in grid.y, then the reduction that adds them to C; bad counts
// are refused with the reason.

// RUN: stark-template --problem %s --list | FileCheck %s --check-prefix=LIST
// RUN: stark-template --problem %s --family gemm_3xtf32 | FileCheck %s --check-prefix=PLAN
// RUN: stark-template --problem %s --family gemm_f32 --params bm=64,bn=64,bk=16,wm=32,wn=32,tm=8,tn=4,stages=4,min_blocks=4,split_k=131 --source | FileCheck %s --check-prefix=SRC
// RUN: not stark-template --problem %s --family gemm_f32 --params split_k=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not stark-template --problem %s --family gemm_3xtf32 --params split_k=4097 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: not stark-template --problem %s --family gemm_3xtf32 --params split_k=4000 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not stark-template --problem %S/stark-template-gemm-kernels.mlir --family gemm_f32 --params split_k=2 2>&1 | FileCheck %s --check-prefix=WS

// The matmul_large_k of the suite: a 64 x 64 output, one 64 x 64 tile, so
// one wave of 132 slices of k (the counts measured best on the H200, with
// one slice per 1024 (3xtf32) or 1008 (f32) of k), then two waves.
// LIST: gemm_3xtf32: {{[0-9]+}} parameter sets
// LIST-NEXT: bk=32,bm=64,bn=64,group_m=8,split_k=128,stages=4,wm=32,wn=32
// LIST-NEXT: bk=32,bm=64,bn=64,group_m=8,split_k=128,stages=3,wm=32,wn=32
// LIST-NEXT: bk=32,bm=64,bn=64,group_m=8,split_k=256,stages=4,wm=32,wn=32
// LIST: gemm_f32: {{[0-9]+}} parameter sets
// LIST-NEXT: bk=16,bm=64,bn=64,group_m=8,min_blocks=4,split_k=131,stages=4,tm=8,tn=4,wm=32,wn=32

// PLAN: launches = [#stark.launch<block = array<i64: 128, 1, 1>, grid = array<i64: 1, 128, 1>, kernel = "stark_gemm_3xtf32", shared_bytes = 73728>, #stark.launch<block = array<i64: 256, 1, 1>, grid = array<i64: 16, 1, 1>, kernel = "stark_gemm_splitk_reduce">]
// PLAN-SAME: split_k = "128"

// 131 slices of 63 k tiles of 16 (the last one shorter), each writing its
// partial sums to the workspace; the reduction reads the same parameters.
// SRC: constexpr int SPLIT_K = 131, K_PER_SPLIT = 1008;
// SRC: __device__ float stark_gemm_ws[SPLIT_K * BATCH * M * N];
// SRC: p.ws = stark_gemm_ws;
// SRC-NEXT: p.splits = SPLIT_K, p.kPerSplit = K_PER_SPLIT, p.ldws = (int)N;
// SRC: stark_gemm_f32(const float* __restrict__ arg0, const float* __restrict__ arg1, float* __restrict__ arg2) {
// SRC-NEXT: stark_kernels::gemmF32SimtBlock<StarkConfig, false, false, true, StarkLayout>(stark_gemm_params(arg0, arg1, arg2));
// SRC: __global__ void __launch_bounds__(256) stark_gemm_splitk_reduce(const float* __restrict__ arg0, const float* __restrict__ arg1, float* __restrict__ arg2) {
// SRC-NEXT: stark_kernels::detail::splitKReduce(stark_gemm_params(arg0, arg1, arg2));

// ZERO: split_k must be at least 1 (got 0)
// MANY: split_k = 4097 exceeds the 4096 k tiles of depth 32 (k = 131072)
// EMPTY: split_k = 4000 leaves slices empty: slices of whole k tiles of depth 32 are 64 deep and cover k = 131072 in 2048
// The partial sums of two slices of a 4096 x 4096 output: 128 MiB.
// WS: split_k = 2 needs a workspace of 128 MiB for the partial sums (limit 64 MiB)

module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "64x131072xf32,131072x64xf32->64x64xf32", signature = "0">} {
  func.func @kernel(%a: memref<64x131072xf32>, %b: memref<131072x64xf32>, %c: memref<64x64xf32>) {
    linalg.matmul ins(%a, %b : memref<64x131072xf32>, memref<131072x64xf32>) outs(%c : memref<64x64xf32>)
    return
  }
}

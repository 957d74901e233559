// The two families over the embedded GEMM kernels (lib/Strategies/Kernels):
// gemm_f32 (SIMT fp32) and gemm_3xtf32 (fp32-accurate tensor cores).

// RUN: stark-template --problem %s --list | FileCheck %s --check-prefix=LIST
// RUN: stark-template --problem %s --family gemm_f32 | FileCheck %s --check-prefix=F32
// RUN: stark-template --problem %s --family gemm_f32 --source | FileCheck %s --check-prefix=F32-SRC
// RUN: stark-template --problem %s --family gemm_3xtf32 | FileCheck %s --check-prefix=TF32
// RUN: stark-template --problem %s --family gemm_3xtf32 --source | FileCheck %s --check-prefix=TF32-SRC
// RUN: stark-template --problem %S/Inputs/templates/conv-nhwc.mlir --family gemm_f32 --source | FileCheck %s --check-prefix=CONV
// RUN: stark-template --problem %S/Inputs/templates/conv-1x1-nchw-b1.mlir --family gemm_3xtf32 --source | FileCheck %s --check-prefix=CONV1X1
// RUN: not stark-template --problem %S/Inputs/templates/matmul-transpose-b-f16.mlir --family gemm_3xtf32 2>&1 | FileCheck %s --check-prefix=F16
// RUN: not stark-template --problem %s --family gemm_f32 --params tm=4 2>&1 | FileCheck %s --check-prefix=BADTILE

// Offered before the other GEMM families of an f32 matmul, best guess first.
// LIST: gemm_3xtf32: {{[0-9]+}} parameter sets
// LIST-NEXT: bk=32,bm=128,bn=128,group_m=8,split_k=1,stages=4,wm=64,wn=32
// LIST: gemm_f32: {{[0-9]+}} parameter sets
// LIST-NEXT: bk=8,bm=128,bn=256,group_m=8,min_blocks=1,split_k=1,stages=4,tm=8,tn=16,wm=32,wn=128
// LIST: gemm: {{[0-9]+}} parameter sets

// One block per 128x256 tile of C, 4 stages of 8 x (128 + 4 + 256 + 4) floats.
// F32-LABEL: func.func @kernel(
// F32-SAME: stark.cuda = #stark.cuda<family = "gemm_f32", launches = [#stark.launch<block = array<i64: 256, 1, 1>, grid = array<i64: 512, 1, 1>, kernel = "stark_gemm_f32", shared_bytes = 50176>], params = {bk = "8", bm = "128", bn = "256", group_m = "8", min_blocks = "1", split_k = "1", stages = "4", tm = "8", tn = "16", wm = "32", wn = "128"}

// The kernel text is inlined without its includes; the layout is affine and
// both operands take 16-byte copies; C accumulates.
// F32-SRC-NOT: #include "GemmCommon.cuh"
// F32-SRC: namespace stark_kernels {
// F32-SRC: struct SimtConfig {
// F32-SRC: __device__ __forceinline__ void gemmF32SimtBlock(GemmParams<Layout> p) {
// F32-SRC: struct StarkLayout {
// F32-SRC-NEXT: static constexpr bool kAffine = true;
// F32-SRC-NEXT: a_off(int b, int m, int k) const { return 0LL * b + 4096LL * m + 1LL * k + 0LL; }
// F32-SRC: typedef stark_kernels::SimtConfig<128, 256, 8, 32, 128, 8, 16, 4, 1> StarkConfig;
// F32-SRC-NOT: stark_gemm_ws
// F32-SRC: p.splits = 1, p.kPerSplit = (int)K, p.ldws = 0;
// F32-SRC-NEXT: p.groupM = 8;
// F32-SRC-NEXT: p.alpha = 1.f, p.beta = 1.f;
// F32-SRC: extern "C" __global__ void __launch_bounds__(StarkConfig::kThreads, 1) stark_gemm_f32(const float* __restrict__ arg0, const float* __restrict__ arg1, float* __restrict__ arg2) {
// F32-SRC-NEXT: stark_kernels::gemmF32SimtBlock<StarkConfig, false, false, true, StarkLayout>(stark_gemm_params(arg0, arg1, arg2));
// F32-SRC-NOT: stark_gemm_splitk_reduce

// 4 stages of 128 x (32 + 4) + 32 x (128 + 8) floats need the opt-in limit.
// TF32: stark.cuda = #stark.cuda<family = "gemm_3xtf32", launches = [#stark.launch<block = array<i64: 256, 1, 1>, grid = array<i64: 1024, 1, 1>, kernel = "stark_gemm_3xtf32", shared_bytes = 143360>], params = {bk = "32", bm = "128", bn = "128", group_m = "8", split_k = "1", stages = "4", wm = "64", wn = "32"}

// TF32-SRC: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// TF32-SRC: typedef stark_kernels::Tf32Config<128, 128, 32, 64, 32, 4> StarkConfig;
// TF32-SRC: stark_kernels::gemm3xTf32Block<StarkConfig, false, false, true, StarkLayout>(stark_gemm_params(arg0, arg1, arg2));

// Implicit GEMM: the decoded addresses, element copies.
// CONV: namespace stark_addr {
// CONV: __device__ __forceinline__ int a_off(int b, int m, int k) {
// CONV: static constexpr bool kAffine = false;
// CONV-NEXT: a_off(int b, int m, int k) const { return (long long)stark_addr::a_off(b, m, k); }
// CONV: StarkLayout>(stark_gemm_params(arg0, arg1, arg2));

// A batch-1 1x1 convolution (NCHW) is a plain product: the batch loop runs
// once and takes no part, a row of A is an output pixel, the pixels are one
// stride apart in the input and in the output.
// CONV1X1: struct StarkLayout {
// CONV1X1-NEXT: static constexpr bool kAffine = true;
// CONV1X1-NEXT: a_off(int b, int m, int k) const { return 0LL * b + 1LL * m + 196LL * k + 0LL; }
// CONV1X1-NEXT: b_off(int b, int k, int n) const { return 0LL * b + 1LL * k + 240LL * n + 0LL; }
// CONV1X1-NEXT: c_off(int b, int m, int n) const { return 0LL * b + 1LL * m + 196LL * n + 0LL; }

// F16: gemm_3xtf32 needs f32 operands and an f32 output

// BADTILE: a warp tile must hold 32 thread tiles

module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "4096x4096xf32,4096x4096xf32->4096x4096xf32", signature = "0">} {
  func.func @kernel(%a: memref<4096x4096xf32>, %b: memref<4096x4096xf32>, %c: memref<4096x4096xf32>) {
    linalg.matmul ins(%a, %b : memref<4096x4096xf32>, memref<4096x4096xf32>) outs(%c : memref<4096x4096xf32>)
    return
  }
}

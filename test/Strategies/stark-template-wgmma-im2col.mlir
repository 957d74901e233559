// gemm_wgmma_3xtf32 on a convolution: A (the input seen through the window)
// is not strided in (m, k), so a first launch gathers it into a row-major
// workspace (im2col) and the GEMM reads A from there, B (the filter) as
// N x K and C (NCHW, contiguous along the pixels) through the store stage
// of the fill. VGG-16's 512 -> 512 convolution at 28 x 28 (784 x 512 x
// 4608: 28 tiles for 132 SMs) takes nine slices of k first (252 blocks in
// two waves of 16 k tiles each; five slices would leave a third wave of
// eight blocks), then four (one wave of 36); the gather, the GEMM and the
// sums are the plan's three launches. At 14 x 14 (8 tiles) sixteen slices
// fill one wave (eighteen, the most the slices' depth allows, spill twelve
// blocks into a second). The 128 -> 128 convolution at 112 x 112 has 98
// tiles: two slices would run two waves of half the depth, no faster than
// one unsplit wave, so none is offered. A strided batch-1
// convolution with bias and relu stores through its epilogue. Both sources
// compile with nvcc for sm_90a. A batch of two images (C not strided over
// the batch and the pixels together) and a convolution that does not fill
// C first are declined with the reason.

// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-conv2d-nchw-512ch-28.mlir --list | FileCheck %s --check-prefix=LIST
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-conv2d-nchw-512ch-28.mlir --family gemm_wgmma_3xtf32 | FileCheck %s --check-prefix=PLAN
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-conv2d-nchw-512ch-14.mlir --list | FileCheck %s --check-prefix=LIST14
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-conv2d-nchw-128ch-112.mlir --list | FileCheck %s --check-prefix=LIST112
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-conv2d-nchw-512ch-28.mlir --family gemm_wgmma_3xtf32 --source > %t.vgg.cu
// RUN: FileCheck %s --check-prefix=SRC < %t.vgg.cu
// RUN: %if nvcc %{ %nvcc-compile %t.vgg.cu -o %t.vgg.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-conv2d-b1-bias-relu-k144.mlir --family gemm_wgmma_3xtf32 --source > %t.epi.cu
// RUN: FileCheck %s --check-prefix=EPI < %t.epi.cu
// RUN: %if nvcc %{ %nvcc-compile %t.epi.cu -o %t.epi.o %}
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-conv2d-nchw-dilated.mlir --family gemm_wgmma_3xtf32 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/conv-nchw-strided.mlir --family gemm_wgmma_3xtf32 2>&1 | FileCheck %s --check-prefix=NOFILL

// LIST: gemm_wgmma_3xtf32: 9 parameter sets
// LIST-NEXT: group_m=8,producers=2,split_k=9,stages=4
// LIST-NEXT: group_m=8,producers=1,split_k=9,stages=4
// LIST-NEXT: group_m=8,producers=2,split_k=9,stages=3
// LIST-NEXT: group_m=8,producers=2,split_k=4,stages=4

// LIST14: gemm_wgmma_3xtf32: 9 parameter sets
// LIST14-NEXT: group_m=8,producers=2,split_k=16,stages=4
// LIST14: group_m=8,producers=2,split_k=18,stages=4
// LIST14: group_m=8,producers=2,split_k=1,stages=4

// LIST112: gemm_wgmma_3xtf32: 3 parameter sets
// LIST112-NEXT: group_m=8,producers=2,split_k=1,stages=4
// LIST112-NOT: split_k=2

// PLAN: launches = [#stark.launch<block = array<i64: 256, 1, 1>, grid = array<i64: 8192, 1, 1>, kernel = "stark_gemm_im2col_a">, #stark.launch<block = array<i64: 512, 1, 1>, grid = array<i64: 28, 9, 1>, kernel = "stark_gemm_wgmma_3xtf32", shared_bytes = 197632>, #stark.launch<block = array<i64: 256, 1, 1>, grid = array<i64: 1568, 1, 1>, kernel = "stark_gemm_splitk_reduce">]

// SRC: constexpr long long M = 784, N = 512, K = 4608, BATCH = 1;
// SRC: typedef stark_kernels::WgmmaTf32Config<4, 8, false, 2> StarkConfig;
// SRC: long long c_off(int b, int m, int n) const { return 0LL * b + 1LL * m + 784LL * n + 0LL; }
// SRC: __device__ __align__(16) float stark_im2col[BATCH * M * K];
// SRC: stark_gemm_im2col_a(const float* __restrict__ arg0, const float* __restrict__ arg1, float* __restrict__ arg2) {
// SRC: stark_im2col[i] = A[stark_addr::a_off((int)(r / M), (int)(r % M), k)];
// SRC: stark_gemm_wgmma_3xtf32(
// SRC: p.A = stark_im2col + 0LL;
// SRC-NEXT: p.B = arg1 + 0LL;
// SRC: p.lda = 4608LL, p.ldb = 4608LL, p.ldc = 1LL;

// EPI: constexpr long long M = 289, N = 24, K = 144, BATCH = 1;
// EPI: static constexpr bool kEpilogue = true;
// EPI: __device__ __align__(16) float stark_im2col[BATCH * M * K];
// EPI: p.A = stark_im2col + 0LL;

// BATCH: gemm_wgmma_3xtf32 with A gathered first needs B and C strided in (batch, k, n) and (batch, m, n)
// NOFILL: gemm_wgmma_3xtf32 needs C contiguous along n, or a problem that fills C first

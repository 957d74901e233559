// A convolution with its epilogue (EpilogueView over an implicit GEMM), no
// GPU needed: m decodes into batch x output image, n into the output
// channels, k into input channels x filter window; the layout's a_off reads
// the input at oh * stride + kh, and epilogue() decodes the output point
// the same way, reads the per-channel bias (or a residual of the output's
// shape) there, computes the chain from the accumulated value and stores
// the output once. Only the families whose store stage takes the epilogue
// list parameter sets; the others decline, saying so.

// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-conv2d-bias-relu.mlir --list | FileCheck %s --check-prefix=LIST
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-conv2d-bias-relu.mlir --family gemm_f32 --source | FileCheck %s --check-prefix=NCHW
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-conv1d-bias-relu.mlir --family gemm_3xtf32 --source | FileCheck %s --check-prefix=NCW
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-conv2d-nhwc-residual-tanh.mlir --family gemm_f32 --source | FileCheck %s --check-prefix=NHWC
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-conv2d-bias-relu.mlir --family direct 2>&1 | FileCheck %s --check-prefix=DIRECT
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-conv2d-bias-relu.mlir --family gemm_f32 --source > %t.nchw.cu
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-conv1d-bias-relu.mlir --family gemm_3xtf32 --source > %t.ncw.cu
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-conv2d-nhwc-residual-tanh.mlir --family gemm_3xtf32 --source > %t.nhwc.cu
// RUN: %if nvcc %{ %nvcc-compile -include cstdint %t.nchw.cu -o %t.nchw.o %}
// RUN: %if nvcc %{ %nvcc-compile -include cstdint %t.ncw.cu -o %t.ncw.o %}
// RUN: %if nvcc %{ %nvcc-compile -include cstdint %t.nhwc.cu -o %t.nhwc.o %}

// LIST: gemm_3xtf32: {{[0-9]+}} parameter sets
// LIST: gemm_f32: {{[0-9]+}} parameter sets
// LIST: conv: {{[0-9]+}} parameter sets
// LIST: gemm: {{[0-9]+}} parameter sets
// LIST-NOT: parameter sets

// conv2d NCHW, stride 2, on 2x6x33x29 with 12x6x3x3 filters: m = 2 x 16 x
// 14 (n, oh, ow), n = 12 (f), k = 6 x 3 x 3 (c, kh, kw); the input's row
// stride 29 doubled for oh, its column stride doubled for ow.
// NCHW: The problem: C[b, m, n] = C_INIT + sum_k A[b, m, k] * B[b, k, n], the output the epilogue of C (fused(linalg.conv_2d_nchw_fchw,linalg.generic,linalg.generic)).
// NCHW: constexpr long long M = 448, N = 12, K = 54, BATCH = 1;
// NCHW: __device__ __forceinline__ int a_off(int b, int m, int k) {
// NCHW-NEXT: const int l0 = (m / 224);
// NCHW-NEXT: const int l2 = ((m / 14) % 16);
// NCHW-NEXT: const int l3 = (m % 14);
// NCHW-NEXT: const int l4 = (k / 9);
// NCHW-NEXT: const int l5 = ((k / 3) % 3);
// NCHW-NEXT: const int l6 = (k % 3);
// NCHW-NEXT: return (5742) * l0 + (58) * l2 + (2) * l3 + (957) * l4 + (29) * l5 + l6;
// NCHW: __device__ __forceinline__ int b_off(int b, int k, int n) {
// NCHW: return (9) * l4 + (3) * l5 + l6 + (54) * l1;
// NCHW: __device__ __forceinline__ int c_off(int b, int m, int n) {
// NCHW: return (2688) * l0 + (14) * l2 + l3 + (224) * l1;
// NCHW: struct StarkLayout {
// NCHW-NEXT: static constexpr bool kAffine = false;
// NCHW: static constexpr bool kEpilogue = true;
// NCHW-NEXT: const float *arg2 = nullptr;
// NCHW-NEXT: float *arg3 = nullptr;
// NCHW-NEXT: __device__ __forceinline__ void epilogue(int b, int m, int n, float acc) const {
// NCHW-NEXT: const int l0 = ((int)m / 224);
// NCHW-NEXT: const int l2 = (((int)m / 14) % 16);
// NCHW-NEXT: const int l3 = ((int)m % 14);
// NCHW-NEXT: const int l1 = (int)n;
// NCHW-NEXT: const float x2 = stark_widen(arg2[l1]);
// NCHW-NEXT: const float [[S:e[0-9]+]] = (0.0f + acc);
// NCHW-NEXT: const float [[Y:e[0-9]+]] = ([[S]] + x2);
// NCHW-NEXT: const float [[R:e[0-9]+]] = stark_maximumf([[Y]], 0.0f);
// NCHW-NEXT: arg3[c_off(b, m, n)] = stark_cast<float>([[R]]);
// NCHW: p.A = arg0, p.B = arg1, p.C = nullptr;
// NCHW: p.lay.arg2 = arg2;
// NCHW-NEXT: p.lay.arg3 = arg3;

// conv1d NCW on 3x5x70 with 7x5x3 filters: m = 3 x 68 (n, l), k = 5 x 3.
// NCW: constexpr long long M = 204, N = 7, K = 15, BATCH = 1;
// NCW: return (350) * l0 + l2 + (70) * l3 + l4;
// NCW: void epilogue(int b, int m, int n, float acc) const {
// NCW-NEXT: const int l0 = ((int)m / 68);
// NCW-NEXT: const int l2 = ((int)m % 68);
// NCW-NEXT: const int l1 = (int)n;
// NCW-NEXT: const float x2 = stark_widen(arg2[l1]);
// NCW: stark_maximumf(

// conv2d NHWC from a fill of 0.5, + a residual read at the output point.
// NHWC: constexpr long long M = 112, N = 6, K = 45, BATCH = 1;
// NHWC: void epilogue(int b, int m, int n, float acc) const {
// NHWC-NEXT: const int l0 = ((int)m / 56);
// NHWC-NEXT: const int l1 = (((int)m / 7) % 8);
// NHWC-NEXT: const int l2 = ((int)m % 7);
// NHWC-NEXT: const int l3 = (int)n;
// NHWC-NEXT: const float x2 = stark_widen(arg2[(336) * l0 + (42) * l1 + (6) * l2 + l3]);
// NHWC-NEXT: const float [[S:e[0-9]+]] = (0.5f + acc);
// NHWC-NEXT: const float [[Y:e[0-9]+]] = ([[S]] + x2);
// NHWC-NEXT: const float [[T:e[0-9]+]] = tanhf([[Y]]);
// NHWC-NEXT: arg3[c_off(b, m, n)] = stark_cast<float>([[T]]);

// DIRECT: family 'direct' does not apply to fused(linalg.conv_2d_nchw_fchw,linalg.generic,linalg.generic): direct does not compute the element-wise ops after the contraction

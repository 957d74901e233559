// The conv family (direct convolution, docs/cuda-templates.md), no GPU
// needed: it is offered first for convolutions (a sliding window over the
// image) in NCHW / NCW layouts whose output rows are at least a warp wide,
// after the implicit-GEMM kernels for narrower rows, with or without an
// epilogue; its kernel
// reads the offsets of each reduction point from constant-memory tables,
// the image at the row's and the point's base, and writes C = init + sum,
// C += sum or the epilogue's output; it declines channels-last outputs,
// plain matmuls and parameters it cannot run, saying why; its sources
// compile with nvcc for sm_90a without warnings.

// RUN: stark-template --problem %S/Inputs/templates/fill-conv2d-nchw-wide.mlir --list | FileCheck %s --check-prefix=LIST
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-conv2d-bias-relu.mlir --list | FileCheck %s --check-prefix=NARROW
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/conv-nchw-strided.mlir --family conv --source | FileCheck %s --check-prefix=ACC
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-conv2d-nchw-dilated.mlir --family conv --params ft=4,pw=2,wf=2,wr=2,kch=16 | FileCheck %s --check-prefix=FILL
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-conv2d-bias-relu.mlir --family conv --source | FileCheck %s --check-prefix=EPI
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/conv-nhwc.mlir --family conv 2>&1 | FileCheck %s --check-prefix=NHWC
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/matmul-255x129x191.mlir --family conv 2>&1 | FileCheck %s --check-prefix=MATMUL
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/matmul-255x129x191.mlir --list | FileCheck %s --check-prefix=MATMUL-LIST
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/conv-nchw-strided.mlir --family conv --params ft=3 2>&1 | FileCheck %s --check-prefix=BAD-FT
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/conv-nchw-strided.mlir --family conv --params ft=16,pw=8 2>&1 | FileCheck %s --check-prefix=BAD-ACC
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/conv-nchw-strided.mlir --family conv --params wf=8,wr=8 2>&1 | FileCheck %s --check-prefix=BAD-THREADS
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/conv-nchw-strided.mlir --family conv --params ft=16,wf=8,kch=100 2>&1 | FileCheck %s --check-prefix=BAD-KCH
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/conv-nchw-strided.mlir --family conv --source > %t.acc.cu
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-conv2d-nchw-dilated.mlir --family conv --params ft=2,pw=8,wf=2,wr=2,kch=16 --source > %t.fill.cu
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-conv2d-bias-relu.mlir --family conv --params ft=16,pw=4,wf=2,wr=4,kch=54 --source > %t.epi.cu
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-conv1d-bias-relu.mlir --family conv --source > %t.ncw.cu
// RUN: %if nvcc %{ %nvcc-compile %t.acc.cu -o %t.acc.o %}
// RUN: %if nvcc %{ %nvcc-compile %t.fill.cu -o %t.fill.o %}
// RUN: %if nvcc %{ %nvcc-compile %t.epi.cu -o %t.epi.o %}
// RUN: %if nvcc %{ %nvcc-compile %t.ncw.cu -o %t.ncw.o %}

// Rows of 68 points: conv first.
// LIST: conv: {{[0-9]+}} parameter sets
// LIST: gemm_3xtf32: {{[0-9]+}} parameter sets
// LIST: gemm_f32: {{[0-9]+}} parameter sets

// Rows of 14 points (most lanes of a warp would idle): after the embedded
// GEMM kernels.
// NARROW: gemm_3xtf32: {{[0-9]+}} parameter sets
// NARROW: gemm_f32: {{[0-9]+}} parameter sets
// NARROW: conv: {{[0-9]+}} parameter sets

// conv2d NCHW 1x3x17x17 * 8x3x3x3, stride 2, accumulating into the output:
// m = 8 rows (n, oh) x 8 points (ow), n = 8 channels, k = 3 x 3 x 3 in
// mixed radix (c, kh, kw): the image offset c * 289 + kh * 17 + kw, the
// filter offset c * 9 + kh * 3 + kw; the image base of (n, oh, ow) is
// n * 867 + oh * 34 + ow * 2 (stride 2).
// The candidate carries Conv.cuh; the part generated for the problem is
// its config, the offset tables and the operands' accesses.
// ACC: namespace stark_kernels {
// ACC: void convBlock(ABase aBaseOf, AOffset aOffset,
// ACC: // Direct convolution: C[m, n] += sum_k A[m, k] * B[k, n] (linalg.conv_2d_nchw_fchw), m = 8 rows x 8 points.
// ACC: static constexpr Idx kX = 8, kRows = 8, kChannels = 8, kK = K;
// ACC: __constant__ idx_t kOffA[27] = {0, 1, 2, 17, 18, 19, 34, 35, 36, 289, 290, 291, 306, 307, 308, 323,
// ACC-NEXT: 324, 325, 578, 579, 580, 595, 596, 597, 612, 613, 614};
// ACC-NEXT: __constant__ idx_t kOffB[27] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
// ACC: __device__ __forceinline__ idx_t stark_a_base(idx_t row, idx_t x) {
// ACC-NEXT: const idx_t i0 = (row / 8);
// ACC-NEXT: const idx_t i2 = (row % 8);
// ACC-NEXT: const idx_t i3 = x;
// ACC-NEXT: return (867) * i0 + (34) * i2 + (2) * i3;
// ACC: __device__ __forceinline__ idx_t stark_b_base(idx_t n) {
// ACC-NEXT: const idx_t i1 = n;
// ACC-NEXT: return (27) * i1;
// ACC: auto loadA = [&](idx_t o) -> float { return stark_widen(__ldg(&arg0[o])); };
// ACC: return stark_widen(__ldg(&arg1[stark_b_base(f) + kOffB[k]]));
// ACC: const idx_t o = stark_addr::c_off(0, m, n);
// ACC-NEXT: arg2[o] = arg2[o] + sum;
// ACC: stark_kernels::convBlock<StarkConv>(aBase, aOffset, loadA, loadB, store);

// From a fill of 0.5 with dilations (2, 3) and strides (1, 2): k = 20 x 3 x
// 2, the image offset c * 520 + kh * 80 + kw * 3; 8 channels per block, so
// 9 channels take two channel tiles; one block per 2 rows.
// FILL: family = "conv", launches = [#stark.launch<block = array<i64: 128, 1, 1>, grid = array<i64: 18, 1, 1>, kernel = "stark_conv">], params = {ft = "4", kch = "16", pw = "2", wf = "2", wr = "2"}
// FILL-SAME: C[m, n] = C_INIT + sum_k
// FILL-SAME: constexpr float C_INIT = 0.5f;
// FILL-SAME: kOffA[120] = {0, 3, 80, 83, 160, 163, 520, 523,
// FILL-SAME: float *C = nullptr;
// FILL-SAME: void store(int b, int m, int n, float x) const { C[c_off(b, m, n)] = stark_cast<float>(C_INIT + x); }
// FILL-SAME: st.C = arg2;
// FILL-SAME: st.store(0, (int)m, (int)n, sum);

// With bias + relu after the convolution: the store stage evaluates them
// per output element and writes the chain's output, never the sum.
// EPI: C[m, n] feeds the epilogue, sum_k A[m, k] * B[k, n] (fused(linalg.conv_2d_nchw_fchw,linalg.generic,linalg.generic))
// EPI: struct StarkStore {
// EPI: void epilogue(int b, int m, int n, float acc) const {
// EPI: stark_maximumf(
// EPI: void store(int b, int m, int n, float x) const { epilogue(b, m, n, x); }
// EPI: StarkStore st;
// EPI-NEXT: st.arg2 = arg2;
// EPI-NEXT: st.arg3 = arg3;
// EPI: st.store(0, (int)m, (int)n, sum);
// EPI-NOT: arg3[o]

// NHWC: family 'conv' does not apply to linalg.conv_2d_nhwc_hwcf: conv needs the output contiguous along its last output point loop
// MATMUL: family 'conv' does not apply to linalg.matmul: conv needs the output contiguous along its last output point loop
// MATMUL-LIST-NOT: conv:
// BAD-FT: ft must be 1, 2, 4, 8 or 16
// BAD-ACC: ft x pw must be at most 64
// BAD-THREADS: 2048 threads per block (limit 1024)
// BAD-KCH: bytes of staged filter values must be in (0, 49152]

// stark-template turns a problem into the CUDA C++ candidate of one template
// family and parameter set (no GPU needed).

// RUN: stark-template --problem %s --family gemm --params bm=128,bn=128,bk=8,tm=8,tn=8 | FileCheck %s --check-prefix=GEMM
// RUN: stark-template --problem %s --family gemm --params bm=128,bn=128,bk=8,tm=8,tn=8 --source | FileCheck %s --check-prefix=GEMM-SRC
// RUN: stark-template --problem %s --list | FileCheck %s --check-prefix=LIST
// RUN: stark-template --problem %s --family gemm_tc --allow-tf32 --source | FileCheck %s --check-prefix=TF32
// RUN: stark-template --problem %S/Inputs/templates/matmul-odd.mlir --family gemm --params bm=32,bn=32,bk=8,tm=4,tn=4,double_buffer=0 | FileCheck %s --check-prefix=ODD
// RUN: stark-template --problem %S/Inputs/templates/matmul-transpose-b-f16.mlir --source | FileCheck %s --check-prefix=TC
// RUN: stark-template --problem %S/Inputs/templates/conv-nhwc.mlir --family gemm --source | FileCheck %s --check-prefix=CONV
// RUN: stark-template --problem %S/Inputs/templates/bias-gelu.mlir --params block=128,vec=4,per_thread=2 | FileCheck %s --check-prefix=EW
// RUN: stark-template --problem %S/Inputs/templates/bias-gelu.mlir --params block=128,vec=4,per_thread=2 --source | FileCheck %s --check-prefix=EW-SRC
// RUN: stark-template --problem %S/Inputs/templates/sum-squares.mlir --family reduce_row --params threads=256,rows=1,vec=4,split=8 | FileCheck %s --check-prefix=SPLIT
// RUN: stark-template --problem %S/Inputs/templates/col-max-f16.mlir --source | FileCheck %s --check-prefix=COL
// RUN: stark-template --problem %S/Inputs/templates/fill-col-max-f16.mlir --family reduce_col --source | FileCheck %s --check-prefix=COL-FILL
// RUN: stark-template --problem %S/Inputs/templates/fill-row-sum.mlir --family reduce_row --params threads=256,rows=1,vec=4,split=4 --source | FileCheck %s --check-prefix=ROW-FILL
// RUN: not stark-template --problem %S/Inputs/templates/fill-row-sum.mlir --family softmax 2>&1 | FileCheck %s --check-prefix=FILL-DECLINE
// RUN: stark-template --problem %S/Inputs/templates/softmax.mlir --params threads=32,rows=2,vec=4 | FileCheck %s --check-prefix=SOFTMAX
// RUN: stark-template --problem %S/Inputs/templates/softmax.mlir --list | FileCheck %s --check-prefix=SOFTMAX-LIST
// RUN: stark-template --problem %S/Inputs/templates/softmax.mlir --family fused_rows --params lanes=32,rows=4,cache=0 --source | FileCheck %s --check-prefix=SOFTMAX-ROWS
// RUN: stark-template --problem %S/Inputs/templates/softmax.mlir --params threads=32,rows=2,vec=4,cache=2 | FileCheck %s --check-prefix=SOFTMAX-SHARED
// RUN: stark-template --problem %S/Inputs/templates/softmax.mlir --params threads=32,rows=2,vec=4,cache=2 --source | FileCheck %s --check-prefix=SOFTMAX-SHARED-SRC
// RUN: not stark-template --problem %S/Inputs/templates/softmax.mlir --params threads=32,rows=2,vec=4,cache=3 2>&1 | FileCheck %s --check-prefix=SOFTMAX-CACHE
// RUN: stark-template --problem %S/Inputs/templates/depthwise.mlir --source | FileCheck %s --check-prefix=DW
// RUN: stark-template --problem %S/Inputs/templates/fill-depthwise.mlir --family direct --source | FileCheck %s --check-prefix=DW-FILL
// RUN: not stark-template --problem %S/Inputs/templates/bias-gelu.mlir --family gemm 2>&1 | FileCheck %s --check-prefix=NOGEMM
// RUN: not stark-template --problem %S/Inputs/templates/ctlz.mlir 2>&1 | FileCheck %s --check-prefix=NOBODY
// Attention only the attention family takes: where it declines, its reason
// (bf16 at head dim 40). Causal attention scans its inputs first.
// RUN: not stark-template --problem %S/Inputs/templates/attention-bf16-d40.mlir 2>&1 | FileCheck %s --check-prefix=ATTN-D40
// RUN: stark-template --problem %stark_src_root/test/Integration/CUDA/templates/Inputs/attention-bf16-causal-d128.mlir --source | FileCheck %s --check-prefix=CAUSAL
// RUN: not stark-template --problem %s --family gemm --params bm=128,bogus=1 2>&1 | FileCheck %s --check-prefix=BADPARAM
// RUN: not stark-template --problem %s --family gemm_tc 2>&1 | FileCheck %s --check-prefix=NOTF32
// RUN: not stark-template --problem %s --family softmax 2>&1 | FileCheck %s --check-prefix=NOSOFTMAX

// The candidate keeps the problem's entry and signature, drops the body and
// carries the source, the launches and where they came from.
// GEMM-LABEL: func.func @kernel(
// GEMM-SAME: %{{.+}}: memref<4096x4096xf32>, %{{.+}}: memref<4096x4096xf32>, %{{.+}}: memref<4096x4096xf32>)
// GEMM-SAME: stark.cuda = #stark.cuda<family = "gemm", launches = [#stark.launch<block = array<i64: 256, 1, 1>, grid = array<i64: 1024, 1, 1>, kernel = "stark_gemm">], params = {bk = "8", bm = "128", bn = "128", double_buffer = "1", group_m = "8", min_blocks = "1", tm = "8", tn = "8"}, source = "{{.*}}extern \22C\22 __global__ void __launch_bounds__(StarkConfig::kThreads, MIN_BLOCKS) stark_gemm(const float* __restrict__ arg0, const float* __restrict__ arg1, float* __restrict__ arg2)
// GEMM-NEXT: return
// GEMM-NEXT: }

// Row-major A and B: 16-byte loads of both, C updated 4 elements at a time.
// GEMM-SRC: constexpr long long M = 4096, N = 4096, K = 4096, BATCH = 1;
// GEMM-SRC-NEXT: constexpr bool C_FROM_INIT = false;
// GEMM-SRC: constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8, GROUP_M = 8;
// GEMM-SRC: constexpr int A_AXIS = 0, VA = 4, B_AXIS = 0, VB = 4, VC = 4;
// GEMM-SRC: typedef int idx_t;
// GEMM-SRC: return (4096) * l0 + l2;
// The kernel is GemmSimt.cuh, inlined, run by the entry on this problem.
// GEMM-SRC: struct StarkGemmProblem {
// GEMM-SRC: static constexpr long long M = 4096, N = 4096, K = 4096;
// GEMM-SRC-NEXT: static constexpr bool kInitOut = C_FROM_INIT;
// GEMM-SRC: return stark_addr::a_off(b, m, k);
// GEMM-SRC: namespace stark_kernels {
// GEMM-SRC: acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
// GEMM-SRC: (P::kInitOut ? P::kInit : (float)stark_widen(v.v[j])) +
// GEMM-SRC: __shared__ __align__(16) typename T::ATile As;
// GEMM-SRC: typedef stark_kernels::SimtGemmConfig<StarkGemmProblem, BM, BN, BK, TM, TN, GROUP_M, DOUBLE_BUFFER, MIN_BLOCKS, A_AXIS, VA, B_AXIS, VB, VC> StarkConfig;
// GEMM-SRC: stark_kernels::gemmSimtBlock<StarkConfig>(arg0, arg1, arg2);

// Without tf32 an f32 matmul has no tensor-core family.
// LIST-NOT: gemm_tc
// LIST: gemm: {{[0-9]+}} parameter sets
// LIST-NEXT: bk=8,bm=128,bn=128,double_buffer=1,group_m=8,min_blocks=2,tm=8,tn=8
// LIST: reduce_row:
// LIST: reduce_col:
// LIST: direct:

// TF32: static constexpr bool TF32 = true;
// TF32: typedef nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, FK, nvcuda::wmma::precision::tf32
// TF32: stark_kernels::gemmWmmaBlock<StarkWmma>(

// Sizes that divide nothing: guarded scalar loads, single buffer.
// ODD-LABEL: func.func @kernel(
// ODD-SAME: launches = [#stark.launch<block = array<i64: 64, 1, 1>, grid = array<i64: 2, 1, 1>, kernel = "stark_gemm">]
// ODD-SAME: constexpr bool DOUBLE_BUFFER = false;
// ODD-SAME: constexpr int A_AXIS = 0, VA = 1, B_AXIS = 0, VB = 1, VC = 1;

// f16 A B^T through WMMA: B is k-contiguous, so its tile is [BN][BK] and its
// fragments column-major; both copied with 16-byte cp.async.
// TC: typedef float TC;
// TC: constexpr int A_AXIS = 0, VA = 8, B_AXIS = 1, VB = 8;
// TC: typedef nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, FK, __half, nvcuda::wmma::row_major> FragA;
// TC: typedef nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, FK, __half, nvcuda::wmma::col_major> FragB;

// A convolution as an implicit matrix product: m decodes into (n, oh, ow),
// k into (kh, kw, c); the input is read 4 channels at a time.
// CONV: constexpr long long M = 512, N = 32, K = 144, BATCH = 1;
// CONV: constexpr int A_AXIS = 0, VA = 4
// CONV: a_off(idx_t b, idx_t m, idx_t k)
// CONV-NEXT: const idx_t l0 = (m / 256);
// CONV-NEXT: const idx_t l1 = ((m / 16) % 16);
// CONV-NEXT: const idx_t l2 = (m % 16);
// CONV-NEXT: const idx_t l4 = (k / 48);
// CONV-NEXT: const idx_t l5 = ((k / 16) % 3);
// CONV-NEXT: const idx_t l6 = (k % 16);
// CONV-NEXT: return (5184) * l0 + (288) * l1 + (16) * l2 + (288) * l4 + (16) * l5 + l6;

// EW-LABEL: func.func @kernel(
// EW-SAME: stark.cuda = #stark.cuda<family = "elementwise", launches = [#stark.launch<block = array<i64: 128, 1, 1>, grid = array<i64: 32, 1, 1>, kernel = "stark_elementwise">], params = {block = "128", per_thread = "2", vec = "4"}, source =

// The bias is the same for the 4 points of a vector along j only if j is
// not the vector's loop: here it is, so it is loaded as a vector too.
// EW-SRC: constexpr long long CHUNKS = 8192LL;
// EW-SRC: stark_kernels::gridStride<CHUNKS, BLOCK, PER_THREAD>([&](long long chunk) {
// EW-SRC: const StarkVec<float, VEC> x0 = stark_kernels::loadVec<VEC>(arg0 + p);
// EW-SRC: const StarkVec<float, VEC> x1 = stark_kernels::loadVec<VEC>(arg1 + i1);
// EW-SRC: const float v3 = (stark_widen(x0.v[j]) + stark_widen(x1.v[j]));
// EW-SRC: const float v6 = erff(v5);
// EW-SRC: r0.v[j] = stark_cast<float>(v11);
// EW-SRC: stark_kernels::storeVec<VEC>(arg2 + p, r0);

// A single row split over 8 blocks, then a second launch combines them.
// SPLIT: launches = [#stark.launch<block = array<i64: 256, 1, 1>, grid = array<i64: 1, 8, 1>, kernel = "stark_reduce_row">, #stark.launch<block = array<i64: 256, 1, 1>, grid = array<i64: 1, 1, 1>, kernel = "stark_reduce_row_finish">]

// Max over rows of an f16 matrix: one thread per column, f32 accumulator,
// NaN-propagating max, combined with the initial output.
// COL: struct StarkCombine {
// COL-NEXT: typedef float Acc;
// COL-NEXT: return stark_maximumf(a, b);
// COL-NEXT: return __int_as_float(0xff800000);
// COL: stark_kernels::forLaneVectors<SY, 1>((idx_t)0, LEN, threadIdx.y, [&](idx_t r) {
// COL: const float x0 = stark_widen(arg0[b0 + (130) * i0]);
// COL-NEXT: acc = StarkCombine()(acc, (acc_t)(x0));
// COL: acc = stark_kernels::reduceColumnThreads<StarkCombine, BX, SY>(acc);
// COL-NEXT: stark_kernels::accumulateInto<StarkCombine>(arg1 + o, acc);

// A reduction that owns the fill of its output writes fill (+) result and
// never reads the output.
// COL-FILL: constexpr idx_t OUTPUTS = 130, LEN = 300;
// COL-FILL-NOT: accumulateInto<StarkCombine>(
// COL-FILL: stark_kernels::storeFromInit<StarkCombine>(arg1 + o, (acc_t)(__int_as_float(0xff800000)), acc);
// ROW-FILL: constexpr idx_t ROWS = 77, LEN = 1000
// ROW-FILL: stark_reduce_row_finish(
// ROW-FILL-NOT: accumulateInto<StarkCombine>(
// ROW-FILL: stark_kernels::storeFromInit<StarkCombine>(arg1 + row, (acc_t)(1.5f), stark_kernels::combineParts<StarkCombine, SPLIT>(stark_partials + row * SPLIT));
// FILL-DECLINE: the problem fills its output before the linalg.reduce accumulates into it, and softmax would read the output instead

// SOFTMAX: launches = [#stark.launch<block = array<i64: 32, 2, 1>, grid = array<i64: 16, 1, 1>, kernel = "stark_softmax">]
// linalg.softmax is also read as its decomposition (a maxnum and a sum of
// exp(x - max), then exp(x - max) / sum), which fused_rows walks once per
// pass: the search measures it against the online kernel.
// SOFTMAX-LIST: softmax: {{[0-9]+}} parameter sets
// SOFTMAX-LIST: fused_rows: {{[0-9]+}} parameter sets
// SOFTMAX-ROWS: // Fused rows linalg.softmax: 32 rows of 1000, 2 reductions
// SOFTMAX-ROWS: // reduction 0 (maxnum)
// SOFTMAX-ROWS: acc0 = fmaxf(acc0,
// SOFTMAX-ROWS: // reduction 1 (add)
// SOFTMAX-ROWS: - acc0);
// SOFTMAX-ROWS-NEXT: const float {{p1_[0-9]+}} = expf(
// SOFTMAX-ROWS: // outputs
// SOFTMAX-ROWS: const float [[E:q[0-9]+]] = expf(
// SOFTMAX-ROWS-NEXT: const float [[Y:q[0-9]+]] = ([[E]] / acc1);
// SOFTMAX-ROWS-NEXT: arg1[(1000) * i0 + i1] = stark_cast<float>([[Y]]);

// Two rows per block kept in shared memory: the launch asks for them.
// SOFTMAX-SHARED: launches = [#stark.launch<block = array<i64: 32, 2, 1>, grid = array<i64: 16, 1, 1>, kernel = "stark_softmax", shared_bytes = 8000>]
// SOFTMAX-SHARED-SRC: static constexpr int kCache = stark_kernels::kRowCacheShared;
// SOFTMAX-CACHE: cache must be 0 (none), 1 (registers) or 2 (shared memory)

// Depthwise: one thread per output, the 3x3 window unrolled.
// DW: extern "C" __global__ void __launch_bounds__(BLOCK) stark_direct(
// DW-NEXT: stark_kernels::gridStride<POINTS, BLOCK, 1>([&](long long q) {
// DW: float acc0 = stark_widen(arg2[o0]);
// DW: #pragma unroll
// DW-NEXT: for (idx_t i4 = 0; i4 < 3; ++i4) {
// DW: const float x0 = stark_widen(arg0[b0 + (80) * i4 + (8) * i5]);
// DW-NEXT: const float x1 = stark_widen(arg1[b1 + (24) * i4 + (8) * i5]);
// DW-NEXT: const float v3 = (x0 * x1);
// DW-NEXT: const float v4 = (acc0 + v3);

// A fill + depthwise problem: each thread starts from the fill value and
// never reads the output.
// DW-FILL: stark_direct(
// DW-FILL: float acc0 = 0.5f;
// DW-FILL-NOT: arg2[o0])
// DW-FILL: arg2[o0] = stark_cast<float>(acc0);

// NOGEMM: stark-template: family 'gemm' does not apply to linalg.generic: the problem is not a contraction (out += a * b over linear maps)
// NOBODY: stark-template: no template family applies to linalg.generic: payload op 'math.ctlz' has no CUDA translation
// ATTN-D40: stark-template: no template family applies to attention: the tensor-core kernel takes head dims 64 and 128
// CAUSAL: kMask = 1;
// CAUSAL: kCausalAdds = true;
// CAUSAL: __device__ unsigned stark_attention_full[8];
// CAUSAL: stark_attention_scan(
// CAUSAL-NEXT: stark_kernels::attentionCausalScan<StarkAttention>(arg0, arg2, stark_attention_full);
// CAUSAL: stark_kernels::attentionMma16<StarkAttention>(arg1, arg0, arg2, nullptr, arg3, stark_attention_full);
// BADPARAM: stark-template: family 'gemm' cannot generate a kernel for linalg.matmul: family 'gemm' has no parameter 'bogus'
// NOTF32: stark-template: family 'gemm_tc' cannot generate a kernel for linalg.matmul: f32 inputs use tensor cores only as tf32, which needs allow_tf32=1
// NOSOFTMAX: stark-template: family 'softmax' does not apply to linalg.matmul: the problem is not linalg.softmax

module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "4096x4096xf32,4096x4096xf32->4096x4096xf32", signature = "0">} {
  func.func @kernel(%a: memref<4096x4096xf32>, %b: memref<4096x4096xf32>, %c: memref<4096x4096xf32>) {
    linalg.matmul ins(%a, %b : memref<4096x4096xf32>, memref<4096x4096xf32>) outs(%c : memref<4096x4096xf32>)
    return
  }
}

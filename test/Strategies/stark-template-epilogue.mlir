// A contraction with its epilogue (EpilogueView), no GPU needed: the GEMM
// of the embedded kernels with a layout whose epilogue() decodes the output
// point, reads the epilogue's inputs there, computes the chain in f32 from
// the accumulated value and stores the output once; C (the intermediate
// result) is neither read nor written. The SIMT gemm hands each sum to a
// StarkStore that computes the same epilogue. Families whose kernels would
// leave the epilogue out decline, saying so; gemm_wgmma, gemm_tc and gemm
// take a bf16 matmul with a bf16 output after truncf.

// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-matmul-bias-gelu.mlir --list | FileCheck %s --check-prefix=LIST
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-matmul-bias-gelu.mlir --family gemm_f32 --source | FileCheck %s --check-prefix=GELU
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-batch-matmul-scale.mlir --family gemm_3xtf32 --source | FileCheck %s --check-prefix=BATCH
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-matmul-residual-silu.mlir --family gemm_f32 --params bm=64,bn=64,bk=16,wm=32,wn=32,tm=8,tn=4,stages=4,min_blocks=4,split_k=4 --source | FileCheck %s --check-prefix=SPLIT
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-matmul-bias-bf16.mlir --list | FileCheck %s --check-prefix=BF16-LIST
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-matmul-bias-bf16.mlir --family gemm_tc --source | FileCheck %s --check-prefix=TC
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-matmul-bias-gelu.mlir --family gemm --source | FileCheck %s --check-prefix=GEMM
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-matmul-bias-bf16.mlir --family gemm --source > %t.gemm.cu
// RUN: %if nvcc %{ %nvcc-compile %t.gemm.cu -o %t.gemm.o %}
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-matmul-bias-gelu.mlir --family fused_rows 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-matmul-bias-gelu.mlir --family gemm_f32 --source > %t.gelu.cu
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-matmul-residual-silu.mlir --family gemm_3xtf32 --params bm=64,bn=64,bk=32,wm=32,wn=32,stages=3,split_k=3 --source > %t.silu.cu
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-matmul-bias-bf16.mlir --family gemm_tc --source > %t.tc.cu
// RUN: %if nvcc %{ %nvcc-compile -include cstdint %t.gelu.cu -o %t.gelu.o %}
// RUN: %if nvcc %{ %nvcc-compile %t.tc.cu -o %t.tc.o %}
// RUN: %if nvcc %{ %nvcc-compile -include cstdint %t.silu.cu -o %t.silu.o %}

// Only the families whose store stage takes the epilogue.
// LIST: gemm_3xtf32: {{[0-9]+}} parameter sets
// LIST: gemm_f32: {{[0-9]+}} parameter sets
// LIST: gemm: {{[0-9]+}} parameter sets
// LIST-NOT: parameter sets

// matmul + bias + erf-GELU: the bias read per column, the fill value (0)
// added to the accumulated sum, the result stored once through c_off.
// GELU: // The problem: C[b, m, n] = C_INIT + sum_k A[b, m, k] * B[b, k, n], the output the epilogue of C (fused(linalg.matmul,linalg.generic)).
// GELU: constexpr bool C_FROM_INIT = true;
// GELU: struct StarkLayout {
// GELU: static constexpr bool kEpilogue = true;
// GELU-NEXT: const float *arg2 = nullptr;
// GELU-NEXT: float *arg3 = nullptr;
// GELU-NEXT: __device__ __forceinline__ void epilogue(int b, int m, int n, float acc) const {
// GELU-NEXT: const int l0 = (int)m;
// GELU-NEXT: const int l1 = (int)n;
// GELU-NEXT: const float x2 = stark_widen(arg2[l1]);
// GELU-NEXT: const float [[S:e[0-9]+]] = (0.0f + acc);
// GELU-NEXT: const float [[Y:e[0-9]+]] = ([[S]] + x2);
// GELU: erff(
// GELU: arg3[c_off(b, m, n)] = stark_cast<float>(
// GELU: stark_gemm_params(const float* __restrict__ arg0, const float* __restrict__ arg1, const float* __restrict__ arg2, float* __restrict__ arg3) {
// GELU-NEXT: stark_kernels::GemmParams<StarkLayout> p;
// GELU-NEXT: p.A = arg0, p.B = arg1, p.C = nullptr;
// GELU: p.alpha = 1.f, p.beta = 0.f, p.init = C_INIT;
// GELU-NEXT: p.lay = StarkLayout();
// GELU-NEXT: p.lay.arg2 = arg2;
// GELU-NEXT: p.lay.arg3 = arg3;
// GELU: stark_gemm_f32(const float* __restrict__ arg0, const float* __restrict__ arg1, const float* __restrict__ arg2, float* __restrict__ arg3) {
// GELU-NEXT: (stark_gemm_params(arg0, arg1, arg2, arg3));

// batch_matmul * 0.125: the batch decoded too, no input but the sum.
// BATCH: static constexpr bool kEpilogue = true;
// BATCH-NEXT: float *arg2 = nullptr;
// BATCH-NEXT: void epilogue(int b, int m, int n, float acc) const {
// BATCH-NEXT: const int l0 = (int)b;
// BATCH-NEXT: const int l1 = (int)m;
// BATCH-NEXT: const int l2 = (int)n;
// BATCH: * 0.125f);
// BATCH: arg2[c_off(b, m, n)] = stark_cast<float>(

// Split-K: the second launch applies the epilogue to the sum of the slices
// (the row scale, the residual and SiLU from a fill of 0.25).
// SPLIT: x2 = stark_widen(arg2[l0]);
// SPLIT: x3 = stark_widen(arg3[(45) * l0 + l1]);
// SPLIT: (0.25f + acc);
// SPLIT: expf(
// SPLIT: stark_gemm_splitk_reduce(const float* __restrict__ arg0, const float* __restrict__ arg1, const float* __restrict__ arg2, const float* __restrict__ arg3, float* __restrict__ arg4) {
// SPLIT-NEXT: stark_kernels::detail::splitKReduce(stark_gemm_params(arg0, arg1, arg2, arg3, arg4));

// bf16 inputs: the tensor-core family, its epilogue struct reading the bf16
// bias and storing the bf16 output once, truncated from the f32 value; C is
// not the output any more.
// BF16-LIST: gemm_wgmma: {{[0-9]+}} parameter sets
// BF16-LIST: gemm_tc: {{[0-9]+}} parameter sets
// BF16-LIST: gemm: {{[0-9]+}} parameter sets
// BF16-LIST-NOT: parameter sets
// TC: struct StarkWmmaStore {
// TC: static constexpr bool kEpilogue = true;
// TC-NEXT: const __nv_bfloat16 *arg2 = nullptr;
// TC-NEXT: __nv_bfloat16 *arg3 = nullptr;
// TC-NEXT: void epilogue(int b, int m, int n, float acc) const {
// TC: const float x2 = stark_widen(arg2[l1]);
// TC: arg3[c_off(b, m, n)] = stark_cast<__nv_bfloat16>(
// TC: store(idx_t b, idx_t m, idx_t n, float sum) const { epilogue((int)b, (int)m, (int)n, C_INIT + sum); }
// TC: StarkWmmaStore st;
// TC-NEXT: st.arg2 = arg2;
// TC-NEXT: st.arg3 = arg3;
// TC-NOT: st.C =
// TC: stark_kernels::gemmWmmaBlock<StarkWmma>(arg0, arg1, st);

// The SIMT gemm: the store hands each sum to StarkStore, whose epilogue
// writes the output through the problem's c_off; C is passed but unused.
// GEMM: // SIMT GEMM (f32 accumulation): C[b, m, n] = C_INIT + sum_k A[b, m, k] * B[b, k, n], the output the epilogue of C (fused(linalg.matmul,linalg.generic)).
// GEMM: struct StarkStore {
// GEMM-NEXT: static constexpr bool kStore = true;
// GEMM-NEXT: static constexpr bool kPrologueA = false, kPrologueB = false;
// GEMM-NEXT: long long c_off(int b, int m, int n) const { return (long long)stark_addr::c_off(b, m, n); }
// GEMM: const float x2 = stark_widen(arg2[l1]);
// GEMM: erff(
// GEMM: arg3[c_off(b, m, n)] = stark_cast<float>(
// GEMM: void store(int b, int m, int n, float x) const { epilogue(b, m, n, x); }
// GEMM: StarkStore st;
// GEMM-NEXT: st.arg2 = arg2;
// GEMM-NEXT: st.arg3 = arg3;
// GEMM-NEXT: stark_kernels::gemmSimtBlock<StarkConfig>(arg0, arg1, arg3, st);
// ROWS: family 'fused_rows' does not apply to fused(linalg.matmul,linalg.generic): fused_rows does not compute the element-wise ops after the contraction

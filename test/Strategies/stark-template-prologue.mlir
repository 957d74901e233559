// A contraction with operand prologues (EpilogueView::aPrologue /
// bPrologue), no GPU needed: only the SIMT gemm loads its operands through
// registers, where its StarkStore's prologue_a / prologue_b turn each loaded
// element into the operand; the families that copy operands straight to
// shared memory decline, saying so.

// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-scale-relu-matmul.mlir --list | FileCheck %s --check-prefix=LIST
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-scale-relu-matmul.mlir --family gemm_f32 2>&1 | FileCheck %s --check-prefix=F32
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-scale-relu-matmul.mlir --family gemm --source | FileCheck %s --check-prefix=A
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-dequant-matmul-bias.mlir --family gemm --source | FileCheck %s --check-prefix=B
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-dequant-matmul-bias.mlir --family gemm --source > %t.b.cu
// RUN: %if nvcc %{ %nvcc-compile %t.b.cu -o %t.b.o %}

// LIST: gemm: {{[0-9]+}} parameter sets
// LIST-NOT: parameter sets

// F32: gemm_f32 does not compute the element-wise ops before the contraction as it loads its operands

// relu(x * scale[k]) computes A, the scale read at k, the loaded value as x, the
// fill value (0.5) added in the epilogue; the scale is bound for the
// prologue, not read by the epilogue.
// A: static constexpr bool kPrologueA = true, kPrologueB = false;
// A: __device__ __forceinline__ float prologue_a(int b, int m, int k, float x) const {
// A-NEXT: const int l0 = (int)m;
// A-NEXT: const int l2 = (int)k;
// A-NEXT: const float [[S:x[0-9]+]] = stark_widen(arg1[l2]);
// A-NEXT: const float [[P:pm[0-9]+]] = (x * [[S]]);
// A-NEXT: const float [[R:pm[0-9]+]] = stark_maximumf([[P]], 0.0f);
// A-NEXT: return (float)([[R]]);
// A: const float *arg1 = nullptr;
// A-NEXT: float *arg3 = nullptr;
// A-NEXT: __device__ __forceinline__ void epilogue(int b, int m, int n, float acc) const {
// A-NEXT: const int l0 = (int)m;
// A-NEXT: const int l1 = (int)n;
// A-NEXT: const float [[E:e[0-9]+]] = (0.5f + acc);
// A-NEXT: arg3[c_off(b, m, n)] = stark_cast<float>([[E]]);
// A: return o.prologue_a((int)b, (int)m, (int)k, x);
// A: st.arg1 = arg1;
// A-NEXT: st.arg3 = arg3;
// A-NEXT: stark_kernels::gemmSimtBlock<StarkConfig>(arg0, arg2, arg3, st);

// An f16 weight widened and scaled per column computes B, a bias after.
// B: typedef __half TB;
// B: static constexpr bool kPrologueA = false, kPrologueB = true;
// B: __device__ __forceinline__ float prologue_b(int b, int k, int n, float x) const {
// B: const float [[S:x[0-9]+]] = stark_widen(arg2[l1]);
// B-NEXT: const float [[W:pk[0-9]+]] = (float)(x);
// B-NEXT: const float [[P:pk[0-9]+]] = ([[W]] * [[S]]);
// B-NEXT: return (float)([[P]]);
// B: stark_kernels::gemmSimtBlock<StarkConfig>(arg0, arg1, arg4, st);

// gemm_wgmma: the Hopper wgmma GEMM family. Its source (GemmWgmma.cuh with
// the generated entry) compiles with nvcc for sm_90a without a GPU; the
// candidate names the family, its parameters and its launch; it is the
// first family of a row-major bf16 matmul and declines A B^T, whose B is
// contiguous along k, with the reason. Its store stage writes C_INIT + sum
// for a problem that fills C first (never reading C) and the epilogue's
// output for a contraction followed by element-wise ops (a bf16 matmul's
// truncation, a batch matmul's bias + relu into f16): it is then the first
// family of those problems too, and their sources compile. So do
// gemm_wgmma_tma's (GemmWgmmaTma.cuh: its arguments extend gemm_wgmma's),
// for a batch and for a fill.

// RUN: stark-template --problem %s --family gemm_wgmma | FileCheck %s
// RUN: stark-template --problem %s --list | FileCheck %s --check-prefix=LIST
// RUN: not stark-template --problem %S/Inputs/templates/matmul-transpose-b-f16.mlir --family gemm_wgmma 2>&1 | FileCheck %s --check-prefix=TB
// RUN: stark-template --problem %s --source > %t.cu
// RUN: %if nvcc %{ %nvcc-compile %t.cu -o %t.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-matmul-bf16-f32.mlir --family gemm_wgmma --source | FileCheck %s --check-prefix=FILL
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-matmul-bf16-truncf.mlir --list | FileCheck %s --check-prefix=EPI-LIST
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-batch-matmul-f16-bias-relu.mlir --family gemm_wgmma --source | FileCheck %s --check-prefix=EPI
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-matmul-bf16-f32.mlir --family gemm_wgmma --source > %t.fill.cu
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-batch-matmul-f16-bias-relu.mlir --family gemm_wgmma --source > %t.epi.cu
// RUN: %if nvcc %{ %nvcc-compile %t.fill.cu -o %t.fill.o %}
// RUN: %if nvcc %{ %nvcc-compile %t.epi.cu -o %t.epi.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/batch-matmul-bf16.mlir --family gemm_wgmma_tma --source > %t.tma.cu
// RUN: %if nvcc %{ %nvcc-compile %t.tma.cu -o %t.tma.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-matmul-bf16-f32.mlir --family gemm_wgmma_tma --source > %t.tma-fill.cu
// RUN: %if nvcc %{ %nvcc-compile %t.tma-fill.cu -o %t.tma-fill.o %}

// CHECK: stark.cuda = #stark.cuda<family = "gemm_wgmma", launches = [#stark.launch<block = array<i64: 384, 1, 1>, grid = array<i64: 512, 1, 1>, kernel = "stark_gemm_wgmma", shared_bytes = 197632>], params = {bn = "256", group_m = "8", stages = "4"}

// LIST: gemm_wgmma: {{[0-9]+}} parameter sets
// LIST-NEXT: bn=256,group_m=8,stages=4

// FILL: // The problem: C[b, m, n] = C_INIT + sum_k A[b, m, k] * B[b, k, n].
// FILL: constexpr float C_INIT = 0.5f;
// FILL: struct StarkStore {
// FILL-NEXT: static constexpr bool kStore = true;
// FILL-NEXT: static constexpr bool kPrologueA = false, kPrologueB = false;
// FILL-NEXT: long long c_off(int b, int m, int n) const { return 0LL * b + 200LL * m + 1LL * n + 0LL; }
// FILL-NEXT: float *C = nullptr;
// FILL-NEXT: void store(int b, int m, int n, float x) const { C[c_off(b, m, n)] = stark_cast<float>(C_INIT + x); }
// FILL: StarkStore st;
// FILL-NEXT: st.C = arg2;
// FILL-NEXT: stark_kernels::gemmWgmmaBlock<StarkConfig>(p, st);

// EPI-LIST: gemm_wgmma: {{[0-9]+}} parameter sets
// EPI-LIST: gemm_tc: {{[0-9]+}} parameter sets

// The batch index is the grid's y: c_off adds 70 x 136 per batch; bias is
// read at the output's column, the fill's 0.25 added before it.
// EPI: // The problem: C[b, m, n] = C_INIT + sum_k A[b, m, k] * B[b, k, n], the output the epilogue of C (fused(linalg.batch_matmul,linalg.generic)).
// EPI: struct StarkStore {
// EPI-NEXT: static constexpr bool kStore = true;
// EPI-NEXT: static constexpr bool kPrologueA = false, kPrologueB = false;
// EPI-NEXT: long long c_off(int b, int m, int n) const { return 9520LL * b + 136LL * m + 1LL * n + 0LL; }
// EPI: __half *arg3 = nullptr;
// EPI: void epilogue(int b, int m, int n, float acc) const {
// EPI: stark_widen(arg2[
// EPI: (0.25f + acc)
// EPI: stark_maximumf(
// EPI: arg3[c_off(b, m, n)] = stark_cast<__half>(
// EPI: void store(int b, int m, int n, float x) const { epilogue(b, m, n, x); }
// EPI: StarkStore st;
// EPI-NEXT: st.arg2 = arg2;
// EPI-NEXT: st.arg3 = arg3;
// EPI-NEXT: stark_kernels::gemmWgmmaBlock<StarkConfig>(p, st);

// TB: family 'gemm_wgmma' does not apply to linalg.matmul: gemm_wgmma needs B contiguous along n (row-major B)

module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "4096x4096xbf16,4096x4096xbf16->4096x4096xf32", signature = "0">} {
  func.func @kernel(%a: memref<4096x4096xbf16>, %b: memref<4096x4096xbf16>, %c: memref<4096x4096xf32>) {
    linalg.matmul ins(%a, %b : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%c : memref<4096x4096xf32>)
    return
  }
}

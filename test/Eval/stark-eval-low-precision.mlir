// f16 and bf16 problems: the baseline in the same precision, plus the
// problem promoted to f32 on the host as the high-precision reference.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush

// Same summation order as the problem. The trial count is asserted, so a
// noisy timing must not add the extra trials of a suspicious speedup.
// RUN: %{eval} --suspicious-speedup 1e9 --problem %S/Inputs/matmul-f16-problem.mlir --candidate %S/Inputs/matmul-f16-kji.mlir | FileCheck %s --check-prefix=F16
// RUN: %{eval} --suspicious-speedup 1e9 --problem %S/Inputs/matmul-bf16-problem.mlir --candidate %S/Inputs/matmul-bf16-kji.mlir | FileCheck %s --check-prefix=BF16
// F16:       status: ok
// F16:       tolerance: f16 atol 0.01, rtol 0.01 (reduction length 16)
// F16-NEXT:  correctness: 5 trials (uniform, normal, large, tiny, negative), high-precision reference: yes
// BF16:      status: ok
// BF16:      tolerance: bf16 atol 0.01, rtol 0.01 (reduction length 16)
// BF16-NEXT: correctness: 5 trials (uniform, normal, large, tiny, negative), high-precision reference: yes

// Accumulating in f32 is more accurate than the problem itself.
// RUN: %{eval} --problem %S/Inputs/matmul-f16-problem.mlir --candidate %S/Inputs/matmul-f16-f32acc.mlir | FileCheck %s --check-prefix=OK
// RUN: %{eval} --problem %S/Inputs/matmul-bf16-problem.mlir --candidate %S/Inputs/matmul-bf16-f32acc.mlir | FileCheck %s --check-prefix=OK
// OK: status: ok

// One product short.
// RUN: not %{eval} --problem %S/Inputs/matmul-f16-problem.mlir --candidate %S/Inputs/matmul-f16-drop-last-k.mlir | FileCheck %s --check-prefix=WRONG
// RUN: not %{eval} --problem %S/Inputs/matmul-bf16-problem.mlir --candidate %S/Inputs/matmul-bf16-drop-last-k.mlir | FileCheck %s --check-prefix=WRONG
// WRONG:      status: wrong
// WRONG-NEXT: message: argument #2 differs from the reference in {{[0-9]+}} of 64 elements (trial 0

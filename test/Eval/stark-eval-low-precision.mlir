// f16 and bf16 problems: the baseline in the same precision, plus the
// problem promoted to f32 on the host as the high-precision reference, which
// alone judges a candidate.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush

// Same summation order as the problem. The trial count is asserted, so a
// noisy timing must not add the extra trials of a suspicious speedup. f16
// accumulation over K = 16 stays within the bound of the exact result;
// bf16 accumulation (8 bits of mantissa) does not, although it is what the
// problem's own lowering does: no candidate is held to a baseline that
// accumulates in low precision.
// RUN: %{eval} --suspicious-speedup 1e9 --problem %S/Inputs/matmul-f16-problem.mlir --candidate %S/Inputs/matmul-f16-kji.mlir | FileCheck %s --check-prefix=F16
// RUN: not %{eval} --suspicious-speedup 1e9 --problem %S/Inputs/matmul-bf16-problem.mlir --candidate %S/Inputs/matmul-bf16-kji.mlir | FileCheck %s --check-prefix=BF16ACC
// F16:       status: ok
// F16:       tolerance: f16 atol 0.01, rtol 0.01 (reduction length 16)
// F16-NEXT:  correctness: 6 trials (uniform, normal, large, tiny, negative, special), high-precision reference: yes
// F16:       flags: bound_from_high_precision
// BF16ACC:      status: wrong
// BF16ACC-NEXT: message: argument #2 differs from the reference in {{[0-9]+}} of 64 elements

// The problem evaluated as its own candidate is held to itself.
// RUN: %{eval} --suspicious-speedup 1e9 --problem %S/Inputs/matmul-bf16-problem.mlir --candidate %S/Inputs/matmul-bf16-problem.mlir | FileCheck %s --check-prefix=BF16
// BF16:      status: ok
// BF16:      tolerance: bf16 atol 0.01, rtol 0.01 (reduction length 16)
// BF16-NEXT: correctness: 6 trials (uniform, normal, large, tiny, negative, special), high-precision reference: yes

// Accumulating in f32 is more accurate than the problem itself.
// RUN: %{eval} --problem %S/Inputs/matmul-f16-problem.mlir --candidate %S/Inputs/matmul-f16-f32acc.mlir | FileCheck %s --check-prefix=OK
// RUN: %{eval} --problem %S/Inputs/matmul-bf16-problem.mlir --candidate %S/Inputs/matmul-bf16-f32acc.mlir | FileCheck %s --check-prefix=OK
// OK: status: ok

// One product short.
// RUN: not %{eval} --problem %S/Inputs/matmul-f16-problem.mlir --candidate %S/Inputs/matmul-f16-drop-last-k.mlir | FileCheck %s --check-prefix=WRONG
// RUN: not %{eval} --problem %S/Inputs/matmul-bf16-problem.mlir --candidate %S/Inputs/matmul-bf16-drop-last-k.mlir | FileCheck %s --check-prefix=WRONG
// WRONG:      status: wrong
// WRONG-NEXT: message: argument #2 differs from the reference in {{[0-9]+}} of 64 elements (trial 0

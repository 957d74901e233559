// Planted faults, class "special values": kernels that are right on every
// finite input of moderate size and wrong on NaN, +-inf, -0 or denormal
// inputs, or where the result overflows. One trial must feed such values
// (masking patterns included: runs of -inf before a softmax, whole rows
// of -inf) and compare with IEEE-aware rules: NaN where the reference is
// NaN, the same infinity where it is infinite.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --time-budget 1

// Expected: wrong. ReLU as select(x > 0, x, 0) maps NaN to 0; the
// problem's arith.maximumf keeps NaN.
// RUN: not %{eval} --problem %S/Inputs/relu-problem.mlir --candidate %S/Inputs/relu-nan-to-zero.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. ReLU as x * (x + |x|) / (2x): NaN at +-0 and +-inf.
// RUN: not %{eval} --problem %S/Inputs/relu-problem.mlir --candidate %S/Inputs/relu-step-division.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. The clamp to [-60000, 60000] removed: +-inf stays
// infinite.
// RUN: not %{eval} --problem %S/Inputs/clamp-problem.mlir --candidate %S/Inputs/clamp-removed.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. A row maximum that skips NaN (arith.maxnumf).
// RUN: not %{eval} --problem %S/Inputs/rowmax-problem.mlir --candidate %S/Inputs/rowmax-ignores-nan.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. Blocked online softmax without the masking guards: a
// block of eight -inf, or a -inf in the last column, makes the whole row
// NaN where the softmax is finite.
// RUN: not %{eval} --problem %S/Inputs/softmax-problem.mlir --candidate %S/Inputs/softmax-online-unguarded.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. Inputs raised to at least -1e30: a row of -inf only
// comes out uniform where the softmax is NaN.
// RUN: not %{eval} --problem %S/Inputs/softmax-problem.mlir --candidate %S/Inputs/softmax-mask-as-finite.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. 1/(x + 0.0): 1/-0 gives +inf, not -inf.
// RUN: not %{eval} --problem %S/Inputs/recip-problem.mlir --candidate %S/Inputs/recip-loses-negative-zero.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. copysign(1, x) as select(x < 0, -1, 1): +1 for -0.
// RUN: not %{eval} --problem %S/Inputs/copysign-problem.mlir --candidate %S/Inputs/copysign-select.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. Denormal inputs flushed to zero before x * 2^100,
// whose result for a denormal is a normal number.
// RUN: not %{eval} --problem %S/Inputs/scale-up-problem.mlir --candidate %S/Inputs/scale-up-flush-denormals.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. exp(x) saturated at the largest finite f32 where it
// overflows (the large distribution shows it already).
// RUN: not %{eval} --problem %S/Inputs/exp-problem.mlir --candidate %S/Inputs/exp-saturated.mlir | FileCheck %s --check-prefix=WRONG

// WRONG:      status: wrong
// WRONG-NEXT: message: argument #1 differs

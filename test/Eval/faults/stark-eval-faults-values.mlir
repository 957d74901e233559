// Planted faults that the plain trials catch: wrong only on the partial
// last tile of an odd size, only for negative inputs, only in the tail of
// a vectorised row, in one element whose position depends on the inputs
// (off by 1, or NaN where the reference is finite), an integer sum that
// overflows its accumulator on large inputs, and a tanh formula that gives
// NaN where e^x overflows.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --time-budget 1
// DEFINE: %{fill} = --problem %S/Inputs/fill-matmul-f32-problem.mlir

// Expected: wrong. Row 32, the partial last tile of M = 33, never written.
// RUN: not %{eval} %{fill} --candidate %S/Inputs/fill-matmul-skip-last-row-tile.mlir | FileCheck %s --check-prefix=ARG2

// Expected: wrong. One element, chosen by the bits of A[1, 1], off by 1.
// RUN: not %{eval} %{fill} --candidate %S/Inputs/fill-matmul-one-element-off.mlir | FileCheck %s --check-prefix=ARG2

// Expected: wrong. One element, chosen by the bits of B[1, 1], NaN.
// RUN: not %{eval} %{fill} --candidate %S/Inputs/fill-matmul-one-element-nan.mlir | FileCheck %s --check-prefix=ARG2

// Expected: wrong. |x| for ReLU: wrong for negative inputs only.
// RUN: not %{eval} --problem %S/Inputs/relu-problem.mlir --candidate %S/Inputs/relu-abs.mlir | FileCheck %s --check-prefix=ARG1

// Expected: wrong. Vectors of 8 right, the 5-column tail computes a - b.
// RUN: not %{eval} --problem %S/Inputs/add-f32-problem.mlir --candidate %S/Inputs/add-vector-bad-tail.mlir | FileCheck %s --check-prefix=ARG2

// Expected: wrong. i8 products summed in i16, which wraps on large inputs.
// RUN: not %{eval} --problem %S/Inputs/matmul-i8-problem.mlir --candidate %S/Inputs/matmul-i8-i16-accumulate.mlir | FileCheck %s --check-prefix=ARG2

// Expected: wrong. tanh as (e^x - e^-x) / (e^x + e^-x): NaN once e^x
// overflows.
// RUN: not %{eval} --problem %S/Inputs/tanh-problem.mlir --candidate %S/Inputs/tanh-exp-ratio.mlir | FileCheck %s --check-prefix=ARG1

// ARG1:      status: wrong
// ARG1-NEXT: message: argument #1 differs
// ARG2:      status: wrong
// ARG2-NEXT: message: argument #2 differs

// Planted faults, class "weak spots of the bounds": one absolute bound for
// every output, set by the largest reduction, and an absolute bound on
// outputs far below 1. Each output needs its own bound, from its own
// reduction length and the magnitude of its reference. And a control:
// a correct f32-accumulating f16 matmul on large inputs, which a reference
// whose f16 partial sums overflow must not reject.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --time-budget 1

// Expected: wrong. A softmax over 1000 columns whose normaliser leaves
// out the last column: every element is off by about 1e-3 of itself.
// RUN: not %{eval} --problem %S/Inputs/softmax-long-problem.mlir --candidate %S/Inputs/softmax-long-drop-last-column.mlir | FileCheck %s --check-prefix=WRONG1

// Expected: ok (a control). The softmax against itself: its bound is that
// of a reduction over its 1000 columns (the max and the normaliser run
// along them); taken as a reduction of length 1, correct kernels that sum
// in another order failed on whole rows of a 24576-column softmax.
// RUN: %{eval} --problem %S/Inputs/softmax-long-problem.mlir --candidate %S/Inputs/softmax-long-problem.mlir | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX:      status: ok
// SOFTMAX:      tolerance: f32 atol {{.*}} (reduction length 1000)

// Expected: wrong. Two outputs, row sums over 4096 and over 4 columns;
// the short ones are off by a relative 6.1e-5, inside the bound of the
// long reduction only.
// RUN: not %{eval} --problem %S/Inputs/two-rowsums-problem.mlir --candidate %S/Inputs/two-rowsums-short-off.mlir | FileCheck %s --check-prefix=WRONG3

// Expected: wrong. Drops the last product of a dot product when both
// factors are below 0.01: a quarter of each output on the tiny
// distribution, below an absolute bound.
// RUN: not %{eval} --problem %S/Inputs/fill-matmul-f32-problem.mlir --candidate %S/Inputs/fill-matmul-drop-tiny-term.mlir | FileCheck %s --check-prefix=WRONG2

// Expected: ok (a control). An f16 matmul with K = 128, accumulated in
// f32: on the large distribution (+-1e2) it stays finite where the
// f16-accumulating baseline's partial sums overflow.
// RUN: %{eval} --problem %S/Inputs/matmul-f16-k128-problem.mlir --candidate %S/Inputs/matmul-f16-k128-f32acc.mlir | FileCheck %s --check-prefix=OK

// Expected: ok (a control). The same with K = 1024: where the exact sum
// is beyond the f16 range the candidate rounds it to the infinity of its
// sign, which need not be the sign of the infinity the baseline's partial
// sums reached first.
// RUN: %{eval} --problem %S/Inputs/matmul-f16-k1024-problem.mlir --candidate %S/Inputs/matmul-f16-k1024-f32acc.mlir | FileCheck %s --check-prefix=OK

// WRONG1:      status: wrong
// WRONG1-NEXT: message: argument #1 differs
// WRONG2:      status: wrong
// WRONG2-NEXT: message: argument #2 differs
// WRONG3:      status: wrong
// WRONG3-NEXT: message: argument #3 differs
// OK: status: ok

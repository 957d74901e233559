// Planted faults, class "special values in whole programs": a program
// whose output is +inf for large inputs (exp, then a matmul with positive
// weights), and optimisations of it or of its matmul that split every
// operand 3xTF32-style (hi + lo with lo = x - hi, in f32 emulation), which
// turns an infinite operand into NaN (inf - inf). The correct forms, which
// fall back to the plain product where the split is not finite, are in
// stark-eval-faults-controls.mlir.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --time-budget 1

// Expected: wrong. The whole program with the split matmul: NaN where the
// original returns +inf (its large-input trial shows it).
// RUN: not %{eval} --problem %S/Inputs/program-exp-matmul.mlir --candidate %S/Inputs/program-exp-matmul-3xtf32.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. The split matmul alone as a kernel: every per-kernel
// trial is finite, so only a trial with +-inf inputs shows it.
// RUN: not %{eval} --problem %S/Inputs/matmul-f32-problem.mlir --candidate %S/Inputs/matmul-3xtf32-split.mlir | FileCheck %s --check-prefix=WRONG

// WRONG:      status: wrong
// WRONG-NEXT: message: argument #{{[12]}} differs

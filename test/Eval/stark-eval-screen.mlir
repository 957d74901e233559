// Screening (--screen-below-speedup): the candidate is timed after its
// first correctness trial; below the speedup it had to reach it is `slower`
// (exit 1, not verified further, never substituted); at or above it every
// trial runs. A wrong candidate is wrong either way.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --suspicious-speedup 1e9 --problem %S/Inputs/matmul-problem.mlir

// No candidate runs a million times faster than the baseline.
// RUN: not %{eval} --screen-below-speedup 1e6 --candidate %S/Inputs/matmul-ikj.mlir | FileCheck %s --check-prefix=SLOWER
// SLOWER:      status: slower
// SLOWER-NEXT: message: {{[0-9.]+}}x the baseline after 1 trial and the timed runs, below the 1000000.00x it had to reach; not verified further
// SLOWER:      correctness: 1 trials (uniform), high-precision reference: yes
// SLOWER-NEXT: baseline:  median
// SLOWER-NEXT: candidate: median

// Every candidate is faster than a millionth of the baseline's speed.
// RUN: %{eval} --screen-below-speedup 1e-6 --candidate %S/Inputs/matmul-ikj.mlir | FileCheck %s --check-prefix=FULL
// FULL:      status: ok
// FULL-NEXT: message: verified on 6 trials; {{[0-9.]+}}x the baseline
// FULL:      correctness: 6 trials (uniform, normal, large, tiny, negative, special)

// RUN: not %{eval} --screen-below-speedup 1e6 --candidate %S/Inputs/matmul-drop-last-row.mlir | FileCheck %s --check-prefix=WRONG
// RUN: not %{eval} --screen-below-speedup 1e-6 --candidate %S/Inputs/matmul-drop-last-row.mlir | FileCheck %s --check-prefix=WRONG
// WRONG:      status: wrong
// WRONG-NEXT: message: argument #2 differs from the reference in {{[0-9]+}} of {{[0-9]+}} elements (trial 0

// RUN: not stark-eval --screen-below-speedup -1 --problem %S/Inputs/matmul-problem.mlir --candidate %S/Inputs/matmul-ikj.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: stark-eval: --screen-below-speedup must be at least 0

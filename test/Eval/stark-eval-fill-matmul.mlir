// A fill + matmul problem never reads C: stark-eval prefills it with NaN, so
// a candidate that accumulates into C (the plain matmul kernel) instead of
// starting from the fill value is wrong everywhere, and one that writes C
// from 0.0 is verified.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --problem %S/Inputs/fill-matmul-problem.mlir

// RUN: not %{eval} --candidate %S/Inputs/matmul-ijk.mlir | FileCheck %s --check-prefix=READS
// READS:      status: wrong
// READS-NEXT: message: argument #2 differs from the reference in 297 of 297 elements (trial 0 {{.*}}): got nan

// RUN: %{eval} --candidate %S/Inputs/fill-matmul-writes-c.mlir | FileCheck %s --check-prefix=WRITES
// WRITES: status: ok

// Planted fault, class "fixed seeds": a kernel that is right only on the
// inputs of the default seeds (which a debugger role may be shown) and
// writes zeros for every other input. Caught once the evaluator draws
// inputs the candidate cannot know in advance (seeds that vary per
// evaluation, or timed runs rotating among new input sets whose outputs
// are checked). The values it knows are those of today's input generator
// for seed 0 (read with --in-process from a candidate that prints the bits
// of A[0, 0]); a change of the generator's streams also makes this file
// pass, for that reason only.
//
// Expected: wrong.
// RUN: not stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --time-budget 1 --problem %S/Inputs/matmul-f32-problem.mlir --candidate %S/Inputs/matmul-known-inputs-only.mlir | FileCheck %s

// CHECK:      status: wrong
// CHECK-NEXT: message: argument #2 differs

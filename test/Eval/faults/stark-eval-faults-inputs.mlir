// Planted faults, class "inputs clobbered": kernels that compute the
// right output and write to an input, but only after the correctness
// trials, so an input check made only after those trials misses them.
// Inputs must be checked after every run, timed ones included.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --time-budget 1
// DEFINE: %{mm} = --problem %S/Inputs/matmul-f32-problem.mlir

// Expected: wrong. Writes A[0, 0] = 0 from its sixth call on.
// RUN: not %{eval} %{mm} --candidate %S/Inputs/matmul-clobber-a-after-5-calls.mlir | FileCheck %s --check-prefix=REFUSED

// Expected: wrong. Writes B[0, 0] = 0 whenever A repeats the previous
// call's first values, which is what a timed run looks like.
// RUN: not %{eval} %{mm} --candidate %S/Inputs/matmul-clobber-b-when-repeated.mlir | FileCheck %s --check-prefix=REFUSED

// Both keep a call counter or the previous input in a mutable global, which
// the cpu target refuses to compile (stark-eval-guards.mlir); the judge's
// checksums of the inputs after every timed run are tested with a planted
// C++ kernel in unittests/Eval/JudgeTest.cpp.
// REFUSED:      status: compile_error
// REFUSED-NEXT: message: the lowered candidate breaks a guard: the mutable global

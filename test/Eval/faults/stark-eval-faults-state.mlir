// Planted faults, class "state across runs": kernels that keep state in a
// mutable memref.global between calls. State that only pays off on
// repeated inputs is invisible unless timed runs rotate among several input
// sets (some of which share an argument, as a model's weight is shared by
// every call) and a sample of their outputs is checked; on the cpu target
// the guards refuse the global before that (see the checks below).
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --time-budget 1
// DEFINE: %{mm} = --problem %S/Inputs/matmul-f32-problem.mlir

// Expected: compile_error (wrong without the guards). A cache of C keyed by four elements of B: on another A
// with the same B it returns the old C. Needs timed input sets that share
// B and differ in A.
// RUN: not %{eval} %{mm} --candidate %S/Inputs/matmul-cache-keyed-on-b.mlir | FileCheck %s --check-prefix=STATE

// Expected: compile_error (wrong without the guards). A cache of C keyed by the addresses of A and B (caught
// already: the correctness trials reuse their buffers with new contents).
// RUN: not %{eval} %{mm} --candidate %S/Inputs/matmul-cache-keyed-on-pointer.mlir | FileCheck %s --check-prefix=STATE

// Expected: compile_error (wrong without the guards). Returns the previous call's result from the second call
// on (caught already by the second correctness trial).
// RUN: not %{eval} %{mm} --candidate %S/Inputs/matmul-previous-result.mlir | FileCheck %s --check-prefix=STATE

// Expected: compile_error (wrong without the guards). Returns the previous call's result from the sixth call
// on: right while the timed runs repeat one input set, wrong once they
// rotate.
// RUN: not %{eval} %{mm} --candidate %S/Inputs/matmul-previous-result-after-5-calls.mlir | FileCheck %s --check-prefix=STATE

// Expected: compile_error (wrong without the guards). Right on the first call only, zeros afterwards (caught
// already by the second correctness trial).
// RUN: not %{eval} %{mm} --candidate %S/Inputs/matmul-zero-after-first-call.mlir | FileCheck %s --check-prefix=STATE

// Expected: compile_error (wrong without the guards). From the sixth call on, calls 6 and 8 (counting from 0)
// skip the computation; the last timed call (9) is right, so only a check
// of an earlier timed run sees it.
// RUN: not stark-eval --trials 4 --max-trials 4 --warmup 1 --no-cache-flush --time-budget 1 %{mm} --candidate %S/Inputs/matmul-skip-even-timed-calls.mlir | FileCheck %s --check-prefix=STATE

// The cpu target refuses mutable globals in a candidate's lowered form
// (stark-eval-guards.mlir), so each of these is a compile error before it
// ever runs. The judge's own defences against state kept between runs
// (rotating timed input sets, timed runs read back and compared) are tested
// with planted C++ kernels in unittests/Eval/JudgeTest.cpp, and on the GPU
// in Integration/CUDA/faults/faults-state.mlir.
// STATE:      status: compile_error
// STATE-NEXT: message: the lowered candidate breaks a guard: the mutable global

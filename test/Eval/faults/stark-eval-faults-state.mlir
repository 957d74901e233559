// XFAIL: *
// Planted faults, class "state across runs": kernels that keep state in a
// mutable memref.global between calls. The correctness trials give every
// call new inputs; the timed runs repeat one input set, so state that only
// pays off on repeated inputs is invisible unless timed runs rotate among
// several input sets (some of which share an argument, as a model's weight
// is shared by every call) and a sample of their outputs is checked.
//
// Each run makes 5 correctness calls, 1 warm-up call and 2 timed calls
// (4 for the skip-even-timed-calls case), so "from the sixth call on" is
// "while being timed".
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --time-budget 1
// DEFINE: %{mm} = --problem %S/Inputs/matmul-f32-problem.mlir

// Expected: wrong. A cache of C keyed by four elements of B: on another A
// with the same B it returns the old C. Needs timed input sets that share
// B and differ in A.
// RUN: not %{eval} %{mm} --candidate %S/Inputs/matmul-cache-keyed-on-b.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. A cache of C keyed by the addresses of A and B (caught
// already: the correctness trials reuse their buffers with new contents).
// RUN: not %{eval} %{mm} --candidate %S/Inputs/matmul-cache-keyed-on-pointer.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. Returns the previous call's result from the second call
// on (caught already by the second correctness trial).
// RUN: not %{eval} %{mm} --candidate %S/Inputs/matmul-previous-result.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. Returns the previous call's result from the sixth call
// on: right while the timed runs repeat one input set, wrong once they
// rotate.
// RUN: not %{eval} %{mm} --candidate %S/Inputs/matmul-previous-result-after-5-calls.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. Right on the first call only, zeros afterwards (caught
// already by the second correctness trial).
// RUN: not %{eval} %{mm} --candidate %S/Inputs/matmul-zero-after-first-call.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. From the sixth call on, calls 6 and 8 (counting from 0)
// skip the computation; the last timed call (9) is right, so only a check
// of an earlier timed run sees it.
// RUN: not stark-eval --trials 4 --max-trials 4 --warmup 1 --no-cache-flush --time-budget 1 %{mm} --candidate %S/Inputs/matmul-skip-even-timed-calls.mlir | FileCheck %s --check-prefix=WRONG

// WRONG:      status: wrong
// WRONG-NEXT: message: argument #2 differs

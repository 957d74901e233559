// Planted faults, class "out-of-bounds writes": kernels that compute the
// right output and also store 1.0 just outside a buffer. The buffers are
// 64-byte aligned allocations, so such a store lands in padding or a
// neighbour and crashes nothing; only canary regions before and after
// every buffer, checked after each run, see it.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --time-budget 1
// DEFINE: %{add} = --problem %S/Inputs/add-f32-problem.mlir

// Expected: wrong. One element past the end of the output.
// RUN: not %{eval} %{add} --candidate %S/Inputs/add-write-past-output.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. One element past the end of the output, through a
// memref.reinterpret_cast to a longer view.
// RUN: not %{eval} %{add} --candidate %S/Inputs/add-write-past-output-view.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. One element before the start of the output.
// RUN: not %{eval} %{add} --candidate %S/Inputs/add-write-before-output.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. One element past the end of the input A.
// RUN: not %{eval} %{add} --candidate %S/Inputs/add-write-past-input.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. Sixteen elements (64 bytes) past the end of the output.
// RUN: not %{eval} %{add} --candidate %S/Inputs/add-write-far-past-output.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. One element past the end of the output, from the sixth
// call on (while being timed).
// Its call counter is a mutable global, refused by the cpu target's guards;
// JudgeTest.cpp plants the same fault in C++.
// RUN: not %{eval} %{add} --candidate %S/Inputs/add-write-past-output-after-5-calls.mlir | FileCheck %s --check-prefix=REFUSED

// WRONG: status: wrong
// REFUSED:      status: compile_error
// REFUSED-NEXT: message: the lowered candidate breaks a guard: the mutable global

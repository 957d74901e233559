// Planted faults, class "output prefill": write-only outputs prefilled
// only with NaN let a kernel read them and take NaN for "not written yet".
// One trial must prefill them with finite garbage.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --time-budget 1

// Expected: wrong. A fill + matmul whose C is write-only; the kernel
// accumulates into the old C, reading NaN as 0.
// RUN: not %{eval} --problem %S/Inputs/fill-matmul-f32-problem.mlir --candidate %S/Inputs/fill-matmul-nan-as-zero.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. Writes an element of the write-only sum only where it
// holds NaN.
// RUN: not %{eval} --problem %S/Inputs/add-f32-problem.mlir --candidate %S/Inputs/add-write-only-where-nan.mlir | FileCheck %s --check-prefix=WRONG

// WRONG:      status: wrong
// WRONG-NEXT: message: argument #2 differs

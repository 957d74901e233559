// Planted bugs are caught, each with the element that shows it. stark-eval
// exits non-zero for anything but a verified candidate.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush
// DEFINE: %{matmul} = --problem %S/Inputs/matmul-problem.mlir

// RUN: not %{eval} %{matmul} --candidate %S/Inputs/matmul-drop-last-row.mlir | FileCheck %s --check-prefix=ROW
// ROW:      status: wrong
// ROW-NEXT: message: argument #2 differs from the reference in 9 of 297 elements (trial 0 (uniform, seed {{[0-9]+}})); worst: argument #2 [32, {{[0-8]}}]

// RUN: not %{eval} %{matmul} --candidate %S/Inputs/matmul-drop-last-col.mlir | FileCheck %s --check-prefix=COL
// COL:      status: wrong
// COL-NEXT: message: argument #2 differs from the reference in 33 of 297 elements (trial 0 {{.*}}); worst: argument #2 [{{[0-9]+}}, 8]

// RUN: not %{eval} %{matmul} --candidate %S/Inputs/matmul-no-accumulate.mlir | FileCheck %s --check-prefix=ACC
// ACC:      status: wrong
// ACC-NEXT: message: argument #2 differs from the reference in 297 of 297 elements (trial 0

// RUN: not %{eval} %{matmul} --candidate %S/Inputs/matmul-nan.mlir | FileCheck %s --check-prefix=NAN
// NAN:      status: wrong
// NAN-NEXT: message: argument #2 differs from the reference in 1 of 297 elements (trial 0 {{.*}}); worst: argument #2 [5, 5] (flat 50): got nan, expected {{-?[0-9.]+}}, abs error inf

// An argmax that returns the last of equal greatest values: the uniform
// trial of a problem with positions as outputs draws its floats on a grid,
// so rows hold equal values and the wrong tie shows.
// RUN: not %{eval} --problem %S/../Integration/CUDA/templates/Inputs/fused-argmax-middle.mlir --candidate %S/Inputs/argmax-last-of-equal.mlir | FileCheck %s --check-prefix=TIE
// TIE:      status: wrong
// TIE-NEXT: message: argument #1 differs from the reference in {{[0-9]+}} of 132 elements (trial 0 (uniform, seed

// A cached answer, and a kernel honest only during the correctness trials,
// keep their state in mutable globals, which the cpu target refuses to
// compile (stark-eval-guards.mlir).

// RUN: not %{eval} %{matmul} --candidate %S/Inputs/matmul-writes-input.mlir | FileCheck %s --check-prefix=INPUT
// INPUT:      status: wrong
// INPUT-NEXT: message: the candidate wrote to input argument #0 (trial 0

// Tiled by 4 over a reduction of 33 with a remainder loop that starts one
// element late.
// RUN: not %{eval} --problem %S/Inputs/rowsum-problem.mlir --candidate %S/Inputs/rowsum-bad-tail.mlir | FileCheck %s --check-prefix=TAIL
// TAIL:      status: wrong
// TAIL-NEXT: message: argument #1 differs from the reference in 16 of 16 elements (trial 0

// A write-only output is prefilled with NaN: the unwritten row shows.
// RUN: not %{eval} --problem %S/Inputs/add-problem.mlir --candidate %S/Inputs/add-skip-last-row.mlir | FileCheck %s --check-prefix=SKIP
// SKIP:      status: wrong
// SKIP-NEXT: message: argument #2 differs from the reference in 13 of 91 elements (trial 0 {{.*}}); worst: argument #2 [6, 0] (flat 78): got nan

// Integers have no NaN: the candidate's prefill differs from the reference
// in every element instead.
// RUN: not %{eval} --problem %S/Inputs/add-i32-problem.mlir --candidate %S/Inputs/add-i32-skip-last-row.mlir | FileCheck %s --check-prefix=SKIPI
// SKIPI:      status: wrong
// SKIPI-NEXT: message: argument #2 differs from the reference in 13 of 91 elements (trial 0 {{.*}}); worst: argument #2 [6, 0] (flat 78)
// SKIPI:      tolerance: i32 atol 0, rtol 0 (reduction length 1)

// JSON form of a failure.
// RUN: not %{eval} --json %{matmul} --candidate %S/Inputs/matmul-drop-last-row.mlir | FileCheck %s --check-prefix=JSON
// JSON:      "mismatches": 9,
// JSON:      "status": "wrong",
// JSON:      "worst": {
// JSON:        "argument": 2,
// JSON:        "distribution": "uniform",
// JSON:        "index": [
// JSON-NEXT:     32,
// JSON:        "passed": false,

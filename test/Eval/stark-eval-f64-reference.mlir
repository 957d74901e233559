// An f32 problem with a reduction is also checked against the problem
// promoted to f64. A candidate that accumulates in f64 is closer to the exact
// sum than the sequential f32 baseline; against the baseline alone it fails
// the f32 bound on 2^20-long rows, against the f64 reference it passes. A
// wrong candidate (it drops each row's last element) fails either way.

// RUN: stark-eval --no-timing --timeout 600 --problem %S/Inputs/long-row-sum.mlir --candidate %S/Inputs/long-row-sum-f64-accumulate.mlir | FileCheck %s --check-prefix=EXACT
// EXACT: status: ok
// EXACT: tolerance: f32 atol 0.0001, rtol 0.0001 (reduction length 1048576)
// EXACT: high-precision reference: yes

// RUN: not stark-eval --no-timing --timeout 600 --no-f64-reference --problem %S/Inputs/long-row-sum.mlir --candidate %S/Inputs/long-row-sum-f64-accumulate.mlir | FileCheck %s --check-prefix=BASELINE-ONLY
// BASELINE-ONLY: status: wrong
// BASELINE-ONLY: high-precision reference: no

// RUN: not stark-eval --no-timing --timeout 600 --problem %S/Inputs/long-row-sum.mlir --candidate %S/Inputs/long-row-sum-f64-drop-last.mlir | FileCheck %s --check-prefix=DROP
// DROP: status: wrong
// DROP-NEXT: message: argument #1 differs from the reference in {{[1-4]}} of 4 elements

// REQUIRES: mlir-runner
// The special-value cases of this suite are what they claim, independently
// of the evaluator: on inputs with NaN, +-inf, -0, denormals and -inf masks,
// every control matches its problem under IEEE-aware rules and every fault
// does not (Inputs/ieee_check.py runs both with mlir-runner).
//
// RUN: %python %S/Inputs/ieee_check.py %mlir_runner_utils %mlir_c_runner_utils | FileCheck %s

// CHECK: relu-vector: 0 mismatches
// CHECK: relu-nan-to-zero: {{[1-9][0-9]*}} mismatches
// CHECK: relu-step-division: {{[1-9][0-9]*}} mismatches
// CHECK: clamp-vector: 0 mismatches
// CHECK: clamp-removed: {{[1-9][0-9]*}} mismatches
// CHECK: recip-vector: 0 mismatches
// CHECK: recip-loses-negative-zero: {{[1-9][0-9]*}} mismatches
// CHECK: copysign-bits: 0 mismatches
// CHECK: copysign-select: {{[1-9][0-9]*}} mismatches
// CHECK: scale-up-vector: 0 mismatches
// CHECK: scale-up-flush-denormals: {{[1-9][0-9]*}} mismatches
// CHECK: exp-vector: 0 mismatches
// CHECK: exp-saturated: {{[1-9][0-9]*}} mismatches
// CHECK: softmax-online: 0 mismatches
// CHECK: softmax-online-unguarded: {{[1-9][0-9]*}} mismatches
// CHECK: softmax-mask-as-finite: {{[1-9][0-9]*}} mismatches
// CHECK: rowmax-vector: 0 mismatches
// CHECK: rowmax-ignores-nan: {{[1-9][0-9]*}} mismatches
// CHECK: matmul-register-tiled: 0 mismatches
// CHECK: matmul-3xtf32-split-guarded: 0 mismatches
// CHECK: matmul-3xtf32-split: {{[1-9][0-9]*}} mismatches
// CHECK: layernorm-vector: 0 mismatches
// CHECK: rowsum-blocks: 0 mismatches
// CHECK: add-vector: 0 mismatches

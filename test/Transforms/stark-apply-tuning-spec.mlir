// A tuning spec exported from a database, and what applying it does: the
// op whose problem has the recorded signature becomes a call of the
// recorded winner, an op of another signature stays, and the result is the
// IR that --stark-pipeline gives from the same database.
//
// RUN: %python %S/Inputs/tuning_db.py %t.db %S/Inputs/tuning-db-matmul.json --module-file KERNEL=%S/Inputs/tuning-matmul-kernel.mlir
// RUN: stark-tune export -o %t.spec.mlir %t.db
// RUN: FileCheck %s --check-prefix=SPEC < %t.spec.mlir
// The spec is a valid module for any tool with the stark dialects.
// RUN: stark-opt %t.spec.mlir -o /dev/null
// RUN: stark-opt %s --stark-apply-tuning-spec="spec=%t.spec.mlir" -verify-diagnostics | FileCheck %s
//
// RUN: stark-opt %s --stark-apply-tuning-spec="spec=%t.spec.mlir" -o %t.spec-out.mlir 2>/dev/null
// RUN: stark-opt %s --stark-pipeline="target=cpu device=cpu:test tuning-db=%t.db progress=0 budget=1 agent=replay transcript=%t.no-such-transcript top-k=1" -o %t.db-out.mlir 2>/dev/null
// RUN: diff %t.spec-out.mlir %t.db-out.mlir

// SPEC:      stark tuning spec: 1 winner(s) recorded on cpu:test
// SPEC:      module attributes {stark.tuning_spec = {device = "cpu:test", records = 1 : i64, stark_version = "{{[^"]+}}", version = 1 : i64}, transform.with_named_sequence} {
// SPEC-NEXT:   transform.named_sequence @match_c592b7970adcc3365a64a247e8d4169d(%[[OP:.+]]: !transform.any_op {transform.readonly}) -> !transform.any_op {
// SPEC-NEXT:     transform.match.operation_name %[[OP]] ["linalg.matmul"] : !transform.any_op
// SPEC-NEXT:     transform.stark.match_signature %[[OP]], "c592b7970adcc3365a64a247e8d4169d" : !transform.any_op
// SPEC-NEXT:     transform.yield %[[OP]] : !transform.any_op
// SPEC:        transform.named_sequence @apply_c592b7970adcc3365a64a247e8d4169d(%[[TARGET:.+]]: !transform.any_op {transform.consumed}) {
// SPEC-NEXT:     transform.stark.apply_winner %[[TARGET]] {problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "16x8xf32,8x4xf32->16x4xf32", signature = "c592b7970adcc3365a64a247e8d4169d">, winner = #stark.winner<baseline_us = 5.000000e+05, candidate = 3, params = {rows = 16 : i64}, speedup = 2.000000e+00, strategy = "hand-written", target = "cpu", winner_us = 2.500000e+05>} : !transform.any_op {
// SPEC-NEXT:       module {
// SPEC-NEXT:         func.func @kernel(
// SPEC:        transform.named_sequence @__transform_main(%[[ROOT:.+]]: !transform.any_op {transform.consumed}) {
// SPEC-NEXT:     transform.foreach_match in %[[ROOT]]
// SPEC-NEXT:       @match_c592b7970adcc3365a64a247e8d4169d -> @apply_c592b7970adcc3365a64a247e8d4169d : (!transform.any_op) -> !transform.any_op

// CHECK-LABEL: func.func @matmuls
// CHECK: call @stark_kernel_c592b7970adcc336({{.*}}) {stark.winner = {candidate = 3 : i64, signature = "c592b7970adcc3365a64a247e8d4169d", speedup = 2.000000e+00 : f64, strategy = "hand-written"}}
// Another shape is another signature: left alone.
// CHECK: linalg.matmul ins({{.*}} : tensor<16x8xf32>, tensor<8x2xf32>)
// CHECK: func.func private @stark_kernel_c592b7970adcc336
// CHECK-NOT: stark_tuned
func.func @matmuls(%a: tensor<16x8xf32>, %b: tensor<8x4xf32>, %c: tensor<16x4xf32>,
                   %b2: tensor<8x2xf32>, %c2: tensor<16x2xf32>) -> (tensor<16x4xf32>, tensor<16x2xf32>) {
  // expected-remark @+1 {{tuning spec: replaced by @stark_kernel_c592b7970adcc336 (hand-written, 2.00x, verified)}}
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x4xf32>)
                     outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  %1 = linalg.matmul ins(%a, %b2 : tensor<16x8xf32>, tensor<8x2xf32>)
                     outs(%c2 : tensor<16x2xf32>) -> tensor<16x2xf32>
  return %0, %1 : tensor<16x4xf32>, tensor<16x2xf32>
}

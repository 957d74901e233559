// A recorded winner of a contraction with an operand prologue: the spec
// anchors on the matmul (the last op of the group), the group forms again
// around it (relu(x * scale) and the matmul with the fill of its output),
// and one call of the winner replaces all three; the program computes what
// it did before (stark-eval runs both on the host).
//
// RUN: %python %S/Inputs/tuning_db.py %t.db %S/Inputs/tuning-db-prologue.json --module-file KERNEL=%S/Inputs/tuning-prologue-kernel.mlir
// RUN: stark-tune export -o %t.spec.mlir %t.db
// RUN: stark-opt %s --stark-apply-tuning-spec="spec=%t.spec.mlir" -verify-diagnostics | FileCheck %s
// RUN: stark-opt %s --stark-apply-tuning-spec="spec=%t.spec.mlir" -o %t.out.mlir 2>/dev/null
// RUN: stark-eval --correctness-trials 3 --trials 1 --max-trials 1 --warmup 0 --no-cache-flush --no-f64-reference --problem %s --candidate %t.out.mlir --entry scale_relu_matmul | FileCheck %s --check-prefix=EVAL

// CHECK-LABEL: func.func @scale_relu_matmul
// CHECK-NOT: linalg.
// CHECK: call @stark_kernel_fe1ba40e3cdca37e(
// CHECK-NOT: linalg.
// CHECK: return
// EVAL: status: ok
func.func @scale_relu_matmul(%x: tensor<16x12xf32>, %s: tensor<12xf32>, %w: tensor<12x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x12xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<16x12xf32>, tensor<12xf32>) outs(%e : tensor<16x12xf32>) {
  ^bb0(%v: f32, %k: f32, %o: f32):
    %p = arith.mulf %v, %k : f32
    %r = arith.maximumf %p, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x12xf32>
  %c0 = tensor.empty() : tensor<16x8xf32>
  %c = linalg.fill ins(%zero : f32) outs(%c0 : tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark @+1 {{tuning spec: replaced by @stark_kernel_fe1ba40e3cdca37e (loops, 2.00x, verified)}}
  %y = linalg.matmul ins(%a, %w : tensor<16x12xf32>, tensor<12x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}

// A winner recorded for this problem on this device is applied without a
// search: no candidate is evaluated (the replay transcript named here does
// not even exist, so any search would fail), the remark and the report say
// where the winner came from, and stark-substitute puts it in.
//
// RUN: %python %S/Inputs/tuning_db.py %t.db %S/Inputs/tuning-db-matmul.json --module-file KERNEL=%S/Inputs/tuning-matmul-kernel.mlir
// RUN: stark-opt %s --stark-hot-ops="profile=h200 top-k=1" --stark-outline --stark-search="target=cpu device=cpu:test tuning-db=%t.db agent=replay transcript=%t.no-such-transcript progress=0 report=%t.json" --stark-substitute -verify-diagnostics | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// The database is read, not written: still one record.
// RUN: stark-tune list %t.db | count 1

// CHECK-LABEL: func.func @matmul
// CHECK: call @stark_kernel_c592b7970adcc336({{.*}}) {stark.winner = {candidate = 3 : i64, signature = "c592b7970adcc3365a64a247e8d4169d", speedup = 2.000000e+00 : f64, strategy = "hand-written"}}
// CHECK-NOT: linalg.matmul
// CHECK: func.func private @stark_kernel_c592b7970adcc336
// CHECK: scf.for

// REPORT:      "candidates": 0,
// REPORT:      "signature": "c592b7970adcc3365a64a247e8d4169d",
// REPORT-NEXT: "source": "tuning-db",
// REPORT-NEXT: "tuning_db": {
// REPORT-NEXT:   "candidate": 3,
// REPORT-NEXT:   "device": "cpu:test",

func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  // expected-remark @+4 {{hot op #1}}
  // expected-remark @+3 {{outlined as @stark_problem_0}}
  // expected-remark @+2 {{stark-search: searched: from tuning database: 2.00x faster on cpu: hand-written rows=16 (recorded 2026-01-01T00:00:00Z on cpu:test, 500 ms -> 250 ms)}}
  // expected-remark @+1 {{stark-substitute: replaced by @stark_kernel_c592b7970adcc336 (hand-written, 2.00x, verified)}}
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x4xf32>)
                     outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

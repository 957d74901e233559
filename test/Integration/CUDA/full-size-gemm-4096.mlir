// Evaluation at full size: a 4096^3 f32 GEMM search with budget 8. The
// references of every trial input are computed once, in the problem's own
// evaluation (5 baseline + 5 f64 runs, the timing input's f64 run, 2 x 10
// for the extra trials: 31), and every candidate reuses them; the problem
// is searched (it has a baseline time) instead of being skipped. The search
// is meant to finish within 2 minutes on an H200 (`lit --time-tests`
// reports how long this test took).
//
// RUN: stark-opt %S/Inputs/gemm-4096.mlir --stark-hot-ops="profile=h200 top-k=1" --stark-outline --stark-search="target=cuda budget=8 seed=0 progress=0 report=%t.json" -o /dev/null
// RUN: FileCheck %s < %t.json

// A skipped problem has no baseline time.
// CHECK: "baseline_seconds":
// CHECK: "op": "linalg.fill + linalg.matmul"
// CHECK: "references": {
// CHECK-NEXT: "allowance_seconds":
// CHECK-NEXT: "reused": {{[1-9][0-9]*}},
// CHECK-NEXT: "runs": 31

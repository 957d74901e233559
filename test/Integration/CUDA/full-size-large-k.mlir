// Evaluation at full size: KernelBench's large-K matmul, whose upstream
// baseline used to run out of the candidate time limit, is judged: it has a
// baseline time and its references are computed once and reused.
//
// RUN: stark-opt %S/Inputs/matmul-large-k-full.mlir --stark-hot-ops="profile=h200 top-k=1" --stark-outline --stark-search="target=cuda budget=3 seed=0 timing-trials=3 progress=0 report=%t.json" -o /dev/null
// RUN: FileCheck %s < %t.json

// CHECK: "baseline_seconds":
// CHECK: "op": "linalg.fill + linalg.matmul"
// CHECK: "references": {
// CHECK-NEXT: "allowance_seconds":
// CHECK-NEXT: "reused": {{[1-9][0-9]*}},
// CHECK-NEXT: "runs": 31

// Failure paths of the search: when nothing verifies, the op stays as it
// was and a remark says why. Candidates come from replayed transcripts, so
// the outcome does not depend on timing.
//
// RUN: stark-opt %s --stark-hot-ops="profile=h200 top-k=1" --stark-outline --stark-search="target=cpu agent=replay transcript=%S/Inputs/search-wrong.json progress=0 trials=2 report=%t.json" --stark-substitute -verify-diagnostics | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// A dropped last row, then (as the repair) a kernel that overwrites C
// instead of accumulating: both are rejected, the matmul is untouched.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[R:.+]] = linalg.matmul {stark.cost = #stark.cost<{{.*}}>} ins(
// CHECK-NOT: stark.problem
// CHECK: return %[[R]]
// CHECK-NOT: module @stark_problem
func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  // expected-remark @+3 {{hot op #1}}
  // expected-remark @+2 {{outlined as @stark_problem_0}}
  // expected-remark @+1 {{stark-search: upstream: no verified candidate beat the baseline by 1.05x (2 tried, 2 failed, stopped on exhausted)}}
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x4xf32>)
                     outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// REPORT: "author": "replay"
// REPORT: "failure": "wrong: {{.*}}worst: argument #2 [15, {{[0-9]}}]
// REPORT: "parent": 0
// REPORT: "status": "wrong"
// REPORT: "strategy": "hand-written"
// REPORT: "author": "replay"
// REPORT: "changed_part": "init"
// REPORT: "failure": "wrong:
// REPORT: "parent": 1
// REPORT: "status": "wrong"
// REPORT: "stop_reason": "exhausted"
// REPORT: "winner": null

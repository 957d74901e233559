// Several evaluation workers: a batch of candidates is judged at once, the
// verdicts land in the order of proposal, and the fastest candidates are
// timed again on the home device before a winner is chosen. The replayed
// transcript proposes a correct kernel, one that drops the last row and
// the correct one again; all three hang off the root (the tree has no
// other expandable node while they are pending).
//
// RUN: stark-opt %s --stark-hot-ops="profile=h200 top-k=1" --stark-outline --stark-search="target=cpu agent=replay transcript=%S/Inputs/search-references.json progress=0 trials=2 timing-trials=2 workers-per-device=3 report=%t.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
//
// Two problems of one module are searched side by side, by the expert, each
// in a context of its own; both winners come back into the module.
// RUN: stark-opt %S/Inputs/side-by-side.mlir --stark-hot-ops="profile=h200 top-k=2" --stark-outline --stark-search="target=cpu budget=2 progress=0 trials=1 timing-trials=2 workers-per-device=2 report=%t.two.json" -o %t.two.mlir
// RUN: FileCheck %s --check-prefix=TWO < %t.two.json
// RUN: FileCheck %s --check-prefix=WINNERS < %t.two.mlir

// REPORT: "evaluation": {
// REPORT-NEXT: "devices": 1,
// REPORT-NEXT: "executors": 3,
// REPORT-NEXT: "lost": [],
// REPORT-NEXT: "mpi": false,
// REPORT-NEXT: "workers_per_device": 3
// REPORT: "candidates": 3,
// REPORT: "id": 1,
// REPORT-NEXT: "params": {
// REPORT: "parent": 0,
// REPORT: "status": "{{ok|slower}}",
// REPORT: "id": 2,
// REPORT: "parent": 0,
// REPORT: "status": "wrong",
// REPORT: "id": 3,
// REPORT: "parent": 0,
// REPORT: "status": "{{ok|slower}}",
// REPORT: "retimed": [
// REPORT-NEXT: {{[13]}},
// REPORT-NEXT: {{[13]}}
// REPORT-NEXT: ]

// TWO: "executors": 2,
// TWO: "candidates": 2,
// TWO: "problem": "stark_problem_0",
// TWO: "stop_reason": "candidates",
// TWO: "candidates": 2,
// TWO: "problem": "stark_problem_1",
// TWO: "stop_reason": "candidates",

// WINNERS: module @stark_problem_0 attributes {{.*}}stark.winner = #stark.winner<
// WINNERS: module @winner
// WINNERS: module @stark_problem_1 attributes {{.*}}stark.winner = #stark.winner<
// WINNERS: module @winner

func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x4xf32>, %c: tensor<16x4xf32>, %d: tensor<8x2xf32>, %e: tensor<16x2xf32>) -> (tensor<16x4xf32>, tensor<16x2xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x4xf32>)
                     outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  %1 = linalg.matmul ins(%a, %d : tensor<16x8xf32>, tensor<8x2xf32>)
                     outs(%e : tensor<16x2xf32>) -> tensor<16x2xf32>
  return %0, %1 : tensor<16x4xf32>, tensor<16x2xf32>
}

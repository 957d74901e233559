// The time the coverage pass leaves goes to searches. Before anything is
// measured an evaluation is taken to cost `evaluation-prior` (5 s here), so
// the plan keeps 15 s back for the coverage of three problems and a budget
// of 12 s pays for no search: every problem gets its first pick, which on
// the host takes a second or two. What is left is then planned again from
// the measured cost of an evaluation and searched, in the plan's order,
// among the problems the coverage pass gave a first pick (the softmax has
// none), without judging the first pick again. A search's winner replaces
// the first pick only when it is faster;
// otherwise the first pick stays, and its remark and report entry
// (`searched_again`) say what the search found. Each op keeps one remark,
// and the run stays within total-seconds and its 10%.
//
// RUN: stark-opt %s --stark-hot-ops="profile=host top-k=0" --stark-outline --stark-search="target=cpu budget=3 trials=1 timing-trials=1 total-seconds=12 evaluation-prior=5 summary=1 report=%t.json" --mlir-print-op-on-diagnostic=false -o %t.mlir 2> %t.log
// RUN: FileCheck %s --check-prefix=LOG < %t.log
// RUN: %python %S/Inputs/check-leftover-report.py %t.json %t.log | FileCheck %s --check-prefix=REPORT
//
// With budget=1 a search could only judge the first pick again: none runs.
// RUN: stark-opt %s --stark-hot-ops="profile=host top-k=0" --stark-outline --stark-search="target=cpu budget=1 trials=1 timing-trials=1 total-seconds=12 evaluation-prior=5" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE

// LOG: stark-search: [1/3] linalg.matmul 128x128xf32,128x128xf32->128x128xf32: {{first pick|upstream}}:
// LOG: stark-search: [3/3] linalg.matmul 16x16xf32,16x16xf32->16x16xf32: {{first pick|upstream}}:
// LOG-NEXT: stark-search: {{[0-9.]+}} s left after the coverage pass: searching the problems it covered, in the plan's order
// LOG-NEXT: stark-search: [4/4] linalg.matmul 128x128xf32,128x128xf32->128x128xf32: 1 op(s), {{[0-9.]+}}% of the model's estimated time, {{[0-9.]+}} s budget
// LOG: 45:8: remark: stark-search: {{searched: [0-9.]+x faster on cpu|first pick: .*; searched again with the time the coverage pass left \([0-9.]+ s\): (its best, [0-9.]+x, is not faster|no winner)}}

// REPORT: stark_problem_2: searched again, {{faster than its first pick|first pick kept}}, consistent
// REPORT-NEXT: stark_problem_1: upstream, consistent
// REPORT-NEXT: stark_problem_0: {{.*}}, consistent
// REPORT-NEXT: remarks per op: [1]
// REPORT-NEXT: within total-seconds: True

// ONE-NOT: left after the coverage pass
// ONE: model summary

func.func @model(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>,
                 %x: tensor<2x16384xf32>, %o: tensor<2x16384xf32>,
                 %d: tensor<128x128xf32>, %e: tensor<128x128xf32>, %f: tensor<128x128xf32>)
    -> (tensor<16x16xf32>, tensor<2x16384xf32>, tensor<128x128xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  // A row this long has no host schedule: no first pick.
  %1 = linalg.softmax dimension(1) ins(%x : tensor<2x16384xf32>)
                                   outs(%o : tensor<2x16384xf32>) -> tensor<2x16384xf32>
  %2 = linalg.matmul ins(%d, %e : tensor<128x128xf32>, tensor<128x128xf32>)
                     outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %0, %1, %2 : tensor<16x16xf32>, tensor<2x16384xf32>, tensor<128x128xf32>
}

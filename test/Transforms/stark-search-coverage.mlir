// The model's plan and its coverage. Problems are taken in order of
// expected gain (share of the model's estimated time x headroom), not in
// program order: the large matmul (last in the program) first, the long
// softmax next, the small matmul last. With a total budget that pays for no
// search (4 s: a search needs three evaluations of about 1 s, and each
// problem keeps one for coverage), every problem gets the coverage pass:
// the expert's first pick, evaluated once, kept only where it verified and
// ran faster than upstream (which of the two depends on the host's timing);
// a problem with no strategy stays upstream, and every remark says why. On a
// slow host the last pick may find no time left (total-seconds is kept to
// within 10%): it stays upstream and says so.
//
// RUN: stark-opt %s --stark-hot-ops="profile=host top-k=0" --stark-outline --stark-search="target=cpu budget=1 trials=1 timing-trials=1 total-seconds=4 summary=1 report=%t.json" --mlir-print-op-on-diagnostic=false -o %t.mlir 2> %t.log
// RUN: FileCheck %s --check-prefix=ORDER < %t.log
// RUN: %python %S/Inputs/check-coverage-report.py %t.json | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
//
// With two evaluators the first picks are judged two at a time; the
// decisions still come in the plan's order.
// RUN: stark-opt %s --stark-hot-ops="profile=host top-k=0" --stark-outline --stark-search="target=cpu budget=1 trials=1 timing-trials=1 total-seconds=4 workers-per-device=2 summary=1 report=%t.par.json" --mlir-print-op-on-diagnostic=false -o %t.par.mlir 2> %t.par.log
// RUN: FileCheck %s --check-prefix=PAR < %t.par.log
// RUN: %python %S/Inputs/check-coverage-report.py %t.par.json | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --check-prefix=IR < %t.par.mlir

// ORDER: stark-search: [1/3] linalg.matmul 128x128xf32,128x128xf32->128x128xf32: {{first pick: [0-9.]+x faster than upstream|upstream: first pick slower than upstream: .* vs }}
// ORDER-NEXT: stark-search: [2/3] linalg.softmax 2x16384xf32->2x16384xf32: upstream: no first pick: no strategy applies (softmax rows of 16384 elements are longer than the 8192 the host schedule keeps in vectors)
// ORDER-NEXT: stark-search: [3/3] linalg.matmul 16x16xf32,16x16xf32->16x16xf32: {{first pick: [0-9.]+x faster than upstream|upstream: first pick slower than upstream: .* vs |upstream: .*; no time left for its first pick}}
// ORDER: 61:8: remark: stark-search: {{first pick|upstream}}: its share of the budget left pays for no search (4.0 s of 4.0 left for 3 problem(s), about 1.00 s per evaluation); {{[0-9.]+x faster than upstream .*: cpu-tile-vectorize|first pick slower than upstream: }}
// ORDER: 58:8: remark: stark-search: upstream: its share of the budget left pays for no search (4.0 s of 4.0 left for 3 problem(s), about 1.00 s per evaluation); no first pick: no strategy applies (softmax rows of 16384 elements
// ORDER: 55:8: remark: stark-search: {{first pick|upstream}}: its share of the budget left pays for no search (4.0 s of 4.0 left for 3 problem(s), about {{[0-9.]+}} s per evaluation); {{[0-9.]+x faster than upstream .*: cpu-|first pick slower than upstream: |no time left for its first pick}}
// ORDER: stark-search: model summary: 3 problem(s) in {{[0-9.]+}} s: 0 searched, {{[0-2]}} first pick, {{[1-3]}} upstream; {{[0-2]}} with a verified winner

// PAR: stark-search: 2 first picks judged at once
// PAR-NEXT: stark-search: [1/3] linalg.matmul 128x128xf32,128x128xf32->128x128xf32: {{first pick: [0-9.]+x faster than upstream|upstream: first pick slower than upstream: .* vs }}
// PAR-NEXT: stark-search: [2/3] linalg.softmax 2x16384xf32->2x16384xf32: upstream: no first pick: no strategy applies
// PAR-NEXT: stark-search: [3/3] linalg.matmul 16x16xf32,16x16xf32->16x16xf32: {{first pick: [0-9.]+x faster than upstream|upstream: first pick slower than upstream: .* vs |upstream: .*; no time left for its first pick}}
// PAR: stark-search: model summary: 3 problem(s) in {{[0-9.]+}} s: 0 searched, {{[0-2]}} first pick, {{[1-3]}} upstream

// Each decision follows the first pick's own evaluation, in the plan's
// order (the report's `plan`).
// REPORT: #1 stark_problem_2 linalg.matmul: {{first pick|upstream}}, consistent
// REPORT-NEXT: #2 stark_problem_1 linalg.softmax: upstream, consistent
// REPORT-NEXT: #3 stark_problem_0 linalg.matmul: {{first pick|upstream}}, consistent

// Every problem is done: evaluated problems carry their baseline time and
// are not searched again; the softmax could not be evaluated.
// IR: module @stark_problem_0 attributes {stark.baseline_us
// IR: module @stark_problem_1 attributes {stark.problem =
// IR: module @stark_problem_2 attributes {stark.baseline_us

func.func @model(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>,
                 %x: tensor<2x16384xf32>, %o: tensor<2x16384xf32>,
                 %d: tensor<128x128xf32>, %e: tensor<128x128xf32>, %f: tensor<128x128xf32>)
    -> (tensor<16x16xf32>, tensor<2x16384xf32>, tensor<128x128xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  // A row this long has no host schedule: no first pick.
  %1 = linalg.softmax dimension(1) ins(%x : tensor<2x16384xf32>)
                                   outs(%o : tensor<2x16384xf32>) -> tensor<2x16384xf32>
  // The largest op, last in program order, is planned first.
  %2 = linalg.matmul ins(%d, %e : tensor<128x128xf32>, tensor<128x128xf32>)
                     outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %0, %1, %2 : tensor<16x16xf32>, tensor<2x16384xf32>, tensor<128x128xf32>
}

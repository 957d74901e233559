// The three outcomes of a model's search on the host, with real timings.
// Only the large matmul is ranked (top-k=1); the other ops are outlined
// without a cost, so they have no share of the budget and no turn: the
// matmul is searched, and the others get the coverage pass. The second
// matmul's first pick (a tiled, vectorised schedule) runs faster than the
// scalar upstream loops and is kept; the long softmax has no strategy and
// stays upstream. The plan's order puts the ranked matmul, last in the
// program, first. stark-eval checks the substituted program.
//
// RUN: stark-opt %s --stark-hot-ops="profile=host top-k=1" --stark-outline="all=1" --stark-search="target=cpu budget=2 seed=1 trials=1 timing-trials=3 total-seconds=60 summary=1 report=%t.json" --stark-substitute --mlir-print-op-on-diagnostic=false -o %t.mlir 2> %t.log
// RUN: FileCheck %s --check-prefix=REMARK < %t.log
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: stark-eval --correctness-trials 2 --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --problem %s --candidate %t.mlir --entry model | FileCheck %s

// REMARK: stark-search: [1/3] linalg.matmul 256x256xf32,256x256xf32->256x256xf32: 1 op(s), {{[0-9.]+}}% of the model's estimated time
// REMARK: stark-search: [2/3] linalg.matmul 192x256xf32,256x256xf32->192x256xf32: first pick: {{[0-9.]+}}x faster than upstream
// REMARK: stark-search: [3/3] linalg.softmax 2x16384xf32->2x16384xf32: upstream: no first pick: no strategy applies
// REMARK-DAG: 47:8: remark: stark-search: searched: {{[0-9.]+}}x faster on cpu: cpu-tile-vectorize
// REMARK-DAG: 42:8: remark: stark-search: first pick: no share of the model's estimated time (no stark.cost); {{[0-9.]+}}x faster than upstream ({{.*}}): cpu-tile-vectorize
// REMARK-DAG: 45:8: remark: stark-search: upstream: no share of the model's estimated time (no stark.cost); no first pick: no strategy applies
// REMARK: remark: stark-search: model summary: 3 problem(s) in {{[0-9.]+}} s: 1 searched, 1 first pick, 1 upstream; 2 with a verified winner

// REPORT: "evaluation_seconds":
// REPORT: "order": [
// REPORT-NEXT: "stark_problem_2",
// REPORT: "first_pick": {
// REPORT-NEXT: "id": 1,
// REPORT-NEXT: "kept": true,
// REPORT: "outcome": "first pick",
// REPORT: "outcome": "upstream",
// REPORT: "outcome": "searched",
// REPORT: "first_picks": 1,
// REPORT: "searched": 1,
// REPORT: "upstream": 1,

// CHECK: status: ok

func.func @model(%a: tensor<192x256xf32>, %b: tensor<256x256xf32>, %c: tensor<192x256xf32>,
                 %x: tensor<2x16384xf32>,
                 %d: tensor<256x256xf32>, %e: tensor<256x256xf32>, %f: tensor<256x256xf32>)
    -> (tensor<192x256xf32>, tensor<2x16384xf32>, tensor<256x256xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<192x256xf32>, tensor<256x256xf32>)
                     outs(%c : tensor<192x256xf32>) -> tensor<192x256xf32>
  %o = tensor.empty() : tensor<2x16384xf32>
  %1 = linalg.softmax dimension(1) ins(%x : tensor<2x16384xf32>)
                                   outs(%o : tensor<2x16384xf32>) -> tensor<2x16384xf32>
  %2 = linalg.matmul ins(%d, %e : tensor<256x256xf32>, tensor<256x256xf32>)
                     outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0, %1, %2 : tensor<192x256xf32>, tensor<2x16384xf32>, tensor<256x256xf32>
}

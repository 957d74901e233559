// A whole model's search: problems with the same signature are searched once
// for every op they stand for; `total-seconds` splits one
// budget across the problems by their share; progress names each problem
// with its share and budget; the model's summary closes the run.

// Two linear layers of the same shape and a different one: two problems.
// RUN: stark-opt %s --stark-pipeline="target=cpu top-k=3 budget=1 trials=1 timing-trials=1 summary=1" --mlir-print-op-on-diagnostic=false -o %t.mlir 2> %t.log
// RUN: FileCheck %s --check-prefix=PROGRESS < %t.log

// PROGRESS: 32:9: remark: outlined with the fill of its output as @stark_problem_0
// PROGRESS: 34:9: remark: outlined with the fill of its output as @stark_problem_0
// PROGRESS: 37:9: remark: outlined with the fill of its output as @stark_problem_1
// PROGRESS: stark-search: [1/2] linalg.fill + linalg.matmul 128x128xf32,128x128xf32->128x128xf32: 4 op(s), {{[0-9.]+}}% of the model's estimated time, 120.0 s budget
// PROGRESS: stark-search: [2/2] linalg.fill + linalg.matmul 128x128xf32,128x64xf32->128x64xf32: 2 op(s)
// PROGRESS: remark: stark-search: model summary: 2 problem(s) in {{[0-9.]+}} s: {{[0-2]}} searched, 0 first pick, {{[0-2]}} upstream; {{[0-2]}} with a verified winner; their ops are {{[0-9.]+}}% of the model's estimated time

// With almost no total budget no problem is searched, and not even a first
// pick fits (total-seconds is kept to within 10%): every one of the six ops
// stays upstream and says why.
// RUN: stark-opt %s --stark-pipeline="target=cpu top-k=3 budget=1 total-seconds=0.001 progress=0" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPENT
// SPENT-COUNT-6: remark: stark-search: upstream: budget spent ({{.*}}); no time left for its first pick ({{[0-9.]+}} s spent of the 0.0 s that total-seconds allows with its 10%)
// SPENT-NOT: stark-search: {{searched|first pick}}

// RUN: not stark-opt %s --stark-search="total-seconds=-1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: error: stark-search: total-seconds must not be negative

func.func @layers(%x: tensor<128x128xf32>, %w1: tensor<128x128xf32>, %w2: tensor<128x128xf32>,
                  %w3: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %a1 = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<128x128xf32>, tensor<128x128xf32>) outs(%a1 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %a2 = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %h2 = linalg.matmul ins(%h1, %w2 : tensor<128x128xf32>, tensor<128x128xf32>) outs(%a2 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %e3 = tensor.empty() : tensor<128x64xf32>
  %a3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %h3 = linalg.matmul ins(%h2, %w3 : tensor<128x128xf32>, tensor<128x64xf32>) outs(%a3 : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %h3 : tensor<128x64xf32>
}

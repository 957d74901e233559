// A problem whose search turn ends before its first candidate (its own
// baseline evaluation took the turn's time: here a 384^3 matmul whose
// upstream lowering runs for ~50 ms, against a turn of a few seconds) is
// covered like a problem whose turn never came: the expert's first pick is
// evaluated and kept when faster. It is never left upstream untried.
// (On a fast host the turn may pay for candidates: then it is searched.)
//
// RUN: stark-opt %s --stark-hot-ops="profile=host top-k=0" --stark-outline --stark-search="target=cpu budget=2 total-seconds=6 summary=1" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s

// CHECK: stark-search: [1/1] linalg.matmul 384x384xf32,384x384xf32->384x384xf32: 1 op(s), 100.0% of the model's estimated time
// CHECK-NOT: 0 tried
// CHECK: remark: stark-search: {{searched: [0-9.]+x faster|first pick: its search tried no candidate \(stopped on .*\); [0-9.]+x faster than upstream|upstream: its search tried no candidate \(stopped on .*\); first pick slower than upstream}}
// CHECK: model summary: 1 problem(s)

func.func @model(%a: tensor<384x384xf32>, %b: tensor<384x384xf32>, %c: tensor<384x384xf32>) -> tensor<384x384xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<384x384xf32>, tensor<384x384xf32>)
                     outs(%c : tensor<384x384xf32>) -> tensor<384x384xf32>
  return %0 : tensor<384x384xf32>
}

// The search computes the reference outputs of its trial inputs once, in the
// problem's own evaluation, and every candidate reuses them. With 2 trials
// (and the special values) and an f64 reference that is 3 baseline runs,
// 3 f64 runs, a baseline and an f64 run on each of the 3 timing sets and 2
// runs for each of the 10 extra trials a suspicious speedup would trigger:
// 32 runs for the whole search, however many candidates. The candidates
// (replayed: a correct kernel, one that drops the last row, the correct one
// again) read 6, 1 and 6 trial inputs, and the wrong one is still
// rejected. Every candidate goes through every trial (screen=false): a
// screened one reads fewer.
//
// RUN: stark-opt %s --stark-hot-ops="profile=h200 top-k=1" --stark-outline --stark-search="target=cpu agent=replay transcript=%S/Inputs/search-references.json progress=0 trials=2 timing-trials=2 screen=false report=%t.json" -o /dev/null
// RUN: FileCheck %s < %t.json

// CHECK: "candidates": 3,
// CHECK: "status": "ok"
// CHECK: "failure": "wrong: argument #2 differs from the reference in 4 of 64 elements
// CHECK: "status": "ok"
// CHECK: "references": {
// CHECK-NEXT: "allowance_seconds": {{[0-9.e+-]+}},
// CHECK-NEXT: "reused": 13,
// CHECK-NEXT: "runs": 32
// CHECK-NEXT: },
func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x4xf32>)
                     outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// Screening (`screen`, on by default): a candidate is timed after its first
// correctness trial and verified in full only when it can win. With
// min-speedup=1000 no candidate can, so the two correct candidates of the
// replay are reported as `slower` after one trial each, the one that drops
// the last row is still `wrong`, nothing wins and the program keeps its op.
// With screen=false the same candidates are verified in full.
//
// RUN: stark-opt %s --stark-hot-ops="profile=h200 top-k=1" --stark-outline --stark-search="target=cpu agent=replay transcript=%S/Inputs/search-references.json progress=0 trials=2 timing-trials=2 min-speedup=1000 report=%t.json" -o %t.mlir
// RUN: FileCheck %s < %t.json
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: stark-opt %s --stark-hot-ops="profile=h200 top-k=1" --stark-outline --stark-search="target=cpu agent=replay transcript=%S/Inputs/search-references.json progress=0 trials=2 timing-trials=2 min-speedup=1000 screen=false report=%t.full.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=FULL < %t.full.json

// CHECK:      "candidates": 3,
// CHECK:      "id": 1,
// CHECK:      "speedup": {{[0-9.e+-]+}},
// CHECK-NEXT: "status": "slower",
// CHECK:      "id": 2,
// CHECK:      "status": "wrong",
// CHECK:      "id": 3,
// CHECK:      "speedup": {{[0-9.e+-]+}},
// CHECK-NEXT: "status": "slower",
// CHECK:      "winner": null

// IR: linalg.matmul
// IR-NOT: stark.winner

// FULL:      "id": 1,
// FULL:      "status": "ok",
// FULL:      "id": 2,
// FULL:      "status": "wrong",
// FULL:      "id": 3,
// FULL:      "status": "ok",
// FULL:      "winner": null
func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x4xf32>)
                     outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

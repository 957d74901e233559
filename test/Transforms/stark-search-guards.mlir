// The cpu target checks every candidate's lowered form (no mutable
// globals, no assembly, no calls outside its runtime functions), the
// expert's too: a matmul and a softmax searched on the host still get
// candidates that pass (verified, or screened as slower after passing their
// first trial), and no node of the report failed a guard.
//
// RUN: stark-opt %s --stark-hot-ops="profile=h200 top-k=2" --stark-outline --stark-search="target=cpu progress=0 budget=3 trials=2 timing-trials=3 report=%t.json" -o /dev/null
// RUN: FileCheck %s --implicit-check-not="breaks a guard" --implicit-check-not="does not resolve" < %t.json

// CHECK: "strategy": "baseline"
// CHECK: "status": "{{ok|slower}}",
// CHECK-NEXT: "strategy": "cpu-tile-vectorize"
// CHECK: "op": "linalg.matmul"
// CHECK: "strategy": "baseline"
// CHECK: "status": "{{ok|slower}}",
// CHECK-NEXT: "strategy": "cpu-softmax-rows"
// CHECK: "op": "linalg.softmax"

func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
                     outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

func.func @softmax(%x: tensor<64x128xf32>, %o: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = linalg.softmax dimension(1) ins(%x : tensor<64x128xf32>)
                                   outs(%o : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

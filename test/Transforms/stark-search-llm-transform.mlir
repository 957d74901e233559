// REQUIRES: llm-http
// The coder may answer with a transform script: it is applied to the
// problem and the result is judged like any candidate (here it verifies;
// whether it beats the baseline depends on the machine).
//
// RUN: %llm-server %S/Inputs/llm-transform.json -- stark-opt %s --stark-hot-ops="top-k=1" --stark-outline --stark-search="target=cpu agent=llm llm-url=@URL@ llm-model=scripted budget=1 progress=0 trials=2 report=%t.json" -verify-diagnostics -o /dev/null
// RUN: FileCheck %s < %t.json

// CHECK: "author": "planner+coder",
// CHECK-NEXT: "changed_part": "all",
// CHECK: "params": {
// CHECK-NEXT: "tiles": "8,32,1"
// CHECK-NEXT: },
// CHECK-NEXT: "parent": 0,
// CHECK-NEXT: "plan": "tile 8x32x1 and vectorize, contraction as outer products",
// CHECK: "status": "{{ok|slower}}",
// CHECK-NEXT: "strategy": "td-tile"
func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-remark @+3 {{hot op #1}}
  // expected-remark @+2 {{outlined as @stark_problem_0}}
  // expected-remark @+1 {{stark-search: }}
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
                     outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

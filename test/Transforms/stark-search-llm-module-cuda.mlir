// REQUIRES: llm-http
// CUDA C++ inside a reply written as an MLIR module (a stark.cuda attribute
// naming a template family, its `__global__` spelled with MLIR's hex
// escapes so the reply does not read as CUDA C++) is model-written all the
// same: it gets the text guards, runs only with target=cuda, and is given
// the model-written family whose PTX the cuda target checks.
//
// RUN: %llm-server %S/Inputs/llm-module-cuda.json -- stark-opt %s --stark-hot-ops="profile=h200 top-k=1" --stark-outline --stark-search="target=cpu agent=llm llm-url=@URL@ llm-model=scripted budget=2 progress=0 trials=2 report=%t.json" --stark-substitute -o /dev/null
// RUN: FileCheck %s < %t.json

// CHECK: "failure": "rejected by the guards: host code: a main function ('main(')",
// CHECK-NEXT: "id": 1,
// CHECK: "failure": "CUDA C++ runs only with target=cuda; this search runs on cpu",
// CHECK-NEXT: "id": 2,

func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x4xf32>)
                     outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

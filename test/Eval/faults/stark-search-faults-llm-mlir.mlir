// REQUIRES: llm-http
// Planted faults, class "guards on model-written code", MLIR form: a
// model's reply is checked on its lowered form, with no module state and
// no calls outside the runtime's allow-list. Each reply below computes
// the right C (the cached one on repeated inputs) and must be rejected
// before it runs, so the search has no winner. (CUDA C++ replies are
// checked on their PTX; see test/Integration/CUDA/faults/.)
//
// DEFINE: %{search} = stark-opt %s --stark-hot-ops="profile=h200 top-k=1" --stark-outline --stark-search="target=cpu agent=llm llm-url=@URL@ llm-model=scripted budget=1 progress=0 trials=2

// Expected: rejected (or compile_error). A mutable memref.global (a cache
// keyed by B[0, 0]).
// RUN: %llm-server %S/Inputs/llm-mlir-global.json -- %{search} report=%t.global.json" -o /dev/null
// RUN: FileCheck %s < %t.global.json

// Expected: rejected (or compile_error). An inline-assembly system call.
// RUN: %llm-server %S/Inputs/llm-mlir-asm.json -- %{search} report=%t.asm.json" -o /dev/null
// RUN: FileCheck %s < %t.asm.json

// Expected: rejected (or compile_error). A call to libc's puts.
// RUN: %llm-server %S/Inputs/llm-mlir-libc.json -- %{search} report=%t.libc.json" -o /dev/null
// RUN: FileCheck %s < %t.libc.json

// CHECK: "id": 1,
// CHECK: "status": "{{rejected|compile_error}}",
// CHECK: "winner": null

func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x4xf32>)
                     outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// A model-written CUDA C++ kernel on the GPU, from a recorded llm
// transcript (agent=replay needs no server, so this runs in the static GPU
// bundle too): the planner's plan and the coder's kernel with its launches
// pass the guards, become a #stark.cuda candidate, and the evaluator
// verifies it on the device.
//
// RUN: stark-opt %s --stark-search="target=cuda agent=replay transcript=%S/Inputs/llm-cuda-transcript.jsonl budget=1 progress=0 report=%t.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.json

// REMARK: remark: stark-search:
// CHECK: "agent": "replay",
// CHECK: "llm": {
// CHECK-NEXT: "completion_tokens": 250,
// CHECK-NEXT: "prompt_tokens": 1600,
// CHECK-NEXT: "requests": 2
// CHECK: "id": 1,
// CHECK-NEXT: "params": {
// CHECK-NEXT: "block": "16x16"
// CHECK: "plan": "one thread per element of C, 16x16 blocks, k loop in registers",
// CHECK: "status": "ok",
// CHECK-NEXT: "strategy": "cuda-naive"

module {
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "256x256xf32,256x256xf32->256x256xf32", signature = "00">} {
    func.func @kernel(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
      linalg.matmul ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
      return
    }
  }
}

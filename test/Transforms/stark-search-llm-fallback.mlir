// REQUIRES: llm-http
// With llm-fallback=expert, a model that cannot be reached hands the roles
// to the expert: a remark and the report say so, and the search goes on.
// RUN: stark-opt %s --stark-search="target=cpu agent=llm llm-url=http://127.0.0.1:9 llm-model=m llm-retries=0 llm-fallback=expert progress=0 trials=1 timing-trials=1 budget=1 report=%t.json" 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK: remark: stark-search: agent llm fell back to expert: the model failed (unreachable): cannot reach the model at http://127.0.0.1:9/v1/chat/completions
// CHECK-NOT: error
// CHECK: module @stark_problem_0

// REPORT: "agent": "llm",
// REPORT: "llm": {
// REPORT-NEXT: "completion_tokens": 0,
// REPORT-NEXT: "cost": 0,
// REPORT-NEXT: "model": "m",
// REPORT-NEXT: "prompt_tokens": 0,
// REPORT-NEXT: "provider": "openai",
// REPORT-NEXT: "requests": 1
// REPORT: "llm": {
// REPORT-NEXT: "completion_tokens": 0,
// REPORT-NEXT: "fallback": "the model failed (unreachable): cannot reach the model at http://127.0.0.1:9/v1/chat/completions{{.*}}",
// REPORT-NEXT: "prompt_tokens": 0,
// REPORT-NEXT: "requests": 1
// REPORT: "author": "planner+coder"

module {
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "16x8xf32,8x4xf32->16x4xf32", signature = "00">} {
    func.func @kernel(%a: memref<16x8xf32>, %b: memref<8x4xf32>, %c: memref<16x4xf32>) {
      linalg.matmul ins(%a, %b : memref<16x8xf32>, memref<8x4xf32>) outs(%c : memref<16x4xf32>)
      return
    }
  }
}

// REQUIRES: llm-http
// Replies that cannot be used become rejected candidates, with the reason
// the debugger then sees, and are never compiled: a plan with no JSON
// header, a region outside the candidate, a transform script for a marked
// region, CUDA C++ with host code or writing through an input (the
// guards), CUDA C++ on the CPU, a truncated reply. Nothing passes, so the
// op is left as it was.
//
// RUN: %llm-server %S/Inputs/llm-rejections.json -- stark-opt %s --stark-hot-ops="profile=h200 top-k=1" --stark-outline --stark-search="target=cpu agent=llm llm-url=@URL@ llm-model=scripted budget=6 progress=0 trials=2 report=%t.json" --stark-substitute -verify-diagnostics | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK-LABEL: func.func @matmul
// CHECK: linalg.matmul
// CHECK-NOT: stark.problem
// Which node each reply lands on follows from the seed (every candidate
// fails, so no timing enters the selection).
// REPORT: "failure": "the planner's reply has no JSON header",
// REPORT-NEXT: "id": 1,
// REPORT: "status": "rejected",
// REPORT: "author": "debugger",
// REPORT: "failure": "the debugger's reply: the reply was cut off at the token limit (finish reason 'length'); raise llm-max-tokens",
// REPORT-NEXT: "id": 2,
// REPORT: "changed_part": "lines 1-2",
// REPORT: "failure": "a transform script rewrites the whole candidate, but the planner marked only lines 1-2",
// REPORT-NEXT: "id": 3,
// REPORT: "failure": "CUDA C++ runs only with target=cuda; this search runs on cpu",
// REPORT-NEXT: "id": 4,
// REPORT: "plan": "repair node 2 (rejected): one thread per element of C",
// REPORT: "failure": "rejected by the guards: host code: a main function ('main(')",
// REPORT-NEXT: "id": 5,
// REPORT: "failure": "rejected by the guards: kernel 'mm' may write through input 'a' (pointer parameter 0); declare every input `const`",
// REPORT-NEXT: "id": 6,
// REPORT: "stop_reason": "candidates",
// REPORT: "winner": null

func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  // expected-remark @+3 {{hot op #1}}
  // expected-remark @+2 {{outlined as @stark_problem_0}}
  // expected-remark @+1 {{stark-search: upstream: no verified candidate beat the baseline by 1.05x (6 tried, 6 failed, stopped on candidates)}}
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x4xf32>)
                     outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

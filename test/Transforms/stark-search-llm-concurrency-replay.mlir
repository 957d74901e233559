// REQUIRES: llm-http
// Record and replay with 4 requests in flight. The scripted model answers
// each role's requests in the order they arrive, with different plans and
// delays (one usable plan, one out of range, the rest not plans at all),
// so which proposal got which reply differs from run to run; the
// transcript says which proposal each request served, and the replay hands
// every proposal its own recorded replies, whatever order the replay's
// requests come in: the same tree and the same winner. The replay asks
// ahead as the recording did (the transcript's concurrency, whatever
// llm-concurrency says). The winner's bar is any speedup (min-speedup=1.0):
// the test is about the tree, and a loaded machine's timings must not take
// the one verified candidate's win away in one run and not the other.
//
// RUN: %llm-server %S/Inputs/llm-concurrent.json --stats %t.stats -- stark-opt %s --stark-hot-ops="top-k=1" --stark-outline --stark-search="target=cpu agent=llm llm-url=@URL@ llm-model=scripted llm-concurrency=4 budget=6 min-speedup=1.0 progress=0 trials=2 report=%t.json transcript=%t.jsonl" --stark-substitute -verify-diagnostics | FileCheck %s
// RUN: %python %S/../LLM/Inputs/check-stats.py %t.stats max_in_flight ge 2 max_in_flight le 4
// RUN: FileCheck %s --check-prefix=TRANSCRIPT < %t.jsonl
// RUN: stark-opt %s --stark-hot-ops="top-k=1" --stark-outline --stark-search="target=cpu agent=replay transcript=%t.jsonl llm-concurrency=1 budget=6 min-speedup=1.0 progress=0 trials=2 report=%t.replay.json" --stark-substitute -verify-diagnostics | FileCheck %s
// RUN: %python %S/../LLM/Inputs/same-tree.py %t.json %t.replay.json | FileCheck %s --check-prefix=SAME
// RUN: FileCheck %s --check-prefix=REPORT < %t.replay.json

// CHECK-LABEL: func.func @matmul
// CHECK: call @stark_kernel_{{[0-9a-f]+}}({{.*}}) {stark.winner = {candidate = {{[0-9]+}} : i64, signature = "{{[0-9a-f]+}}", speedup = {{.*}}, strategy = "hand-vectorized"}}
// CHECK-NOT: linalg.matmul

// TRANSCRIPT: {"concurrency":4,"model":"scripted","provider":"openai","stark_llm_transcript":1,
// TRANSCRIPT: "proposal":0,

// SAME: same tree: 7 nodes

// REPORT: "candidates": 6,
// REPORT-DAG: "failure": "the planner's region [1000, 1001] is not within the
// REPORT-DAG: "strategy": "hand-vectorized"
// REPORT: "stop_reason": "candidates",
// REPORT: "winner": {{[1-9]}}

func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-remark @+4 {{hot op #1}}
  // expected-remark @+3 {{outlined as @stark_problem_0}}
  // expected-remark @+2 {{stark-search: }}
  // expected-remark @+1 {{stark-substitute: replaced by @stark_kernel_}}
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
                     outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

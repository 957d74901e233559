// REQUIRES: llm-http
// agent=llm against a scripted model on loopback: the planner plans a
// register-blocked matmul for the whole candidate, the coder writes it as
// an MLIR module, the evaluator verifies and times it, and it replaces the
// op. The second plan marks lines 9-10 of that candidate, and the coder's
// answer changes line 1: rejected before compiling. The run is recorded; replaying the
// transcript without a server gives the same tree and winner, and a replay
// that asks more than was recorded is reported as a mismatch.
//
// RUN: %llm-server %S/Inputs/llm-good.json --log %t.log -- stark-opt %s --stark-hot-ops="top-k=1" --stark-outline --stark-search="target=cpu agent=llm llm-url=@URL@ llm-model=scripted budget=2 progress=0 trials=2 report=%t.json transcript=%t.jsonl" --stark-substitute -verify-diagnostics | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: FileCheck %s --check-prefix=TRANSCRIPT < %t.jsonl
// RUN: count 5 < %t.jsonl
// RUN: FileCheck %s --check-prefix=SERVER < %t.log
// RUN: stark-opt %s --stark-hot-ops="top-k=1" --stark-outline --stark-search="target=cpu agent=replay transcript=%t.jsonl budget=2 progress=0 trials=2 report=%t.replay.json" --stark-substitute -verify-diagnostics | FileCheck %s
// RUN: %python %S/../LLM/Inputs/same-tree.py %t.json %t.replay.json | FileCheck %s --check-prefix=SAME
// RUN: not stark-opt %s --stark-hot-ops="top-k=1" --stark-outline --stark-search="target=cpu agent=replay transcript=%t.jsonl budget=3 progress=0 trials=2" 2>&1 | FileCheck %s --check-prefix=MISMATCH

// CHECK-LABEL: func.func @matmul
// CHECK: call @stark_kernel_{{[0-9a-f]+}}({{.*}}) {stark.winner = {candidate = 1 : i64, signature = "{{[0-9a-f]+}}", speedup = {{.*}}, strategy = "hand-vectorized"}}
// CHECK-NOT: linalg.matmul
// CHECK: func.func private @stark_kernel_
// CHECK: vector.load
// REPORT: "llm": {
// REPORT-NEXT: "completion_tokens": 1500,
// REPORT-NEXT: "cost": 0,
// REPORT-NEXT: "model": "scripted",
// REPORT-NEXT: "prompt_tokens": 4400,
// REPORT-NEXT: "provider": "openai",
// REPORT-NEXT: "requests": 4
// REPORT: "llm": {
// REPORT-NEXT: "completion_tokens": 1500,
// REPORT-NEXT: "prompt_tokens": 4400,
// REPORT-NEXT: "requests": 4
// REPORT: "author": "planner+coder",
// REPORT-NEXT: "changed_part": "all",
// REPORT: "id": 1,
// REPORT-NEXT: "params": {
// REPORT-NEXT: "register_tile": "8x32"
// REPORT-NEXT: },
// REPORT-NEXT: "parent": 0,
// REPORT-NEXT: "plan": "8x32 register blocks of C kept in vectors across k, rows of B as vector loads, A broadcast",
// REPORT: "status": "{{ok|slower}}",
// REPORT-NEXT: "strategy": "hand-vectorized"
// REPORT: "changed_part": "lines 9-10",
// REPORT: "failure": "the coder changed line 1 of the parent, outside the region 9-10 the planner marked: expected '#map = affine_map<(d0) -> (d0 + 1)>', got '#map = affine_map<(d0) -> (d0 + 9)>'",
// REPORT-NEXT: "id": 2,
// REPORT: "parent": 1,
// REPORT-NEXT: "plan": "unroll the k loop by 2",
// REPORT-NEXT: "status": "rejected",
// REPORT-NEXT: "strategy": "unroll"
// REPORT: "stop_reason": "candidates",
// REPORT: "winner": 1

// The transcript: a header, then each request with its role, problem,
// node, prompts, reply and token counts; the server saw no key, and the
// planner was shown the candidate with numbered lines.
// TRANSCRIPT: {"model":"scripted","provider":"openai","stark_llm_transcript":1,"started":"{{.*}}"}
// TRANSCRIPT-NEXT: {"attempts":1,"completion_tokens":60,{{.*}}"node":0,"problem":"stark_problem_0","prompt_tokens":900,"reply":"The baseline is scalar loops;{{.*}}"role":"planner",{{.*}}"system":"You are the planner{{.*}}"user":"# Problem stark_problem_0\n\nTarget: cpu, hardware profile host{{.*}}   1 | module
// TRANSCRIPT-NEXT: {{.*}}"node":0,{{.*}}"role":"coder",{{.*}}"system":"You are the coder{{.*}}# Region\n\nall: rewrite the whole candidate.
// TRANSCRIPT-NEXT: {{.*}}"node":1,{{.*}}"role":"planner",{{.*}}# Candidate of node 1 (lines numbered)\n\n```mlir\n   1 | #map = affine_map
// TRANSCRIPT-NEXT: {{.*}}"node":1,{{.*}}"role":"coder",{{.*}}Only lines 9-10 of the parent may change

// SERVER: "role": "planner", "path": "/v1/chat/completions", "authorization": null, "x-api-key": null,
// SERVER: "role": "coder",
// SERVER: "role": "planner",
// SERVER: "role": "coder",

// SAME: same tree: 3 nodes

// MISMATCH: error: stark-search: agent replay: the model failed (replay): transcript '{{.*}}.jsonl' mismatch: it ends after 4 requests, the search asks the {{planner|debugger}} for node {{[0-9]}} of stark_problem_0

func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-remark @+4 {{hot op #1}}
  // expected-remark @+3 {{outlined as @stark_problem_0}}
  // expected-remark @+2 {{stark-search: }}
  // expected-remark @+1 {{stark-substitute: replaced by @stark_kernel_}}
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
                     outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

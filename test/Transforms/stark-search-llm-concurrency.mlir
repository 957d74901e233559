// REQUIRES: llm-http
// llm-concurrency: the search asks the model for the next proposals while
// the current ones are read and judged. The scripted model answers every
// request after 1 s with a reply the roles cannot use (each proposal is
// one request and becomes a rejected node). 8 candidates take at least
// 8 s one request at a time; with 4 in flight they take about 2 s (the
// check asks for less than 7 s: a loaded machine adds the judging of the
// candidates, and one request at a time cannot take less than 8 s), the
// server sees more than one request at once (never more than 4), and the
// candidate budget still buys exactly 8 requests.
//
// RUN: env STARK_LLM_CONCURRENCY=4 %llm-server %S/Inputs/llm-slow-garbage.json --stats %t.c4.stats -- stark-opt %s --stark-search="target=cpu agent=llm llm-url=@URL@ llm-model=scripted budget=8 progress=0 trials=1 timing-trials=1 report=%t.c4.json"
// RUN: %python %S/../LLM/Inputs/check-stats.py %t.c4.stats requests eq 8 max_in_flight ge 2 max_in_flight le 4 span_s lt 7
// RUN: FileCheck %s --check-prefix=BUDGET < %t.c4.json
// RUN: FileCheck %s --check-prefix=HEADER < %t.c4.json
// The option wins over the environment: one request at a time.
// RUN: env STARK_LLM_CONCURRENCY=4 %llm-server %S/Inputs/llm-slow-garbage.json --stats %t.c1.stats -- stark-opt %s --stark-search="target=cpu agent=llm llm-url=@URL@ llm-model=scripted llm-concurrency=1 budget=8 progress=0 trials=1 timing-trials=1 report=%t.c1.json"
// RUN: %python %S/../LLM/Inputs/check-stats.py %t.c1.stats requests eq 8 max_in_flight eq 1 span_s ge 8
// RUN: FileCheck %s --check-prefix=BUDGET < %t.c1.json
//
// A token budget of 100 is spent by the first reply (150 tokens): the 4
// requests in flight by then complete, count and are used; no request is
// sent after it, and the search stops on `tokens`.
// RUN: %llm-server %S/Inputs/llm-slow-garbage.json --stats %t.tokens.stats -- stark-opt %s --stark-search="target=cpu agent=llm llm-url=@URL@ llm-model=scripted llm-concurrency=4 llm-token-budget=100 budget=8 progress=0 trials=1 timing-trials=1 report=%t.tokens.json"
// RUN: %python %S/../LLM/Inputs/check-stats.py %t.tokens.stats requests eq 4
// RUN: FileCheck %s --check-prefix=TOKENS < %t.tokens.json
//
// Failures are handled as with one request at a time: a 429 is retried
// after its Retry-After (4 candidates, 5 requests) ...
// RUN: %llm-server %S/Inputs/llm-429-then-garbage.json --stats %t.429.stats -- stark-opt %s --stark-search="target=cpu agent=llm llm-url=@URL@ llm-model=scripted llm-concurrency=4 budget=4 progress=0 trials=1 timing-trials=1 transcript=%t.429.jsonl"
// RUN: %python %S/../LLM/Inputs/check-stats.py %t.429.stats requests eq 5
// RUN: FileCheck %s --check-prefix=RETRY < %t.429.jsonl
// ... and an unreachable model hands the roles to the expert.
// RUN: stark-opt %s --stark-search="target=cpu agent=llm llm-url=http://127.0.0.1:9 llm-model=m llm-retries=0 llm-concurrency=4 llm-fallback=expert progress=0 trials=1 timing-trials=1 budget=2 report=%t.fallback.json" 2>&1 | FileCheck %s --check-prefix=FALLBACK
// RUN: FileCheck %s --check-prefix=FALLBACK-REPORT < %t.fallback.json

// HEADER: "llm": {
// HEADER-NEXT: "completion_tokens": 400,
// HEADER-NEXT: "concurrency": 4,

// BUDGET: "candidates": 8,
// BUDGET: "stop_reason": "candidates",

// TOKENS: "llm": {
// TOKENS-NEXT: "completion_tokens": 200,
// TOKENS: "prompt_tokens": 400,
// TOKENS: "candidates": 4,
// TOKENS: "stop_reason": "tokens",

// RETRY: {"concurrency":4,
// RETRY: "attempts":2,

// FALLBACK: remark: stark-search: agent llm fell back to expert: the model failed (unreachable): cannot reach the model at http://127.0.0.1:9/v1/chat/completions
// FALLBACK-NOT: error
// FALLBACK-REPORT: "fallback": "the model failed (unreachable)
// FALLBACK-REPORT: "author": "planner+coder",
// FALLBACK-REPORT: "status": "{{ok|slower}}",

module {
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "16x8xf32,8x4xf32->16x4xf32", signature = "00">} {
    func.func @kernel(%a: memref<16x8xf32>, %b: memref<8x4xf32>, %c: memref<16x4xf32>) {
      linalg.matmul ins(%a, %b : memref<16x8xf32>, memref<8x4xf32>) outs(%c : memref<16x4xf32>)
      return
    }
  }
}

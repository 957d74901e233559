// REQUIRES: llm-http
// Bad llm options are errors at the module, before any request; the IR is
// left alone.
// RUN: not stark-opt %s --stark-search="target=cpu agent=llm llm-model=m llm-fallback=maybe" 2>&1 | FileCheck %s --check-prefix=FALLBACK
// RUN: env -u STARK_LLM_URL not stark-opt %s --stark-search="target=cpu agent=llm llm-model=m" 2>&1 | FileCheck %s --check-prefix=NOURL
// RUN: env -u STARK_LLM_MODEL not stark-opt %s --stark-search="target=cpu agent=llm llm-url=http://127.0.0.1:9" 2>&1 | FileCheck %s --check-prefix=NOMODEL
// RUN: not stark-opt %s --stark-search="target=cpu agent=llm llm-url=http://127.0.0.1:9 llm-model=m llm-provider=gemini" 2>&1 | FileCheck %s --check-prefix=PROVIDER
// RUN: not stark-opt %s --stark-search="target=cpu agent=llm llm-url=http://127.0.0.1:9 llm-model=m llm-timeout=0" 2>&1 | FileCheck %s --check-prefix=TIMEOUT
// RUN: not stark-opt %s --stark-search="target=cpu agent=llm llm-url=http://127.0.0.1:9 llm-model=m transcript=%t.missing/run.jsonl" 2>&1 | FileCheck %s --check-prefix=TRANSCRIPT
// RUN: not stark-opt %s --stark-search="target=cpu agent=replay transcript=%S/Inputs/llm-bad-transcript.jsonl" 2>&1 | FileCheck %s --check-prefix=BADREPLAY
// RUN: stark-opt %s --stark-search="target=cpu agent=llm llm-url=http://127.0.0.1:9 llm-model=m llm-prompts=%t.none progress=0" -verify-diagnostics

// FALLBACK: error: stark-search: unknown llm-fallback 'maybe'; expected none or expert
// NOURL: error: stark-search: no model server: set llm-url (or STARK_LLM_URL)
// NOMODEL: error: stark-search: no model name: set llm-model (or STARK_LLM_MODEL)
// PROVIDER: error: stark-search: unknown llm-provider 'gemini'; expected openai or anthropic
// TIMEOUT: error: stark-search: llm-timeout and llm-connect-timeout must be positive
// TRANSCRIPT: error: stark-search: cannot write transcript '{{.*}}.missing/run.jsonl'
// BADREPLAY: error: stark-search: transcript '{{.*}}llm-bad-transcript.jsonl', line 3: a field has the wrong type

module {
  // expected-error @+1 {{stark-search: cannot read the planner prompt '}}
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.copy", shapes = "4xf32->4xf32", signature = "00">} {
    func.func @kernel(%a: memref<4xf32>, %b: memref<4xf32>) {
      linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
      return
    }
  }
}

// REQUIRES: llm-http
// llm-concurrency outside 1..64, from the option or from
// STARK_LLM_CONCURRENCY, is an error at the module before any request; the
// IR is left alone.
// RUN: stark-opt %s --stark-search="target=cpu agent=llm llm-url=http://127.0.0.1:9 llm-model=m llm-concurrency=65" -verify-diagnostics
// RUN: env STARK_LLM_CONCURRENCY=lots stark-opt %s --stark-search="target=cpu agent=llm llm-url=http://127.0.0.1:9 llm-model=m" -verify-diagnostics
// RUN: env STARK_LLM_CONCURRENCY=0 stark-opt %s --stark-search="target=cpu agent=llm llm-url=http://127.0.0.1:9 llm-model=m" -verify-diagnostics
// RUN: env STARK_LLM_CONCURRENCY=4x stark-opt %s --stark-search="target=cpu agent=llm llm-url=http://127.0.0.1:9 llm-model=m" -verify-diagnostics
// RUN: not stark-opt %s --stark-search="target=cpu agent=llm llm-url=http://127.0.0.1:9 llm-model=m llm-concurrency=65" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: env STARK_LLM_CONCURRENCY=lots not stark-opt %s --stark-search="target=cpu agent=llm llm-url=http://127.0.0.1:9 llm-model=m" 2>&1 | FileCheck %s --check-prefix=ENV

// OPTION: error: stark-search: llm-concurrency must be a whole number from 1 to 64, got 65
// ENV: error: stark-search: llm-concurrency must be a whole number from 1 to 64, got 'lots' from STARK_LLM_CONCURRENCY

// expected-error @+1 {{stark-search: llm-concurrency must be a whole number from 1 to 64, got}}
module {
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.copy", shapes = "4xf32->4xf32", signature = "00">} {
    func.func @kernel(%a: memref<4xf32>, %b: memref<4xf32>) {
      linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
      return
    }
  }
}

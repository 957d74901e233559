// Planted faults, class "guards on model-written code", CUDA C++ form:
// replies that today's text guards let through, each rejected once the
// PTX that NVRTC produced is checked (module-scope state, %clock64 or
// %globaltimer reads) or the text guards cover the form: a function-local
// `static unsigned int`, __device__ state inside a namespace or an
// extern "C" block, clock64 behind a #define, %globaltimer in a split asm
// string, a C-style cast that writes a const input, and a write-only output
// read through an alias. Each transcript has one planner and one coder
// request, so it replays the same whether the reply is rejected or run.
//
// DEFINE: %{search} = stark-opt --stark-search="target=cuda agent=replay budget=1 progress=0
// DEFINE: %{read} = %S/Inputs/llm-problem-matmul-256.mlir

// Expected: rejected, or compile_error (the five with state or a timer in
// their PTX).
// RUN: %{search} transcript=%S/Inputs/llm-cuda-static-local.jsonl report=%t.static.json" %{read} -o /dev/null
// RUN: FileCheck %s < %t.static.json
// RUN: %{search} transcript=%S/Inputs/llm-cuda-namespace-state.jsonl report=%t.ns.json" %{read} -o /dev/null
// RUN: FileCheck %s < %t.ns.json
// RUN: %{search} transcript=%S/Inputs/llm-cuda-extern-c-state.jsonl report=%t.externc.json" %{read} -o /dev/null
// RUN: FileCheck %s < %t.externc.json
// RUN: %{search} transcript=%S/Inputs/llm-cuda-define-clock.jsonl report=%t.clock.json" %{read} -o /dev/null
// RUN: FileCheck %s < %t.clock.json
// RUN: %{search} transcript=%S/Inputs/llm-cuda-split-asm.jsonl report=%t.asm.json" %{read} -o /dev/null
// RUN: FileCheck %s < %t.asm.json

// Expected: rejected by a guard, or wrong (the input written, the output
// read: nothing in the PTX tells these from a correct kernel, the checks of
// inputs after every run and of a finite-garbage prefill do).
// RUN: %{search} transcript=%S/Inputs/llm-cuda-c-cast-input.jsonl report=%t.cast.json" %{read} -o /dev/null
// RUN: FileCheck %s --check-prefix=BAD < %t.cast.json
// RUN: %{search} transcript=%S/Inputs/llm-cuda-output-alias.jsonl report=%t.alias.json" %S/Inputs/llm-problem-fill-matmul-256.mlir -o /dev/null
// RUN: FileCheck %s --check-prefix=BAD < %t.alias.json

// CHECK: "id": 1,
// CHECK: "status": "{{rejected|compile_error}}",
// CHECK: "winner": null
// BAD: "id": 1,
// BAD: "status": "{{rejected|compile_error|wrong}}",
// BAD: "winner": null

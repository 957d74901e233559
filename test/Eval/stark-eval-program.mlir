// A whole program on tensors is a problem too: stark-eval bufferizes the
// model and what stark-opt made of it the same way and compares outputs.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --correctness-trials 3
// RUN: stark-opt %S/Inputs/program-mlp.mlir --stark-pipeline="target=cpu top-k=2 budget=1 trials=1 timing-trials=1 progress=0" -o %t.opt.mlir 2>/dev/null
// RUN: %{eval} --problem %S/Inputs/program-mlp.mlir --candidate %t.opt.mlir | FileCheck %s --check-prefix=OPT
// OPT: status: ok

// The folded model alone, named by its entry.
// RUN: stark-opt %S/Inputs/program-mlp.mlir --stark-fold-constants -o %t.folded.mlir
// RUN: %{eval} --entry forward --problem %S/Inputs/program-mlp.mlir --candidate %t.folded.mlir | FileCheck %s --check-prefix=OPT

// One weight differs: the model's outputs differ.
// RUN: not %{eval} --problem %S/Inputs/program-mlp.mlir --candidate %S/Inputs/program-mlp-wrong-bias.mlir | FileCheck %s --check-prefix=WRONG
// WRONG:      status: wrong
// WRONG-NEXT: message: argument #1 differs from the reference

// A program whose result is written destination-style into an argument's
// tensor changes no input: its inputs are not writable when it is
// bufferized, so the result gets a buffer of its own (it was judged to
// write its input #2).
// RUN: %{eval} --problem %S/Inputs/program-outs-argument.mlir --candidate %S/Inputs/program-outs-argument.mlir | FileCheck %s --check-prefix=OPT

// RUN: not %{eval} --problem %S/Inputs/program-two-entries.mlir --candidate %S/Inputs/program-two-entries.mlir | FileCheck %s --check-prefix=TWO
// TWO: message: problem: the module has no stark.problem attribute, so it is taken as a program, but it has 2 public functions with a body; name the entry (stark-eval --entry)
// RUN: %{eval} --entry b --problem %S/Inputs/program-two-entries.mlir --candidate %S/Inputs/program-two-entries.mlir | FileCheck %s --check-prefix=OPT

// RUN: not %{eval} --problem %S/Inputs/program-dynamic.mlir --candidate %S/Inputs/program-dynamic.mlir | FileCheck %s --check-prefix=DYN
// DYN: message: problem: the entry 'forward' of the program must take and return statically shaped tensors; it has tensor<?x4xf32>

// A model's weights as globals (splat, as full-size exports without their
// blobs write them) are widened with the rest of the program: the f32
// model gets its f64 reference, which judges what an f32 baseline that
// rounds badly cannot (a layer norm of constant rows, say).
// RUN: %{eval} --no-timing --problem %S/Inputs/program-splat-weights.mlir --candidate %S/Inputs/program-splat-weights.mlir | FileCheck %s --check-prefix=HIGH
// HIGH: status: ok
// HIGH: correctness: {{[0-9]+}} trials ({{.*}}), high-precision reference: yes

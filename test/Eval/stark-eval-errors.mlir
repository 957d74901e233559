// Candidates that cannot run are compile errors with the reason; a problem
// that cannot be evaluated is an error.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush
// DEFINE: %{matmul} = --problem %S/Inputs/matmul-problem.mlir

// RUN: not %{eval} %{matmul} --candidate %S/Inputs/matmul-bad-signature.mlir | FileCheck %s --check-prefix=SIG
// SIG:      status: compile_error
// SIG-NEXT: message: candidate signature differs from the problem: argument #2 of 'kernel' is memref<33x9xf32> in the problem but memref<33x8xf32> in the candidate

// RUN: not %{eval} %{matmul} --candidate %S/Inputs/malformed.mlir | FileCheck %s --check-prefix=PARSE
// PARSE:      status: compile_error
// PARSE-NEXT: message: cannot parse the candidate:
// PARSE-NEXT: {{.*}}malformed.mlir:4:27: error: use of undeclared SSA value name

// RUN: not %{eval} %{matmul} --candidate %S/Inputs/matmul-gpu-barrier.mlir | FileCheck %s --check-prefix=LOWER
// LOWER:      status: compile_error
// LOWER-NEXT: message: the cpu lowering cannot convert 'gpu.barrier' at {{.*}}matmul-gpu-barrier.mlir":5:5)

// The candidate has no function of the entry's name.
// RUN: not %{eval} %{matmul} --candidate %S/Inputs/rowsum-tiled4.mlir --json | FileCheck %s --check-prefix=ENTRY
// ENTRY: "message": "candidate signature differs from the problem: 'kernel' takes 3 arguments in the problem but 2 in the candidate",
// ENTRY: "status": "compile_error",

// A module without stark.problem is a whole program on tensors or nothing:
// a kernel on memrefs needs the attribute.
// RUN: not %{eval} --problem %S/Inputs/matmul-ikj.mlir --candidate %S/Inputs/matmul-ikj.mlir | FileCheck %s --check-prefix=NOPROBLEM
// NOPROBLEM:      status: error
// NOPROBLEM-NEXT: message: problem: the module has no stark.problem attribute and its entry 'kernel' takes no tensors: a kernel problem on memrefs needs #stark.problem<entry, num_outputs>

// RUN: not %{eval} %{matmul} --candidate %S/Inputs/matmul-ikj.mlir --target tpu | FileCheck %s --check-prefix=TARGET
// TARGET:      status: error
// TARGET-NEXT: message: target 'tpu' cannot run here: unknown target 'tpu'; expected cpu or cuda

// RUN: not stark-eval --problem %S/Inputs/matmul-problem.mlir 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: stark-eval: --problem and --candidate are required

// compute-sanitizer watches a cuda candidate in its runner process.
// RUN: not stark-eval %{matmul} --candidate %S/Inputs/matmul-ikj.mlir --sanitize memcheck 2>&1 | FileCheck %s --check-prefix=SANCPU
// SANCPU: stark-eval: --sanitize runs a cuda candidate in its own process: it needs --target cuda and no --in-process

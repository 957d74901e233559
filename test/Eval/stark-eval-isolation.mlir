// A candidate that crashes takes down only its runner process, and the
// judge reports it; one that hangs, its worker. stark-eval reports the
// failure and where it happened, and exits non-zero normally (`not` fails
// on a program killed by a signal).
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush
// DEFINE: %{matmul} = --problem %S/Inputs/matmul-problem.mlir

// RUN: not %{eval} %{matmul} --candidate %S/Inputs/crash-null-store.mlir | FileCheck %s --check-prefix=CRASH
// CRASH:      status: crash
// CRASH-NEXT: message: the candidate failed to run (trial 0 (uniform, seed {{[0-9]+}})): the candidate's process died: signal 11 (Segmentation fault)
// CRASH:      phase: running the candidate: trial 0

// RUN: not %{eval} --timeout 5 %{matmul} --candidate %S/Inputs/hang-while.mlir | FileCheck %s --check-prefix=HANG
// HANG:      status: timeout
// HANG-NEXT: message: the worker did not finish within 5 s and was killed while running the candidate: trial 0

// RUN: not %{eval} --json %{matmul} --candidate %S/Inputs/crash-null-store.mlir | FileCheck %s --check-prefix=JSON
// JSON:      "message": "the candidate failed to run (trial 0 {{.*}}signal 11
// JSON:      "phase": "running the candidate: trial 0
// JSON:      "status": "crash",

// A missing worker binary is an error, not a crash of stark-eval.
// RUN: env STARK_EVAL_WORKER=%t.no-such-worker not %{eval} %{matmul} --candidate %S/Inputs/matmul-ikj.mlir | FileCheck %s --check-prefix=NOWORKER
// NOWORKER:      status: error
// NOWORKER-NEXT: message: cannot start the worker '{{.*}}no-such-worker'

// A candidate that crashes or hangs takes down only its worker; stark-eval
// reports the failure and where it happened, and exits non-zero normally
// (`not` fails on a program killed by a signal).
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush
// DEFINE: %{matmul} = --problem %S/Inputs/matmul-problem.mlir

// RUN: not %{eval} %{matmul} --candidate %S/Inputs/crash-null-store.mlir | FileCheck %s --check-prefix=CRASH
// CRASH:      status: crash
// CRASH-NEXT: message: the worker died: Segmentation fault while running the candidate: trial 0 (uniform, seed {{[0-9]+}})
// CRASH:      phase: running the candidate: trial 0
// CRASH:      worker log (tail):
// CRASH:        | stark-eval worker: phase: running the candidate: trial 0

// RUN: not %{eval} --timeout 5 %{matmul} --candidate %S/Inputs/hang-while.mlir | FileCheck %s --check-prefix=HANG
// HANG:      status: timeout
// HANG-NEXT: message: the worker did not finish within 5 s and was killed while running the candidate: trial 0

// RUN: not %{eval} --json %{matmul} --candidate %S/Inputs/crash-null-store.mlir | FileCheck %s --check-prefix=JSON
// JSON:      "log_tail": "{{.*}}stark-eval worker: phase: running the candidate: trial 0
// JSON:      "phase": "running the candidate: trial 0
// JSON:      "status": "crash",

// A missing worker binary is an error, not a crash of stark-eval.
// RUN: env STARK_EVAL_WORKER=%t.no-such-worker not %{eval} %{matmul} --candidate %S/Inputs/matmul-ikj.mlir | FileCheck %s --check-prefix=NOWORKER
// NOWORKER:      status: error
// NOWORKER-NEXT: message: cannot start the worker '{{.*}}no-such-worker'

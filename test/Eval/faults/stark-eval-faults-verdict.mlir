// Planted faults, class "the verdict": candidates whose host code calls
// into libc (or makes system calls) to write a file, forge the worker's
// result, print, or end the process. The process that runs a candidate
// must not decide its verdict, and a candidate's host code resolves only
// the runtime symbols it needs: a call to anything else does not compile
// (status compile_error), so it never runs.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --time-budget 1
// DEFINE: %{add} = --problem %S/Inputs/add-f32-problem.mlir

// Expected: compile_error, and no file written. Computes the sum and
// writes "status: ok" to the file named by STARK_FAULT_FILE with fopen.
// RUN: rm -f %t.verdict
// RUN: env STARK_FAULT_FILE=%t.verdict not %{eval} %{add} --candidate %S/Inputs/add-fopen-writes-file.mlir | FileCheck %s --check-prefix=COMPILE
// RUN: not test -e %t.verdict

// Expected: compile_error. Computes nothing; writes the worker's
// DIR/result.json ("ok, 50x", DIR read from /proc/self/cmdline) with
// fopen and fputs and calls exit(0).
// RUN: not %{eval} %{add} --candidate %S/Inputs/add-forges-result.mlir | FileCheck %s --check-prefix=COMPILE

// Expected: not ok (compile_error where inline assembly is refused, else
// wrong or crash: the judge's verdict rests on the outputs it checks, and
// the worker ended without them). The same forgery through raw system
// calls in inline assembly, which no symbol allow-list sees.
// RUN: not %{eval} %{add} --candidate %S/Inputs/add-forges-result-syscall.mlir | FileCheck %s --check-prefix=NOTOK

// Expected: compile_error. Computes the sum and prints with puts.
// RUN: not %{eval} %{add} --candidate %S/Inputs/add-puts-stdout.mlir | FileCheck %s --check-prefix=COMPILE

// Expected: compile_error. Computes the sum and prints with printf.
// RUN: not %{eval} %{add} --candidate %S/Inputs/add-printf-stdout.mlir | FileCheck %s --check-prefix=COMPILE

// Expected: compile_error. Computes the sum and writes to descriptor 1
// with write.
// RUN: not %{eval} %{add} --candidate %S/Inputs/add-write-stdout.mlir | FileCheck %s --check-prefix=COMPILE

// Expected: compile_error. Computes nothing and calls exit(0).
// RUN: not %{eval} %{add} --candidate %S/Inputs/add-exit.mlir | FileCheck %s --check-prefix=COMPILE

// Expected: compile_error. Computes the sum and calls abort().
// RUN: not %{eval} %{add} --candidate %S/Inputs/add-abort.mlir | FileCheck %s --check-prefix=COMPILE

// Expected: compile_error. Computes the sum and calls fork(); the child
// calls _exit(0).
// RUN: not %{eval} %{add} --candidate %S/Inputs/add-fork.mlir | FileCheck %s --check-prefix=COMPILE

// COMPILE: status: compile_error
// NOTOK: status: {{wrong|crash|compile_error}}

// Candidates are judged on their lowered form: on the cpu target, host code
// may keep no mutable globals, has no inline assembly, and calls nothing
// but the runtime functions the target provides (the JIT resolves nothing
// else). Each planted candidate computes the right answer; what it does
// besides is a compile error that names the rule.
//
// DEFINE: %{eval} = stark-eval --target cpu --no-timing --trials 2 --max-trials 2
// DEFINE: %{matmul} = --problem %S/Inputs/matmul-problem.mlir

// A verdict written to a file through fopen/fputs/fclose: refused, and the
// file is never written (without the guards it is, and the candidate is
// verified).
// RUN: rm -f %t.verdict
// RUN: %python %S/Inputs/with_path.py %S/Inputs/matmul-writes-file.mlir %t.verdict > %t.writes-file.mlir
// RUN: not %{eval} %{matmul} --candidate %t.writes-file.mlir | FileCheck %s --check-prefix=FOPEN
// RUN: %python -c "import os, sys; sys.exit(os.path.exists(r'%t.verdict'))"
// FOPEN:      status: compile_error
// FOPEN-NEXT: message: the lowered candidate breaks a guard: the function 'fopen' is not defined in the candidate and is not one of the runtime functions the target provides ('llvm.func' at

// The same through a func.func declaration of write(2).
// RUN: not %{eval} %{matmul} --candidate %S/Inputs/matmul-func-call-write.mlir | FileCheck %s --check-prefix=WRITE
// WRITE:      status: compile_error
// WRITE-NEXT: message: the lowered candidate breaks a guard: the function 'write' is not defined in the candidate and is not one of the runtime functions the target provides

// A system call in inline assembly.
// RUN: not %{eval} %{matmul} --candidate %S/Inputs/matmul-syscall-asm.mlir | FileCheck %s --check-prefix=ASM
// ASM:      status: compile_error
// ASM-NEXT: message: the lowered candidate breaks a guard: inline assembly in host code ('llvm.inline_asm' at

// State across runs in mutable globals (an answer cache, a call counter).
// RUN: not %{eval} %{matmul} --candidate %S/Inputs/matmul-cached.mlir | FileCheck %s --check-prefix=CACHED
// CACHED:      status: compile_error
// CACHED-NEXT: message: the lowered candidate breaks a guard: the mutable global 'cache': state that outlives a run ('llvm.mlir.global' at
// RUN: not %{eval} %{matmul} --candidate %S/Inputs/matmul-wrong-when-timed.mlir | FileCheck %s --check-prefix=CALLS
// CALLS:      status: compile_error
// CALLS-NEXT: message: the lowered candidate breaks a guard: the mutable global 'calls': state that outlives a run

// Controls: the math library, a constant memref.global and a strided
// memref.copy are what the lowering itself uses; a loop reordering is
// plain code.
// RUN: %{eval} %{matmul} --candidate %S/Inputs/matmul-tanh-libm.mlir | FileCheck %s --check-prefix=OK
// RUN: %{eval} %{matmul} --candidate %S/Inputs/matmul-ikj.mlir | FileCheck %s --check-prefix=OK
// OK: status: ok

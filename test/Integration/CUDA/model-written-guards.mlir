// Model-written CUDA C++ (family "llm") on the GPU: the cuda target checks
// the PTX NVRTC produced before loading it. Each planted kernel computes the
// right matmul and hides what the text guards miss; each is a compile error
// naming the rule. The same sources without the family are judged at run
// time like any candidate, and a correct kernel with tiles, tables and
// atomics on its output verifies. Host code in MLIR form that calls into
// libc is refused too, and writes nothing.
//
// DEFINE: %{candidate} = python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-problem.mlir -D M=255 -D K=129 -D N=191 --family llm
// DEFINE: %{eval} = stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-problem.mlir

// RUN: %{candidate} %S/Inputs/model-written/static-counter.cu > %t.static.mlir
// RUN: not %{eval} --candidate %t.static.mlir | FileCheck %s --check-prefix=STATIC
// STATIC:      status: compile_error
// STATIC-NEXT: message: the compiled candidate breaks a guard: module state: writes the module-scope variable '_ZZ6matmulE5calls'

// RUN: %{candidate} %S/Inputs/model-written/namespace-state.cu > %t.ns.mlir
// RUN: not %{eval} --candidate %t.ns.mlir | FileCheck %s --check-prefix=NAMESPACE
// NAMESPACE:      status: compile_error
// NAMESPACE-NEXT: message: the compiled candidate breaks a guard: module state: writes the module-scope variable '_ZN5cache6answerE'

// RUN: %{candidate} %S/Inputs/model-written/extern-c-state.cu > %t.externc.mlir
// RUN: not %{eval} --candidate %t.externc.mlir | FileCheck %s --check-prefix=EXTERNC
// EXTERNC:      status: compile_error
// EXTERNC-NEXT: message: the compiled candidate breaks a guard: module state: writes the module-scope variable 'done'

// RUN: %{candidate} %S/Inputs/model-written/macro-clock.cu > %t.clock.mlir
// RUN: not %{eval} --candidate %t.clock.mlir | FileCheck %s --check-prefix=CLOCK
// CLOCK:      status: compile_error
// CLOCK-NEXT: message: the compiled candidate breaks a guard: clock read: reads the special register %clock64

// RUN: %{candidate} %S/Inputs/model-written/split-asm-timer.cu > %t.timer.mlir
// RUN: not %{eval} --candidate %t.timer.mlir | FileCheck %s --check-prefix=TIMER
// TIMER:      status: compile_error
// TIMER-NEXT: message: the compiled candidate breaks a guard: clock read: reads the special register %globaltimer

// RUN: %{candidate} %S/Inputs/model-written/cast-writes-input.cu > %t.cast.mlir
// RUN: not %{eval} --candidate %t.cast.mlir | FileCheck %s --check-prefix=CAST
// CAST:      status: compile_error
// CAST-NEXT: message: the compiled candidate breaks a guard: write to an input: the address [%rd{{[0-9]+}}] is derived from parameter 1

// RUN: %{candidate} %S/Inputs/model-written/loaded-pointer-atomic.cu > %t.atomic.mlir
// RUN: not %{eval} --candidate %t.atomic.mlir | FileCheck %s --check-prefix=ATOMIC
// ATOMIC:      status: compile_error
// ATOMIC-NEXT: message: the compiled candidate breaks a guard: atomic on non-argument memory

// RUN: %{candidate} %S/Inputs/model-written/device-malloc.cu > %t.malloc.mlir
// RUN: not %{eval} --candidate %t.malloc.mlir | FileCheck %s --check-prefix=MALLOC
// MALLOC:      status: compile_error
// MALLOC-NEXT: message: the compiled candidate breaks a guard: device runtime call: 'malloc'

// The correct control verifies.
// RUN: %{candidate} %S/Inputs/model-written/tiled-control.cu > %t.tiled.mlir
// RUN: %{eval} --candidate %t.tiled.mlir | FileCheck %s --check-prefix=OK
// OK: status: ok

// Without the family the flag is not refused at compile time; the kernel
// computes the right answer on every call, so it verifies.
// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-problem.mlir -D M=255 -D K=129 -D N=191 %S/Inputs/model-written/extern-c-state.cu > %t.family.mlir
// RUN: %{eval} --candidate %t.family.mlir | FileCheck %s --check-prefix=OK

// Host code in MLIR form that writes a verdict file through libc.
// RUN: rm -f %t.verdict
// RUN: python3 %S/../../Eval/Inputs/with_path.py %S/../../Eval/Inputs/matmul-writes-file.mlir %t.verdict > %t.writes-file.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/../../Eval/Inputs/matmul-problem.mlir --candidate %t.writes-file.mlir | FileCheck %s --check-prefix=FOPEN
// RUN: python3 -c "import os, sys; sys.exit(os.path.exists(r'%t.verdict'))"
// FOPEN: status: compile_error

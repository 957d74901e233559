// REQUIRES: nvrtc
// CUDA C++ that a language model wrote (family "llm") is judged on the PTX
// NVRTC makes of it, on the way into the evaluator and again when it is
// substituted. Each kernel below computes the right matmul and hides one of
// the things the text guards miss; compiled, each is plain to see, and the
// error names the rule and the PTX line.
//
// DEFINE: %{candidate} = %python %S/../Integration/CUDA/Inputs/cuda_candidate.py %S/../Integration/CUDA/Inputs/matmul-problem.mlir -D M=255 -D K=129 -D N=191
// DEFINE: %{program} = %python %S/../Integration/CUDA/Inputs/with_winner.py %S/../Eval/Inputs/substitute-matmul-tensor-program.mlir
// DEFINE: %{error} = error: stark-substitute: the CUDA C++ winner of @stark_problem_0 is malformed: the compiled candidate breaks a guard:

// A function-local `static unsigned int` counter.
// RUN: %{candidate} %S/../Integration/CUDA/Inputs/model-written/static-counter.cu --family llm > %t.static.mlir
// RUN: %{program} %t.static.mlir > %t.static.program.mlir
// RUN: not stark-opt %t.static.program.mlir --stark-substitute 2>&1 | FileCheck %s --check-prefix=STATIC -DERROR="%{error}"
// STATIC: [[ERROR]] module state: writes the module-scope variable '_ZZ6matmulE5calls', state that outlives the launch (PTX line {{[0-9]+}}: `st.global.u32 [_ZZ6matmulE5calls], %r{{[0-9]+}}`)

// A __device__ answer cache inside a namespace.
// RUN: %{candidate} %S/../Integration/CUDA/Inputs/model-written/namespace-state.cu --family llm > %t.ns.mlir
// RUN: %{program} %t.ns.mlir > %t.ns.program.mlir
// RUN: not stark-opt %t.ns.program.mlir --stark-substitute 2>&1 | FileCheck %s --check-prefix=NAMESPACE -DERROR="%{error}"
// NAMESPACE: [[ERROR]] module state: writes the module-scope variable '_ZN5cache6answerE', state that outlives the launch (PTX line {{[0-9]+}}: `st.global.f32

// A __device__ flag inside an extern "C" block.
// RUN: %{candidate} %S/../Integration/CUDA/Inputs/model-written/extern-c-state.cu --family llm > %t.externc.mlir
// RUN: %{program} %t.externc.mlir > %t.externc.program.mlir
// RUN: not stark-opt %t.externc.program.mlir --stark-substitute 2>&1 | FileCheck %s --check-prefix=EXTERNC -DERROR="%{error}"
// EXTERNC: [[ERROR]] module state: writes the module-scope variable 'done', state that outlives the launch (PTX line {{[0-9]+}}: `st.global.u32 [done], %r{{[0-9]+}}`)

// clock64 behind `#define T clock64`.
// RUN: %{candidate} %S/../Integration/CUDA/Inputs/model-written/macro-clock.cu --family llm > %t.clock.mlir
// RUN: %{program} %t.clock.mlir > %t.clock.program.mlir
// RUN: not stark-opt %t.clock.program.mlir --stark-substitute 2>&1 | FileCheck %s --check-prefix=CLOCK -DERROR="%{error}"
// CLOCK: [[ERROR]] clock read: reads the special register %clock64 (PTX line {{[0-9]+}}: `mov.u64 %rd{{[0-9]+}}, %clock64`)

// %globaltimer in an inline-assembly string split in two.
// RUN: %{candidate} %S/../Integration/CUDA/Inputs/model-written/split-asm-timer.cu --family llm > %t.timer.mlir
// RUN: %{program} %t.timer.mlir > %t.timer.program.mlir
// RUN: not stark-opt %t.timer.program.mlir --stark-substitute 2>&1 | FileCheck %s --check-prefix=TIMER -DERROR="%{error}"
// TIMER: [[ERROR]] clock read: reads the special register %globaltimer (PTX line {{[0-9]+}}: `mov.u64 %rd{{[0-9]+}}, %globaltimer`)

// A C-style cast that writes the const input B (parameter 1).
// RUN: %{candidate} %S/../Integration/CUDA/Inputs/model-written/cast-writes-input.cu --family llm > %t.cast.mlir
// RUN: %{program} %t.cast.mlir > %t.cast.program.mlir
// RUN: not stark-opt %t.cast.program.mlir --stark-substitute 2>&1 | FileCheck %s --check-prefix=CAST -DERROR="%{error}"
// CAST: [[ERROR]] write to an input: the address [%rd{{[0-9]+}}] is derived from parameter 1, an input of the problem

// An atomic through a pointer loaded from memory.
// RUN: %{candidate} %S/../Integration/CUDA/Inputs/model-written/loaded-pointer-atomic.cu --family llm > %t.atomic.mlir
// RUN: %{program} %t.atomic.mlir > %t.atomic.program.mlir
// RUN: not stark-opt %t.atomic.program.mlir --stark-substitute 2>&1 | FileCheck %s --check-prefix=ATOMIC -DERROR="%{error}"
// ATOMIC: [[ERROR]] atomic on non-argument memory: the address [%rd{{[0-9]+}}] is not in a kernel argument: it is not derived from any kernel parameter

// The device heap, through `new`.
// RUN: %{candidate} %S/../Integration/CUDA/Inputs/model-written/device-malloc.cu --family llm > %t.malloc.mlir
// RUN: %{program} %t.malloc.mlir > %t.malloc.program.mlir
// RUN: not stark-opt %t.malloc.program.mlir --stark-substitute 2>&1 | FileCheck %s --check-prefix=MALLOC -DERROR="%{error}"
// MALLOC: [[ERROR]] device runtime call: 'malloc' is an external device function

// Controls. A tiled kernel with shared tiles, a __constant__ table, a
// constexpr member and atomics on its output and in shared memory passes.
// RUN: %{candidate} %S/../Integration/CUDA/Inputs/model-written/tiled-control.cu --family llm > %t.tiled.mlir
// RUN: %{program} %t.tiled.mlir > %t.tiled.program.mlir
// RUN: stark-opt %t.tiled.program.mlir --stark-substitute 2>&1 | FileCheck %s --check-prefix=PASS
// The guards are for model-written code: the same stateful source from a
// template family (which may keep a split-K workspace in a __device__
// array) is compiled as it is.
// RUN: %{candidate} %S/../Integration/CUDA/Inputs/model-written/extern-c-state.cu > %t.family.mlir
// RUN: %{program} %t.family.mlir > %t.family.program.mlir
// RUN: stark-opt %t.family.program.mlir --stark-substitute 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: remark: stark-substitute: replaced by @stark_kernel_5ab57177e5ab5717 {{.*}}CUDA C++ compiled for sm_90a into gpu.binary @stark_kernel_5ab57177e5ab5717_bin

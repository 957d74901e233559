// Planted faults on the GPU, class "the verdict": a correct gpu.launch
// whose host code calls into libc. Host code resolves only the runtime
// symbols it needs, so neither compiles, and no file is written.
//
// DEFINE: %{eval} = stark-eval --target cuda --trials 2 --max-trials 2 --warmup 1 --time-budget 1
// DEFINE: %{mm} = --problem %S/../Inputs/matmul-problem.mlir

// Expected: compile_error. Prints with puts.
// RUN: not %{eval} %{mm} --candidate %S/Inputs/matmul-gpu-launch-host-puts.mlir | FileCheck %s

// Expected: compile_error, and no file written. Writes "status: ok" to the
// file named by STARK_FAULT_FILE with fopen.
// RUN: rm -f %t.verdict
// RUN: env STARK_FAULT_FILE=%t.verdict not %{eval} %{mm} --candidate %S/Inputs/matmul-gpu-launch-host-fopen.mlir | FileCheck %s
// RUN: not test -e %t.verdict

// CHECK: status: compile_error

// stark-eval's two ways of timing a host program exclude each other, and
// --graph-host-programs reaches the worker without changing a CPU
// evaluation (graphs are a cuda timing; the CPU target ignores it).
//
// RUN: not stark-eval --gate-host-programs --graph-host-programs --problem %S/Inputs/matmul-problem.mlir --candidate %S/Inputs/matmul-ikj.mlir 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: stark-eval: --gate-host-programs and --graph-host-programs are two ways to time a host program: choose one
//
// RUN: stark-eval --target cpu --graph-host-programs --correctness-trials 1 --trials 3 --max-trials 3 --problem %S/Inputs/matmul-problem.mlir --candidate %S/Inputs/matmul-ikj.mlir | FileCheck %s
// CHECK: status: ok
// CHECK: speedup:

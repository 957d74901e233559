// Planted faults on the GPU, class "special values": a 3xTF32-style split
// (hi = tf32(x), lo = x - hi) turns an infinite operand into NaN. Only a
// trial with +-inf inputs shows it. The guarded split and the gemm_3xtf32
// template are controls in faults-controls.mlir.
//
// DEFINE: %{eval} = stark-eval --target cuda --trials 2 --max-trials 2 --warmup 1 --time-budget 1

// Expected: wrong.
// RUN: python3 %S/../Inputs/cuda_candidate.py %S/../Inputs/matmul-problem.mlir %S/Inputs/matmul-3xtf32-split.cu -D M=255 -D K=129 -D N=191 > %t.split.mlir
// RUN: not %{eval} --problem %S/../Inputs/matmul-problem.mlir --candidate %t.split.mlir | FileCheck %s

// CHECK:      status: wrong
// CHECK-NEXT: message: argument #2 differs

// A model on tensors on the GPU: the winner of its fill + matmul replaces
// both, the element-wise op after it stays, and the optimised model is
// checked against the model as the frontend gave it (its temporaries in
// device memory, the winner's host function launching into them).
//
// RUN: stark-template --problem %S/Inputs/fill-zero-matmul-255x129x191.mlir --family gemm_f32 > %t.tensor-winner.mlir
// RUN: python3 %S/Inputs/with_winner.py %S/../../Eval/Inputs/substitute-matmul-tensor-program.mlir %t.tensor-winner.mlir > %t.tensor-program.mlir
// RUN: stark-opt %t.tensor-program.mlir --stark-substitute > %t.tensor-substituted.mlir
// RUN: stark-eval --target cuda --no-timing --problem %S/../../Eval/Inputs/matmul-tanh-program.mlir --candidate %t.tensor-substituted.mlir | FileCheck %s
//
// A planted wrong winner: the kernel of a matmul whose output starts at 0.5,
// substituted for one that starts at 0. Every output element is off.
// RUN: stark-template --problem %S/templates/Inputs/fill-matmul-255x129x191.mlir --family gemm_f32 > %t.wrong-winner.mlir
// RUN: python3 %S/Inputs/with_winner.py %S/../../Eval/Inputs/substitute-matmul-tensor-program.mlir %t.wrong-winner.mlir > %t.wrong-program.mlir
// RUN: stark-opt %t.wrong-program.mlir --stark-substitute > %t.wrong-substituted.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/../../Eval/Inputs/matmul-tanh-program.mlir --candidate %t.wrong-substituted.mlir | FileCheck %s --check-prefix=WRONG

// CHECK: status: ok
// CHECK-NEXT: message: verified on 6 trials

// WRONG: status: wrong
// WRONG-NEXT: message: argument #2 differs from the reference in 48705 of 48705 elements

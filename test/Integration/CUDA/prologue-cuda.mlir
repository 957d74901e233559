// A contraction with an operand prologue on the GPU: the SIMT gemm's kernel
// for relu(x * scale) @ w (the prologue applied as it loads A) replaces the
// prologue, the fill and the matmul of a model on tensors, and the
// optimised model is checked against the model as the frontend gave it.
//
// RUN: stark-template --problem %S/templates/Inputs/fused-scale-relu-matmul.mlir --family gemm > %t.winner.mlir
// RUN: python3 %S/Inputs/with_winner.py %S/Inputs/prologue-program.mlir %t.winner.mlir > %t.program.mlir
// RUN: stark-opt %t.program.mlir --stark-substitute > %t.substituted.mlir
// RUN: stark-eval --target cuda --no-timing --problem %S/Inputs/prologue-model.mlir --candidate %t.substituted.mlir | FileCheck %s
//
// A planted wrong winner: the kernel of the same problem without the relu
// (x * scale @ w, the same arguments), substituted for it. The outputs
// where some x * scale < 0 contributed are off.
// RUN: stark-template --problem %S/Inputs/fused-scale-matmul-no-relu.mlir --family gemm > %t.wrong-winner.mlir
// RUN: python3 %S/Inputs/with_winner.py %S/Inputs/prologue-program.mlir %t.wrong-winner.mlir > %t.wrong-program.mlir
// RUN: stark-opt %t.wrong-program.mlir --stark-substitute > %t.wrong-substituted.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/Inputs/prologue-model.mlir --candidate %t.wrong-substituted.mlir | FileCheck %s --check-prefix=WRONG

// CHECK: status: ok
// CHECK-NEXT: message: verified on 6 trials

// WRONG: status: wrong

// The room a whole low-precision program's own rounding gives
// (docs/evaluation.md, "Whole low-precision programs") on the cuda target:
// the bf16 program of Eval/Inputs/bf16-rounded-chain.mlir, lowered for the
// GPU, is verified against itself with bound_from_intermediate_rounding; a
// fault larger than its rounding explains is still wrong.

// RUN: stark-eval --target cuda --no-timing --problem %S/../../Eval/Inputs/bf16-rounded-chain.mlir --candidate %S/../../Eval/Inputs/bf16-rounded-chain-same.mlir | FileCheck %s --check-prefix=SAME
// SAME:      status: ok
// SAME:      flags: {{.*}}bound_from_intermediate_rounding

// RUN: not stark-eval --target cuda --no-timing --problem %S/../../Eval/Inputs/bf16-rounded-chain.mlir --candidate %S/../../Eval/Inputs/bf16-rounded-chain-off.mlir | FileCheck %s --check-prefix=OFF
// OFF:       status: wrong

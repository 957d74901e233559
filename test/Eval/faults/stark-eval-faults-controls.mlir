// Controls of the planted-fault suite: correct kernels of every kind
// (register-tiled, vectorised with tails, reductions in blocks, an online
// softmax, a layer norm, low-precision inputs accumulated in f32, a
// 3xTF32-style split that keeps inf and NaN, an integer matmul), each the
// counterpart of a fault in the other files of this directory. Every one
// must be verified, also once trials with NaN, +-inf, -0 and denormal
// inputs, finite-garbage prefills and rotating timed inputs are added, so
// each is written to give NaN or the same infinity where its problem does.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --time-budget 1

// RUN: %{eval} --problem %S/Inputs/matmul-f32-problem.mlir --candidate %S/Inputs/matmul-register-tiled.mlir | FileCheck %s
// RUN: %{eval} --problem %S/Inputs/add-f32-problem.mlir --candidate %S/Inputs/add-vector.mlir | FileCheck %s
// RUN: %{eval} --problem %S/Inputs/rowsum-problem.mlir --candidate %S/Inputs/rowsum-blocks.mlir | FileCheck %s
// RUN: %{eval} --problem %S/Inputs/rowmax-problem.mlir --candidate %S/Inputs/rowmax-vector.mlir | FileCheck %s
// RUN: %{eval} --problem %S/Inputs/softmax-problem.mlir --candidate %S/Inputs/softmax-online.mlir | FileCheck %s
// RUN: %{eval} --problem %S/Inputs/layernorm-problem.mlir --candidate %S/Inputs/layernorm-vector.mlir | FileCheck %s

// Element-wise, vectorised with a scalar tail; each keeps the problem's
// NaN, infinity, signed zero and denormal behaviour.
// RUN: %{eval} --problem %S/Inputs/relu-problem.mlir --candidate %S/Inputs/relu-vector.mlir | FileCheck %s
// RUN: %{eval} --problem %S/Inputs/clamp-problem.mlir --candidate %S/Inputs/clamp-vector.mlir | FileCheck %s
// RUN: %{eval} --problem %S/Inputs/recip-problem.mlir --candidate %S/Inputs/recip-vector.mlir | FileCheck %s
// RUN: %{eval} --problem %S/Inputs/copysign-problem.mlir --candidate %S/Inputs/copysign-bits.mlir | FileCheck %s
// RUN: %{eval} --problem %S/Inputs/scale-up-problem.mlir --candidate %S/Inputs/scale-up-vector.mlir | FileCheck %s
// RUN: %{eval} --problem %S/Inputs/exp-problem.mlir --candidate %S/Inputs/exp-vector.mlir | FileCheck %s

// bf16 inputs whose baseline accumulates in bf16; the candidates
// accumulate in f32 and round once. (The f16 ones, which a reference whose
// f16 partial sums overflow rejects today, are in
// stark-eval-faults-bounds.mlir.)
// RUN: %{eval} --problem %S/Inputs/matmul-bf16-k1024-problem.mlir --candidate %S/Inputs/matmul-bf16-k1024-f32acc.mlir | FileCheck %s
// RUN: %{eval} --problem %S/Inputs/matmul-bf16-k4096-problem.mlir --candidate %S/Inputs/matmul-bf16-k4096-f32acc.mlir | FileCheck %s

// 3xTF32-style splits that fall back to the plain product where the split
// is not finite: as a kernel, and in a whole program whose output is +inf
// for large inputs.
// RUN: %{eval} --problem %S/Inputs/matmul-f32-problem.mlir --candidate %S/Inputs/matmul-3xtf32-split-guarded.mlir | FileCheck %s
// RUN: %{eval} --problem %S/Inputs/program-exp-matmul.mlir --candidate %S/Inputs/program-exp-matmul-3xtf32-guarded.mlir | FileCheck %s

// RUN: %{eval} --problem %S/Inputs/matmul-i8-problem.mlir --candidate %S/Inputs/matmul-i8-i32-accumulate.mlir | FileCheck %s

// CHECK: status: ok

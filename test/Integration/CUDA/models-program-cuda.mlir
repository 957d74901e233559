// Each example model (scaled down by examples/models/generate.py --small),
// evaluated whole on the GPU as it is: the original program is the problem
// and the candidate, and after --stark-fold-constants the folded program is
// the candidate. Whole-program evaluation must lower every model for cuda
// (host code only allocates, frees and launches; serial code such as a full
// reduction runs in a one-thread launch with the allocations around it kept
// on the host) and verify.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %stark_src_root/examples/models/generate.py --small %t
// DEFINE: %{eval} = stark-eval --target cuda --correctness-trials 3 --trials 2 --max-trials 2 --warmup 1 --no-f64-reference
//
// RUN: %{eval} --problem %t/mlp_model_small.mlir --candidate %t/mlp_model_small.mlir | FileCheck %s
// RUN: stark-opt %t/mlp_model_small.mlir --stark-fold-constants -o %t/mlp.folded.mlir
// RUN: %{eval} --problem %t/mlp_model_small.mlir --candidate %t/mlp.folded.mlir | FileCheck %s
//
// RUN: %{eval} --problem %t/transformer_layer_small.mlir --candidate %t/transformer_layer_small.mlir | FileCheck %s
// RUN: stark-opt %t/transformer_layer_small.mlir --stark-fold-constants -o %t/transformer.folded.mlir
// RUN: %{eval} --problem %t/transformer_layer_small.mlir --candidate %t/transformer.folded.mlir | FileCheck %s
//
// RUN: %{eval} --problem %t/resnet_block_small.mlir --candidate %t/resnet_block_small.mlir | FileCheck %s
// RUN: stark-opt %t/resnet_block_small.mlir --stark-fold-constants -o %t/resnet.folded.mlir
// RUN: %{eval} --problem %t/resnet_block_small.mlir --candidate %t/resnet.folded.mlir | FileCheck %s
//
// Serial code before the temporaries of later ops.
// RUN: %{eval} --problem %S/Inputs/program-full-reduction.mlir --candidate %S/Inputs/program-full-reduction.mlir | FileCheck %s

// CHECK: status: ok

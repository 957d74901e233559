// stark-eval --graph-host-programs: a lowered host program (a whole
// program, the baseline, an MLIR candidate) is timed as a CUDA graph: its
// launches are captured once per argument buffers and the graph replayed.
// The replays must compute what the host code computes (the judge checks
// the outputs of sampled timed runs), so every program verifies and times
// as it does without graphs.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %stark_src_root/examples/models/generate.py --small %t
// DEFINE: %{eval} = stark-eval --target cuda --graph-host-programs --correctness-trials 1 --trials 3 --max-trials 3 --warmup 1 --no-f64-reference --json
//
// RUN: %{eval} --problem %t/mlp_model_small.mlir --candidate %t/mlp_model_small.mlir | FileCheck %s
// RUN: stark-opt %t/transformer_layer_small.mlir --stark-fold-constants -o %t/transformer.folded.mlir
// RUN: %{eval} --problem %t/transformer_layer_small.mlir --candidate %t/transformer.folded.mlir | FileCheck %s
// RUN: %{eval} --problem %t/resnet_block_small.mlir --candidate %t/resnet_block_small.mlir | FileCheck %s
// Serial code and the allocations kept on the host around it.
// RUN: %{eval} --problem %S/Inputs/program-full-reduction.mlir --candidate %S/Inputs/program-full-reduction.mlir | FileCheck %s
// A GPU-dialect candidate against a problem's baseline.
// RUN: %{eval} --problem %S/Inputs/matmul-problem.mlir --candidate %S/Inputs/matmul-gpu-launch.mlir | FileCheck %s

// CHECK-DAG: "status": "ok"
// CHECK-DAG: "baseline": {
// CHECK-DAG: "candidate": {
// CHECK-DAG: "median_s":

// Host code that waits for the device while it runs cannot be captured; the
// runtime's refusal is checked with a fake driver
// (unittests/Target/CudaRuntimeTest.cpp). A GPU-dialect candidate that
// copied its output to host memory after its launch was captured all the
// same on the H100 (the lowering left it no wait), so no program here
// shows the refusal on a device.

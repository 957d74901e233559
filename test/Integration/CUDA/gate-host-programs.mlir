// stark-eval --gate-host-programs: whole programs (lowered host code that
// allocates, launches and frees) are timed with every launch queued before
// the device starts them, as launch lists always are. The runtime opens
// the gate before any host wait (a copy to the host, an event, an
// allocation the pool cannot serve, a module load); a wait it missed would
// hold the stream until the watchdog opened it, and the timing would fail.
// So each program must verify and time as it does ungated.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %stark_src_root/examples/models/generate.py --small %t
// DEFINE: %{eval} = stark-eval --target cuda --gate-host-programs --correctness-trials 1 --trials 3 --max-trials 3 --warmup 1 --no-f64-reference --json
//
// RUN: %{eval} --problem %t/mlp_model_small.mlir --candidate %t/mlp_model_small.mlir | FileCheck %s
// RUN: stark-opt %t/transformer_layer_small.mlir --stark-fold-constants -o %t/transformer.folded.mlir
// RUN: %{eval} --problem %t/transformer_layer_small.mlir --candidate %t/transformer.folded.mlir | FileCheck %s
// RUN: %{eval} --problem %t/resnet_block_small.mlir --candidate %t/resnet_block_small.mlir | FileCheck %s
// Serial code and the allocations kept on the host around it.
// RUN: %{eval} --problem %S/Inputs/program-full-reduction.mlir --candidate %S/Inputs/program-full-reduction.mlir | FileCheck %s

// CHECK-DAG: "status": "ok"
// CHECK-DAG: "baseline": {
// CHECK-DAG: "candidate": {
// CHECK-DAG: "median_s":

// Planted faults on the GPU, class "races": kernels missing a barrier.
// Often right by luck of the schedule. Every correctness trial's second run
// is rescheduled (beside a load that holds a varying part of the SMs for a
// while), and both kernels were judged wrong on the H200 with that
// (bundle 68c6c8b; before it, without the load, only some of the time).
// compute-sanitizer's racecheck catches them every time
// (faults-races-sanitizer.mlir). The correct tiled kernel is a control in
// faults-controls.mlir.
//
// DEFINE: %{eval} = stark-eval --target cuda --trials 2 --max-trials 2 --warmup 1 --time-budget 1
// DEFINE: %{gen} = python3 %S/../Inputs/cuda_candidate.py

// Expected: wrong. The tiled matmul without its trailing __syncthreads.
// RUN: %{gen} %S/../Inputs/matmul-problem.mlir %S/Inputs/matmul-tiled-no-trailing-sync.cu -D M=255 -D K=129 -D N=191 > %t.tiled.mlir
// RUN: not %{eval} --problem %S/../Inputs/matmul-problem.mlir --candidate %t.tiled.mlir | FileCheck %s

// Expected: wrong. A shared-memory tree reduction with no barrier between
// its levels.
// RUN: %{gen} %S/../Inputs/rowsum-problem.mlir %S/Inputs/rowsum-tree-no-sync.cu -D R=1023 -D C=997 > %t.rowsum.mlir
// RUN: not %{eval} --problem %S/../Inputs/rowsum-problem.mlir --candidate %t.rowsum.mlir | FileCheck %s

// CHECK: status: wrong

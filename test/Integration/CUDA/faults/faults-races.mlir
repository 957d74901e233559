// XFAIL: *
// Planted faults on the GPU, class "races": kernels missing a barrier.
// Often right by luck of the schedule; caught by correctness trials run
// more than once with different block schedules, or by compute-sanitizer's
// racecheck. The correct tiled kernel is a control in faults-controls.mlir.
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

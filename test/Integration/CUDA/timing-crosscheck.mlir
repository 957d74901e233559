// stark's CUDA timing (device events around the kernels, L2 flushed before
// each trial, median) agrees within 10% with an independent measurement of
// the same kernel through CuPy: a compute-bound matmul and a memory-bound
// row reduction.

// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-1024-problem.mlir %S/Inputs/matmul-tiled.cu -D M=1024 -D K=1024 -D N=1024 > %t.mm.mlir
// RUN: stark-eval --target cuda --json --trials 30 --time-budget 3 --problem %S/Inputs/matmul-1024-problem.mlir --candidate %t.mm.mlir > %t.mm.json
// RUN: python3 %S/Inputs/timing_crosscheck.py --stark-json %t.mm.json --problem %S/Inputs/matmul-1024-problem.mlir --kernel %S/Inputs/matmul-tiled.cu -D M=1024 -D K=1024 -D N=1024 | FileCheck %s --check-prefix=MATMUL
// MATMUL: matmul-tiled.cu: stark-eval candidate median
// MATMUL-NEXT: timings agree

// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/rowsum-8192-problem.mlir %S/Inputs/rowsum-block.cu -D R=8192 -D C=8192 > %t.rs.mlir
// RUN: stark-eval --target cuda --json --trials 30 --time-budget 3 --problem %S/Inputs/rowsum-8192-problem.mlir --candidate %t.rs.mlir > %t.rs.json
// RUN: python3 %S/Inputs/timing_crosscheck.py --stark-json %t.rs.json --problem %S/Inputs/rowsum-8192-problem.mlir --kernel %S/Inputs/rowsum-block.cu -D R=8192 -D C=8192 | FileCheck %s --check-prefix=ROWSUM
// ROWSUM: rowsum-block.cu: stark-eval candidate median
// ROWSUM-NEXT: timings agree

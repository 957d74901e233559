// The planted bugs the CPU tests catch are caught on the GPU too. Each is a
// small change of a correct CUDA C++ kernel (Inputs/matmul-naive.cu,
// Inputs/add-grid-stride.cu) on odd sizes. The matmul problem fills its
// output before accumulating into it, so, like the add's, its output is
// write-only and prefilled with NaN: elements nobody writes stay NaN.

// WRONG: status: wrong
// WRONG-NEXT: message: argument #2 differs from the reference
// CACHE-SAME: (trial 1 (normal
// WRONG-NEXT: target: cuda

// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-problem.mlir %S/Inputs/bug-drop-last-row.cu -D M=255 -D K=129 -D N=191 > %t.row.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-problem.mlir --candidate %t.row.mlir | FileCheck %s --check-prefixes=WRONG,ROW
// ROW: worst element: {{.*}}[254, {{[0-9]+}}]

// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-problem.mlir %S/Inputs/bug-drop-last-col.cu -D M=255 -D K=129 -D N=191 > %t.col.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-problem.mlir --candidate %t.col.mlir | FileCheck %s --check-prefixes=WRONG,COL
// COL: worst element: {{.*}}[{{[0-9]+}}, 190]

// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-problem.mlir %S/Inputs/bug-no-accumulation.cu -D M=255 -D K=129 -D N=191 > %t.acc.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-problem.mlir --candidate %t.acc.mlir | FileCheck %s --check-prefix=WRONG

// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-problem.mlir %S/Inputs/bug-skipped-writes.cu -D M=255 -D K=129 -D N=191 > %t.skip.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-problem.mlir --candidate %t.skip.mlir | FileCheck %s --check-prefix=WRONG

// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/add-problem.mlir %S/Inputs/bug-add-skip-last-row.cu -D R=1023 -D C_COLS=517 > %t.addskip.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/Inputs/add-problem.mlir --candidate %t.addskip.mlir | FileCheck %s --check-prefix=ADDSKIP
// ADDSKIP:      status: wrong
// ADDSKIP-NEXT: message: argument #2 differs from the reference in 517 of 528891 elements (trial 0 {{.*}}); worst: argument #2 [1022, {{[0-9]+}}] {{.*}}got nan

// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-problem.mlir %S/Inputs/bug-nan-output.cu -D M=255 -D K=129 -D N=191 > %t.nan.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-problem.mlir --candidate %t.nan.mlir | FileCheck %s --check-prefixes=WRONG,NAN
// NAN: worst element: {{.*}}[7, 3]{{.*}}nan

// The first trial passes; the second gets the first trial's answer.
// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-problem.mlir %S/Inputs/bug-cached-answer.cu -D M=255 -D K=129 -D N=191 > %t.cache.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-problem.mlir --candidate %t.cache.mlir | FileCheck %s --check-prefixes=WRONG,CACHE

// Honest during the six correctness trials, not while being timed.
// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-problem.mlir %S/Inputs/bug-wrong-when-timed.cu -D M=255 -D K=129 -D N=191 > %t.late.mlir
// RUN: not stark-eval --target cuda --trials 2 --max-trials 2 --warmup 1 --problem %S/Inputs/matmul-problem.mlir --candidate %t.late.mlir | FileCheck %s --check-prefix=LATE
// LATE:      status: wrong
// LATE-NEXT: message: argument #2 differs from the reference {{.*}}(timed run 0 (uniform, seed

// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-problem.mlir %S/Inputs/bug-writes-input.cu -D M=255 -D K=129 -D N=191 > %t.input.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-problem.mlir --candidate %t.input.mlir | FileCheck %s --check-prefix=INPUT
// INPUT:      status: wrong
// INPUT-NEXT: message: the candidate wrote to input argument #0 (trial 0

// K = 129 is not a multiple of the 16-wide tile.
// RUN: python3 %S/Inputs/cuda_candidate.py %S/Inputs/matmul-problem.mlir %S/Inputs/bug-odd-tail.cu -D M=255 -D K=129 -D N=191 > %t.tail.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-problem.mlir --candidate %t.tail.mlir | FileCheck %s --check-prefix=WRONG

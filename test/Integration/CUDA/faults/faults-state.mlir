// Planted faults on the GPU: state in __device__ variables, clock-based
// behaviour, an atomic on a module-scope variable, a write past the end of
// the output, a write-only output read with NaN taken for "not written",
// an input clobbered while being timed. Where the compiled code itself is
// refused (PTX with module-scope state, %globaltimer reads, atomics on
// memory that is not an argument) compile_error is as good as wrong.
//
// DEFINE: %{eval} = stark-eval --target cuda --trials 2 --max-trials 2 --warmup 1 --time-budget 1
// DEFINE: %{gen} = python3 %S/../Inputs/cuda_candidate.py %S/../Inputs/matmul-problem.mlir
// DEFINE: %{sizes} = -D M=255 -D K=129 -D N=191
// DEFINE: %{mm} = --problem %S/../Inputs/matmul-problem.mlir

// Expected: wrong (or compile_error). A __device__ cache of C keyed by four
// elements of B.
// RUN: %{gen} %S/Inputs/matmul-device-cache-keyed-on-b.cu %{sizes} > %t.cache.mlir
// RUN: not %{eval} %{mm} --candidate %t.cache.mlir | FileCheck %s --check-prefix=REFUSED

// Expected: wrong (or compile_error). Inputs/matmul-clock-replay.cu
// replays the previous result when the previous launch was less than 2 ms
// ago (%globaltimer) and B starts as it did. The timed runs are spaced by
// uploads, cache flushes and checks, so it computes in all of them; the
// back-to-back pairs after the timing (timing set 1 right after set 0,
// which shares B) catch it. Model-written code cannot read %globaltimer
// at all (the PTX guards, faults-llm-cuda-guards.mlir).
// RUN: %{gen} %S/Inputs/matmul-clock-replay.cu %{sizes} > %t.clock.mlir
// RUN: not %{eval} %{mm} --candidate %t.clock.mlir | FileCheck %s --check-prefix=REFUSED

// Expected: wrong (or compile_error). A persistent kernel taking tiles from
// a __device__ counter with atomicAdd, never reset: only the first launch
// computes (the second correctness trial shows it).
// RUN: %{gen} %S/Inputs/matmul-atomic-tile-counter.cu %{sizes} > %t.atomic.mlir
// RUN: not %{eval} %{mm} --candidate %t.atomic.mlir | FileCheck %s --check-prefix=REFUSED

// Expected: wrong. One store past the end of C.
// RUN: %{gen} %S/Inputs/matmul-write-past-end.cu %{sizes} > %t.past.mlir
// RUN: not %{eval} %{mm} --candidate %t.past.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong. Accumulates into the write-only C, NaN read as 0.
// RUN: %{gen} %S/Inputs/matmul-nan-as-zero.cu %{sizes} > %t.nan.mlir
// RUN: not %{eval} %{mm} --candidate %t.nan.mlir | FileCheck %s --check-prefix=WRONG

// Expected: wrong (or compile_error: a __device__ call counter). Writes
// A[0] from the sixth launch on.
// RUN: %{gen} %S/Inputs/matmul-clobber-a-after-5-calls.cu %{sizes} > %t.clobber.mlir
// RUN: not %{eval} %{mm} --candidate %t.clobber.mlir | FileCheck %s --check-prefix=REFUSED

// WRONG: status: wrong
// REFUSED: status: {{wrong|compile_error}}

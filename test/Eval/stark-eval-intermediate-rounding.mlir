// A whole bf16 program rounds every op's result to bf16; the high-precision
// reference computes each op exactly and rounds nothing in between. Where a
// candidate is further from that reference than the bound, the judge runs
// the reference again with every op's result rounded to its declared type
// and gives each element room for that move (twice it, and at least 6
// times its root mean square over the row). The program itself, faithful
// to its own rounding, is then verified; a fused candidate that keeps the
// intermediate in f32 is verified without the room; a fault larger than
// the program's rounding explains is still wrong.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --problem %S/Inputs/bf16-rounded-chain.mlir

// RUN: %{eval} --candidate %S/Inputs/bf16-rounded-chain-same.mlir | FileCheck %s --check-prefix=SAME
// SAME:      status: ok
// SAME:      flags: bound_from_high_precision, bound_from_intermediate_rounding
// SAME:      note: argument #1: {{[0-9]+}} element(s) (trial 0 {{.*}}) are further from the high-precision reference than the bound, within the room the program's own rounding of its 2 op results to their types gives (the first trial that needed it)
// SAME-NOT:  rounding of its

// RUN: %{eval} --candidate %S/Inputs/bf16-rounded-chain-fused.mlir | FileCheck %s --check-prefix=FUSED
// FUSED:     status: ok
// FUSED:     flags: bound_from_high_precision{{$}}

// RUN: not %{eval} --candidate %S/Inputs/bf16-rounded-chain-off.mlir | FileCheck %s --check-prefix=OFF
// OFF:       status: wrong
// OFF-NEXT:  message: argument #1 differs from the reference in 960 of 960 elements

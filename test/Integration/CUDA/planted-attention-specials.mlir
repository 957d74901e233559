// A planted fault that only special values show: an attention kernel whose
// terms p v are NaN where they should be inf (as a kernel that splits P and
// multiplies the parts with an infinite V). The special-values trial gives
// K and V their special values in turns by head (3 heads: K in heads 0 and
// 2, V in head 1), so an inf of V reaches the output in a head whose K is
// finite; with both in every head, K's NaN and inf made every row of each
// head non-finite and the fault passed. The same kernel without the fault
// is verified.

// RUN: python3 %S/Inputs/cuda_candidate.py %S/templates/Inputs/attention-f32-odd.mlir %S/Inputs/attention-naive.cu -D B=3 -D SQ=77 -D SK=131 -D D=40 -D E=24 -D SCALE=0.158113882f -D BUG=0 > %t.ok.mlir
// RUN: stark-eval --target cuda --no-timing --problem %S/templates/Inputs/attention-f32-odd.mlir --candidate %t.ok.mlir | FileCheck %s --check-prefix=OK
// OK: status: ok

// RUN: python3 %S/Inputs/cuda_candidate.py %S/templates/Inputs/attention-f32-odd.mlir %S/Inputs/attention-naive.cu -D B=3 -D SQ=77 -D SK=131 -D D=40 -D E=24 -D SCALE=0.158113882f -D BUG=1 > %t.bug.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/templates/Inputs/attention-f32-odd.mlir --candidate %t.bug.mlir | FileCheck %s --check-prefix=BUG
// BUG:      status: wrong
// BUG-NEXT: message: argument #3 differs from the reference in {{[0-9]+}} of 5544 elements (the special-values trial {{.*}}got nan, expected inf

// Fill + contraction problems: every GEMM family writes C = init + sum
// without reading C (the evaluator prefills C with NaN, since the problem
// never reads it), for an f32 matmul filled with 0.5, an f16 matmul with an
// f32 output on tensor cores and a convolution as an implicit GEMM. The
// planted bug: the same matmul's kernel generated for the plain problem
// accumulates into C, so it reads the NaN and is wrong everywhere.

// RUN: stark-template --problem %S/Inputs/fill-matmul-255x129x191.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-matmul-255x129x191.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-matmul-255x129x191.mlir --family gemm --params bm=32,bn=32,bk=16,tm=2,tn=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-matmul-255x129x191.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-matmul-255x129x191.mlir --family gemm_f32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-matmul-255x129x191.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-matmul-255x129x191.mlir --family gemm_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-matmul-255x129x191.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-matmul-f16-odd.mlir --family gemm_tc | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-matmul-f16-odd.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-matmul-f16-odd.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-matmul-f16-odd.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-conv-nhwc.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-conv-nhwc.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-conv-nhwc.mlir --family gemm_f32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-conv-nhwc.mlir --candidate - | FileCheck %s
// With k split into slices, the reduction adds the fill value once.
// RUN: stark-template --problem %S/Inputs/fill-matmul-255x129x191.mlir --family gemm_f32 --params bm=64,bn=64,bk=16,wm=32,wn=32,tm=8,tn=4,stages=4,min_blocks=4,split_k=3 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-matmul-255x129x191.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-matmul-255x129x191.mlir --family gemm_3xtf32 --params bm=64,bn=64,bk=32,wm=32,wn=32,stages=3,split_k=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-matmul-255x129x191.mlir --candidate - | FileCheck %s
// CHECK: status: ok

// RUN: stark-template --problem %S/Inputs/matmul-255x129x191.mlir --family gemm | not stark-eval --target cuda --no-timing --problem %S/Inputs/fill-matmul-255x129x191.mlir --candidate - | FileCheck %s --check-prefix=READS
// RUN: stark-template --problem %S/Inputs/matmul-255x129x191.mlir --family gemm_f32 | not stark-eval --target cuda --no-timing --problem %S/Inputs/fill-matmul-255x129x191.mlir --candidate - | FileCheck %s --check-prefix=READS
// READS:      status: wrong
// READS-NEXT: message: argument #2 differs from the reference in 48705 of 48705 elements (trial 0 {{.*}}got nan

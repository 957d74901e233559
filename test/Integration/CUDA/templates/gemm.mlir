// The SIMT GEMM template verifies on the GPU for matmuls whose sizes divide
// no tile (guarded scalar loads), sizes that allow 16-byte loads with tails
// (guarded vectors), transposed A, batches, matrix-vector shapes and
// convolutions as implicit GEMMs; with single and double buffering and both
// register caps.

// RUN: stark-template --problem %S/Inputs/matmul-255x129x191.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-255x129x191.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-255x129x191.mlir --family gemm --params bm=64,bn=64,bk=16,tm=8,tn=8,double_buffer=0 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-255x129x191.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-255x129x191.mlir --family gemm --params bm=32,bn=32,bk=16,tm=2,tn=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-255x129x191.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-300x260x132.mlir --family gemm --params bm=128,bn=128,bk=8,tm=8,tn=8,min_blocks=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-300x260x132.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-300x260x132.mlir --family gemm --params bm=128,bn=128,bk=16,tm=8,tn=8,min_blocks=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-300x260x132.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-300x260x132.mlir --family gemm --params bm=64,bn=128,bk=16,tm=4,tn=8 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-300x260x132.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-ta-f32.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-ta-f32.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-ta-f32.mlir --family gemm --params bm=64,bn=32,bk=8,tm=4,tn=4 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-ta-f32.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-tb-f16.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-tb-f16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-f16-out.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-f16-out.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/batch-matmul-f32.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/batch-matmul-f32.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/batch-matmul-bf16.mlir --family gemm --params bm=32,bn=64,bk=8,tm=4,tn=4 | stark-eval --target cuda --no-timing --problem %S/Inputs/batch-matmul-bf16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matvec.mlir --family gemm --params bm=64,bn=16,bk=8,tm=4,tn=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/matvec.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/vecmat.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/vecmat.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/dot.mlir --family gemm --params bm=16,bn=16,bk=16,tm=1,tn=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/dot.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/conv-nhwc.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/conv-nhwc.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/conv-nhwc.mlir --family gemm --params bm=64,bn=32,bk=16,tm=4,tn=4,double_buffer=0 | stark-eval --target cuda --no-timing --problem %S/Inputs/conv-nhwc.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/conv-nhwc-f16.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/conv-nhwc-f16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/conv-nchw-strided.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/conv-nchw-strided.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/conv1d-nwc.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/conv1d-nwc.mlir --candidate - | FileCheck %s

// CHECK: status: ok

// Split-K in the families over the embedded kernels (gemm_f32, gemm_3xtf32):
// slices of k in separate blocks, their partial sums added in order by a
// second launch. Verified on the GPU against the f32 rule on a large-k
// output of one tile (the first set the search proposes, and explicit
// counts), on odd sizes with A read transposed (element copies, a short last
// slice), on a batch (batch times slices in grid.y) and on a convolution
// (decoded addresses).

// RUN: stark-template --problem %S/Inputs/matmul-large-k.mlir --family gemm_f32 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-large-k.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-large-k.mlir --family gemm_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-large-k.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-large-k.mlir --family gemm_f32 --params bm=64,bn=64,bk=16,wm=32,wn=32,tm=8,tn=4,stages=4,min_blocks=4,split_k=8 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-large-k.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-large-k.mlir --family gemm_3xtf32 --params bm=32,bn=32,bk=32,wm=16,wn=16,stages=4,split_k=16 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-large-k.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-large-k-ta-odd.mlir --family gemm_f32 --params bm=64,bn=64,bk=16,wm=32,wn=32,tm=8,tn=4,stages=4,min_blocks=4,split_k=5 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-large-k-ta-odd.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matmul-large-k-ta-odd.mlir --family gemm_3xtf32 --params bm=64,bn=64,bk=32,wm=32,wn=32,stages=3,split_k=7 | stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-large-k-ta-odd.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/batch-matmul-f32.mlir --family gemm_f32 --params bm=32,bn=32,bk=16,wm=32,wn=16,tm=4,tn=4,stages=3,split_k=3 | stark-eval --target cuda --no-timing --problem %S/Inputs/batch-matmul-f32.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/batch-matmul-f32.mlir --family gemm_3xtf32 --params bm=32,bn=32,bk=32,wm=16,wn=16,stages=2,split_k=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/batch-matmul-f32.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/conv-nhwc.mlir --family gemm_f32 --params bm=32,bn=32,bk=16,wm=32,wn=16,tm=4,tn=4,stages=3,split_k=3 | stark-eval --target cuda --no-timing --problem %S/Inputs/conv-nhwc.mlir --candidate - | FileCheck %s
// A deep convolution (VGG-16's 512 channels on 28 x 28, k = 4608): both
// families' first sets split k although smaller tiles would fill the SMs
// (test/Strategies/stark-template-split-k-deep.mlir).
// RUN: stark-template --problem %S/Inputs/fill-conv2d-nchw-512ch-28.mlir --family gemm_3xtf32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-conv2d-nchw-512ch-28.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-conv2d-nchw-512ch-28.mlir --family gemm_f32 | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-conv2d-nchw-512ch-28.mlir --candidate - | FileCheck %s

// CHECK: status: ok

// A planted wrong split: the grid leaves out the last of the 5 slices, whose
// partial sums then never reach C. The evaluator must reject it.
// RUN: stark-template --problem %S/Inputs/matmul-large-k-ta-odd.mlir --family gemm_f32 --params bm=64,bn=64,bk=16,wm=32,wn=32,tm=8,tn=4,stages=4,min_blocks=4,split_k=5 > %t.split.mlir
// RUN: grep -q "grid = array<i64: 2, 5, 1>" %t.split.mlir
// RUN: sed -e "s/grid = array<i64: 2, 5, 1>/grid = array<i64: 2, 4, 1>/" %t.split.mlir > %t.skip.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/Inputs/matmul-large-k-ta-odd.mlir --candidate %t.skip.mlir | FileCheck %s --check-prefix=SKIP
// SKIP: status: wrong
// SKIP-NEXT: message: argument #2 differs from the reference

// Split-K on a deep contraction where smaller tiles would fill the SMs:
// VGG-16's 3x3 convolution of 512 channels on a 28 x 28 image (784 x 512
// outputs, k = 4608 = 512 x 3 x 3). The 32 x 32 tiles alone make 400 blocks,
// so no configuration is short of tiles, but k is deep (at least twice the
// larger side of the output): the 128 x 128 tiles (28 blocks) are offered in
// slices of k too, and their reuse outscores the small tiles that ran
// unsplit at 8 TFLOP/s on the H200. A square 1024^3 product is not deep and
// keeps its unsplit points only.
//
// On such a deep convolution gemm_f32 ranks before gemm_3xtf32 (its first
// set, ten slices of 128 x 256 tiles, ran 1.6x faster on the H100); on a
// convolution whose k is not deep (k = 144 for 16 x 16 outputs of 32
// channels) gemm_3xtf32 stays first.
//
// DEFINE: %{conv} = %S/../Integration/CUDA/templates/Inputs/fill-conv2d-nchw-512ch-28.mlir
// RUN: stark-template --problem %{conv} --list | FileCheck %s
// RUN: stark-template --problem %{conv} --family gemm_3xtf32 | FileCheck %s --check-prefix=PLAN
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/matmul-1024-f32.mlir --list | FileCheck %s --check-prefix=SQUARE
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-conv-nhwc.mlir --list | FileCheck %s --check-prefix=SHALLOW

// Five slices of 29 k tiles of 32 (the last shorter): 140 blocks on 132 SMs.
// CHECK: gemm_f32: {{[0-9]+}} parameter sets
// CHECK-NEXT: bk=8,bm=128,bn=256,group_m=8,min_blocks=1,split_k=10,stages=4,tm=8,tn=16,wm=32,wn=128
// CHECK: gemm_3xtf32: {{[0-9]+}} parameter sets
// CHECK-NEXT: bk=32,bm=128,bn=128,group_m=8,split_k=5,stages=4,wm=64,wn=32

// SHALLOW-NOT: gemm_f32:
// SHALLOW: gemm_3xtf32: {{[0-9]+}} parameter sets
// SHALLOW: gemm_f32: {{[0-9]+}} parameter sets

// PLAN: grid = array<i64: 28, 5, 1>, kernel = "stark_gemm_3xtf32"
// PLAN-SAME: kernel = "stark_gemm_splitk_reduce"
// PLAN-SAME: split_k = "5"

// SQUARE: gemm_3xtf32: {{[0-9]+}} parameter sets
// SQUARE-NOT: split_k={{([2-9]|[1-9][0-9]+)}},
// SQUARE: gemm_f32:

// gemm_skinny verifies on the GPU under the f32 bound with every trial of
// the evaluator, special values included. B along n: a classifier with the
// fill, the bias and relu (1 x 4100 times 4100 x 1000: 16-byte loads, the
// slices' sums through the split-K pass and its epilogue, a k that is no
// multiple of the step) in its first plan and unsplit; a vector times a
// matrix whose 517 columns take scalar loads; a batch of three with two
// rows from a fill. B along k: five rows accumulated into C with rows of
// 1030 (scalar lanes), eight rows from a fill with rows of 2052 (16-byte
// lanes); a dot product. The transposed walk (many rows, a few columns):
// a matrix times a vector, a linear layer to 3 features with its bias, in
// slices and unsplit. A 1x1 convolution of one pixel with its bias and
// hardsigmoid, addressed through the decoded convolution. Planted wrong:
// the classifier's split plan with a grid that leaves out the last slice.

// RUN: stark-template --problem %S/Inputs/fused-classifier-f32-bias-relu.mlir --family gemm_skinny | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-classifier-f32-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-classifier-f32-bias-relu.mlir --family gemm_skinny --params bm=1,bn=512,bk=4,threads=128,split_k=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-classifier-f32-bias-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/vecmat.mlir --family gemm_skinny | stark-eval --target cuda --no-timing --problem %S/Inputs/vecmat.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-batch-matmul-f32-rows2.mlir --family gemm_skinny | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-batch-matmul-f32-rows2.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/linear-f32-rows5-k1030.mlir --family gemm_skinny | stark-eval --target cuda --no-timing --problem %S/Inputs/linear-f32-rows5-k1030.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/linear-f32-rows5-k1030.mlir --family gemm_skinny --params bm=8,bn=32,bk=32,threads=128,split_k=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/linear-f32-rows5-k1030.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fill-linear-f32-rows8.mlir --family gemm_skinny | stark-eval --target cuda --no-timing --problem %S/Inputs/fill-linear-f32-rows8.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/dot.mlir --family gemm_skinny | stark-eval --target cuda --no-timing --problem %S/Inputs/dot.mlir --candidate - | FileCheck %s

// RUN: stark-template --problem %S/Inputs/matvec.mlir --family gemm_skinny | stark-eval --target cuda --no-timing --problem %S/Inputs/matvec.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-linear-f32-cols3-bias.mlir --family gemm_skinny | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-linear-f32-cols3-bias.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-linear-f32-cols3-bias.mlir --family gemm_skinny --params bm=4,bn=8,bk=128,threads=64,split_k=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-linear-f32-cols3-bias.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-conv1x1-pixel-bias-hardsigmoid.mlir --family gemm_skinny | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-conv1x1-pixel-bias-hardsigmoid.mlir --candidate - | FileCheck %s

// CHECK: status: ok

// RUN: stark-template --problem %S/Inputs/fused-classifier-f32-bias-relu.mlir --family gemm_skinny > %t.split.mlir
// RUN: grep -q "grid = array<i64: 1, 257, 1>" %t.split.mlir
// RUN: sed -e "s/grid = array<i64: 1, 257, 1>/grid = array<i64: 1, 256, 1>/" %t.split.mlir > %t.skip.mlir
// RUN: not stark-eval --target cuda --no-timing --problem %S/Inputs/fused-classifier-f32-bias-relu.mlir --candidate %t.skip.mlir | FileCheck %s --check-prefix=SKIP
// SKIP: status: wrong

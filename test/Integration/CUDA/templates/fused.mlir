// Fused chains on the GPU (FusedView): chains with reductions as one
// fused_rows kernel (lanes along a row, several rows per block, the row kept
// in registers or shared memory or read once per walk, one thread or `split` threads per row
// for a reduction over a middle dimension; an argmax / argmin whose value
// and position travel together), element-wise chains
// with broadcasts and transposed reads through the elementwise and direct
// families.

// RUN: stark-template --problem %S/Inputs/fused-log-softmax.mlir --family fused_rows | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-log-softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-log-softmax.mlir --family fused_rows --params lanes=32,rows=8 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-log-softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-log-softmax.mlir --family fused_rows --params lanes=32,rows=8,cache=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-log-softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-log-softmax.mlir --family fused_rows --params lanes=32,rows=8,cache=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-log-softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-layernorm-gelu.mlir --family fused_rows --params lanes=128,rows=1,cache=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-layernorm-gelu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-log-softmax.mlir --family fused_rows --params lanes=1,rows=64 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-log-softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-mean-middle.mlir --family fused_rows | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-mean-middle.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-mean-middle.mlir --family fused_rows --params lanes=64,rows=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-mean-middle.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-mean-middle-long.mlir --family fused_rows | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-mean-middle-long.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-mean-middle.mlir --family fused_rows --params lanes=1,rows=32,split=8 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-mean-middle.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-log-softmax.mlir --family fused_rows --params lanes=1,rows=32,split=8 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-log-softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-pool-mean.mlir --family fused_rows | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-pool-mean.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-pool-mean.mlir --family fused_rows --params lanes=32,rows=4 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-pool-mean.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-pool-mean.mlir --family fused_rows --params lanes=1,rows=64 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-pool-mean.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-argmax-middle.mlir --family fused_rows | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-argmax-middle.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-argmax-middle.mlir --family fused_rows --params lanes=1,rows=64 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-argmax-middle.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-argmax-middle.mlir --family fused_rows --params lanes=32,rows=4 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-argmax-middle.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-argmin-rows-i32.mlir --family fused_rows | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-argmin-rows-i32.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-argmin-rows-i32.mlir --family fused_rows --params lanes=1,rows=32,split=8 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-argmin-rows-i32.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-bias-sigmoid-sum.mlir --family fused_rows | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-bias-sigmoid-sum.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-bias-sigmoid-sum.mlir --family fused_rows --params lanes=1024,rows=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-bias-sigmoid-sum.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-layernorm-gelu.mlir --family fused_rows | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-layernorm-gelu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-layernorm-gelu.mlir --family fused_rows --params lanes=32,rows=4,cache=0 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-layernorm-gelu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-layernorm-gelu.mlir --family fused_rows --params lanes=128,rows=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-layernorm-gelu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-rmsnorm-silu.mlir --family fused_rows | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-rmsnorm-silu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-group-norm.mlir --family fused_rows | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-group-norm.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-logsumexp-relu.mlir --family fused_rows | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-logsumexp-relu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-swish-scale-bias.mlir --family elementwise | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-swish-scale-bias.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-swish-scale-bias.mlir --family direct | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-swish-scale-bias.mlir --candidate - | FileCheck %s

// CHECK: status: ok

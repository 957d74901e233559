// REQUIRES: cuda-device
// Transform-dialect schedules (td-*) verify on the GPU: shared-memory
// staging with and without promotion, register tiles of several shapes,
// elementwise with vector accesses and broadcast operands, reductions with
// the accumulator in registers.

// RUN: stark-template --problem %S/../../Strategies/Inputs/schedules/matmul.mlir --family td-matmul | stark-eval --target cuda --no-timing --problem %S/../../Strategies/Inputs/schedules/matmul.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/../../Strategies/Inputs/schedules/matmul.mlir --family td-matmul --params bm=64,bn=64,bk=16,tm=4,tn=4,ku=4,promote=1 | stark-eval --target cuda --no-timing --problem %S/../../Strategies/Inputs/schedules/matmul.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/../../Strategies/Inputs/schedules/matmul.mlir --family td-matmul --params bm=128,bn=64,bk=8,tm=8,tn=4,ku=2,promote=1 | stark-eval --target cuda --no-timing --problem %S/../../Strategies/Inputs/schedules/matmul.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/../../Strategies/Inputs/schedules/matmul.mlir --family td-matmul --params bm=64,bn=64,bk=16,tm=4,tn=4,ku=4,promote=0 | stark-eval --target cuda --no-timing --problem %S/../../Strategies/Inputs/schedules/matmul.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/templates/Inputs/bias-gelu.mlir --family td-elementwise | stark-eval --target cuda --no-timing --problem %S/templates/Inputs/bias-gelu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/templates/Inputs/bias-gelu.mlir --family td-elementwise --params tx=32,ty=2,vec=2 | stark-eval --target cuda --no-timing --problem %S/templates/Inputs/bias-gelu.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/templates/Inputs/row-sum.mlir --family td-reduce | stark-eval --target cuda --no-timing --problem %S/templates/Inputs/row-sum.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/templates/Inputs/col-min.mlir --family td-reduce | stark-eval --target cuda --no-timing --problem %S/templates/Inputs/col-min.mlir --candidate - | FileCheck %s

// CHECK: status: ok

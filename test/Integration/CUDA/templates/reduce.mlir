// The reduction templates verify on the GPU: row sums with sub-warp,
// warp and multi-warp rows, vectors and split rows (two launches); an f16 row
// max; a middle-dimension reduction; a mean written as a scaled
// sum; a full sum of squares; matrix-vector and dot products.

// RUN: stark-template --problem %S/Inputs/row-sum.mlir --family reduce_row | stark-eval --target cuda --no-timing --problem %S/Inputs/row-sum.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/row-sum.mlir --family reduce_row --params threads=8,rows=16,vec=1,split=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/row-sum.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/row-sum.mlir --family reduce_row --params threads=256,rows=2,vec=1,split=3 | stark-eval --target cuda --no-timing --problem %S/Inputs/row-sum.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/row-sum.mlir --family reduce_col | stark-eval --target cuda --no-timing --problem %S/Inputs/row-sum.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/row-max-f16.mlir --family reduce_row | stark-eval --target cuda --no-timing --problem %S/Inputs/row-max-f16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/row-max-f16.mlir --family reduce_row --params threads=1024,rows=1,vec=8,split=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/row-max-f16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/middle-sum.mlir --family reduce_col | stark-eval --target cuda --no-timing --problem %S/Inputs/middle-sum.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/mean-rows.mlir --family reduce_row | stark-eval --target cuda --no-timing --problem %S/Inputs/mean-rows.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/sum-squares.mlir --family reduce_row | stark-eval --target cuda --no-timing --problem %S/Inputs/sum-squares.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/sum-squares.mlir --family reduce_col --params block_x=32,split_y=32 | stark-eval --target cuda --no-timing --problem %S/Inputs/sum-squares.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/matvec.mlir --family reduce_row | stark-eval --target cuda --no-timing --problem %S/Inputs/matvec.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/vecmat.mlir --family reduce_col | stark-eval --target cuda --no-timing --problem %S/Inputs/vecmat.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/dot.mlir --family reduce_row | stark-eval --target cuda --no-timing --problem %S/Inputs/dot.mlir --candidate - | FileCheck %s

// Reductions that own the fill of their output (written, never read):
// RUN: stark-template --problem %S/../../../Strategies/Inputs/templates/fill-row-sum.mlir --family reduce_row --params threads=256,rows=1,vec=4,split=4 | stark-eval --target cuda --no-timing --problem %S/../../../Strategies/Inputs/templates/fill-row-sum.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/../../../Strategies/Inputs/templates/fill-row-sum.mlir --family reduce_col | stark-eval --target cuda --no-timing --problem %S/../../../Strategies/Inputs/templates/fill-row-sum.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/../../../Strategies/Inputs/templates/fill-col-max-f16.mlir --family reduce_col | stark-eval --target cuda --no-timing --problem %S/../../../Strategies/Inputs/templates/fill-col-max-f16.mlir --candidate - | FileCheck %s
// CHECK: status: ok

// Column and row reductions with arith.minimumf (NaN-propagating min) on the
// GPU. Kept apart from reduce.mlir: on the H200 run of 2026-11-29 the
// evaluator's worker crashed (segmentation fault) compiling this problem's
// baseline, the plain upstream GPU lowering, before any candidate ran.

// RUN: stark-template --problem %S/Inputs/col-min.mlir --family reduce_col | stark-eval --target cuda --no-timing --problem %S/Inputs/col-min.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/col-min.mlir --family reduce_col --params block_x=32,split_y=16 | stark-eval --target cuda --no-timing --problem %S/Inputs/col-min.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/col-min.mlir --family reduce_row --params threads=64,rows=4,vec=1,split=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/col-min.mlir --candidate - | FileCheck %s

// CHECK: status: ok

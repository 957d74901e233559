// The online softmax template on the GPU: contiguous rows (vectors), rows
// kept in registers between the passes, long rows over many lanes, strided
// f16 rows (a thread per row).
//
// The evaluator's baseline is the problem lowered the plain upstream way,
// which does not handle linalg.softmax yet ("cannot convert
// builtin.unrealized_conversion_cast"): these fail until it does.
// XFAIL: *

// RUN: stark-template --problem %S/Inputs/softmax.mlir --family softmax | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax.mlir --family softmax --params threads=128,rows=2,vec=4 | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax-long.mlir --family softmax | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax-long.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax-strided-f16.mlir --family softmax | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax-strided-f16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax-strided-f16.mlir --family softmax --params threads=32,rows=4,vec=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax-strided-f16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax.mlir --family softmax --params threads=64,rows=4,vec=4,cache=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax.mlir --family softmax --params threads=128,rows=1,vec=1,cache=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax-strided-f16.mlir --family softmax --params threads=32,rows=4,vec=1,cache=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax-strided-f16.mlir --candidate - | FileCheck %s

// CHECK: status: ok

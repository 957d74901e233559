// The online softmax template on the GPU: contiguous rows (vectors), rows
// kept in registers or shared memory between the passes, long rows over many
// lanes, strided f16 rows (a thread per row); and the same problems as a
// fused chain (max, sum of exp, divide) through fused_rows.
//
// The baseline is linalg.softmax decomposed on buffers (max, exp, sum,
// divide; lib/Target/BufferLowering.cpp) and lowered the upstream way.

// RUN: stark-template --problem %S/Inputs/softmax.mlir --family softmax | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax.mlir --family softmax --params threads=128,rows=2,vec=4 | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax-long.mlir --family softmax | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax-long.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax-strided-f16.mlir --family softmax | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax-strided-f16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax-strided-f16.mlir --family softmax --params threads=32,rows=4,vec=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax-strided-f16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax.mlir --family softmax --params threads=64,rows=4,vec=4,cache=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax.mlir --family softmax --params threads=128,rows=1,vec=1,cache=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax.mlir --family fused_rows | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax-long.mlir --family fused_rows | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax-long.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax-long.mlir --family fused_rows --params lanes=512,rows=1,cache=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax-long.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax-strided-f16.mlir --family fused_rows | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax-strided-f16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax-long.mlir --family softmax --params threads=256,rows=1,vec=4,cache=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax-long.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax.mlir --family softmax --params threads=64,rows=4,vec=4,cache=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax-strided-f16.mlir --family softmax --params threads=32,rows=4,vec=1,cache=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax-strided-f16.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/softmax-strided-f16.mlir --family softmax --params threads=32,rows=4,vec=1,cache=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/softmax-strided-f16.mlir --candidate - | FileCheck %s

// CHECK: status: ok

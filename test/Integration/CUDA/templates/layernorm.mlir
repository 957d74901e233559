// The layer norm and RMS norm templates on the GPU, on fused problems (two
// reductions and an element-wise normalisation outlined as one problem):
// rows kept in registers (two passes), streaming Welford statistics for rows
// too long to keep, a mean taken by a multiply, normalisation over two
// trailing dimensions, RMS norms with a division by sqrt, rows whose length
// divides no vector.

// RUN: stark-template --problem %S/Inputs/layernorm.mlir --family layernorm | stark-eval --target cuda --no-timing --problem %S/Inputs/layernorm.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/layernorm.mlir --family layernorm --params threads=64,rows=4,vec=4,cache=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/layernorm.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/layernorm.mlir --family layernorm --params threads=128,rows=2,vec=1,cache=0 | stark-eval --target cuda --no-timing --problem %S/Inputs/layernorm.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/layernorm-long.mlir --family layernorm | stark-eval --target cuda --no-timing --problem %S/Inputs/layernorm-long.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/layernorm-long.mlir --family layernorm --params threads=1024,rows=1,vec=4,cache=0 | stark-eval --target cuda --no-timing --problem %S/Inputs/layernorm-long.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/layernorm-3d.mlir --family layernorm --params threads=32,rows=4,vec=2,cache=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/layernorm-3d.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/rmsnorm.mlir --family rmsnorm | stark-eval --target cuda --no-timing --problem %S/Inputs/rmsnorm.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/rmsnorm.mlir --family rmsnorm --params threads=256,rows=1,vec=4,cache=0 | stark-eval --target cuda --no-timing --problem %S/Inputs/rmsnorm.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/rmsnorm-odd.mlir --family rmsnorm --params threads=64,rows=2,vec=1,cache=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/rmsnorm-odd.mlir --candidate - | FileCheck %s

// CHECK: status: ok

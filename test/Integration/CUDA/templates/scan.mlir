// The scan template verifies on the GPU against the masked reductions it
// replaces: an inclusive cumsum, an exclusive one over rows longer than a
// chunk (the carry between chunks), a reverse cumsum, a cumprod, and a
// cumsum of a value computed from the input (x * x); each with the default
// and a second parameter set.

// RUN: stark-template --problem %S/Inputs/cumsum.mlir --family scan | stark-eval --target cuda --no-timing --problem %S/Inputs/cumsum.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/cumsum.mlir --family scan --params threads=32,items=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/cumsum.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/cumsum-long-exclusive.mlir --family scan | stark-eval --target cuda --no-timing --problem %S/Inputs/cumsum-long-exclusive.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/cumsum-long-exclusive.mlir --family scan --params threads=1024,items=2 | stark-eval --target cuda --no-timing --problem %S/Inputs/cumsum-long-exclusive.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/cumsum-reverse.mlir --family scan | stark-eval --target cuda --no-timing --problem %S/Inputs/cumsum-reverse.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/cumsum-reverse.mlir --family scan --params threads=64,items=8 | stark-eval --target cuda --no-timing --problem %S/Inputs/cumsum-reverse.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/cumprod.mlir --family scan | stark-eval --target cuda --no-timing --problem %S/Inputs/cumprod.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/cumsum-masked.mlir --family scan --params threads=128,items=8 | stark-eval --target cuda --no-timing --problem %S/Inputs/cumsum-masked.mlir --candidate - | FileCheck %s

// CHECK: status: ok

// The rewritten pools compute what the originals do: stark-eval runs both
// programs on the same inputs and compares every output.
//
// RUN: stark-opt %S/Inputs/adaptive-pools.mlir --stark-extracts-to-operands -o %t.mlir
// RUN: FileCheck %s --check-prefix=REWRITTEN < %t.mlir
// REWRITTEN-NOT: tensor.extract
// RUN: stark-eval --target cpu --no-timing --correctness-trials 2 --problem %S/Inputs/adaptive-pools.mlir --candidate %t.mlir | FileCheck %s --check-prefix=OK
// OK: status: ok

// The same program with the first pool's window read along its diagonal
// only (d5 where d4 belongs): judged wrong, so the check above can fail.
// RUN: sed -e 's/d2 \* 2 + d4/d2 * 2 + d5/' %t.mlir > %t.wrong.mlir
// RUN: FileCheck %s --check-prefix=PLANTED < %t.wrong.mlir
// PLANTED: d2 * 2 + d5
// RUN: not stark-eval --target cpu --no-timing --correctness-trials 2 --problem %S/Inputs/adaptive-pools.mlir --candidate %t.wrong.mlir | FileCheck %s --check-prefix=WRONG
// WRONG: status: wrong

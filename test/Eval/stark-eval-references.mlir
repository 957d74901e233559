// The reference outputs of each trial input are computed once, by the
// problem's evaluation against itself (--write-references), and read back
// by every candidate's evaluation: 6 correctness trials (5 and the special
// values) of a matmul with an f64 reference are 6 baseline and 6 f64 runs,
// plus a baseline and an f64 run on each of the 3 timing input sets, plus 2
// runs for each of the 10 extra trials a suspicious speedup would trigger;
// a candidate then runs none (nor creates the judge's device). The checks
// are the same:
// a wrong candidate is rejected with the same message as without a store.
// Runs that count references fix --suspicious-speedup, so that a noisy timing
// cannot add extra trials.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --problem %S/Inputs/matmul-problem.mlir

// RUN: rm -rf %t && mkdir -p %t
// RUN: %{eval} --candidate %S/Inputs/matmul-problem.mlir --references %t/refs --write-references | FileCheck %s --check-prefix=WRITE
// WRITE: status: ok
// WRITE: high-precision reference: yes
// WRITE: references: 38 runs, 0 trial inputs reused
// The judge computes the references on a device of its own, created when
// it first needs it; a candidate's judge reading the store never does.
// WRITE: judge's time: {{.*}}creating the judge's target

// RUN: %{eval} --suspicious-speedup 1e9 --candidate %S/Inputs/matmul-ikj.mlir --references %t/refs | FileCheck %s --check-prefix=READ
// RUN: %{eval} --suspicious-speedup 1e9 --candidate %S/Inputs/matmul-ksplit.mlir --references %t/refs | FileCheck %s --check-prefix=READ
// READ: status: ok
// READ: high-precision reference: yes
// READ: references: 0 runs, 9 trial inputs reused
// READ-NOT: creating the judge's target

// RUN: not %{eval} --candidate %S/Inputs/matmul-drop-last-row.mlir --references %t/refs | FileCheck %s --check-prefix=WRONG
// RUN: not %{eval} --candidate %S/Inputs/matmul-drop-last-row.mlir | FileCheck %s --check-prefix=WRONG
// WRONG: status: wrong
// WRONG-NEXT: message: argument #2 differs from the reference in 9 of 297 elements (trial 0 (uniform, seed 16294208416658607535)); worst: argument #2 [32, 4] (flat 292): got 0.537513316, expected -2.55661392, abs error 3.09, rel error 1.21, allowed 0.000112

// A NaN where the reference is finite still fails.
// RUN: not %{eval} --candidate %S/Inputs/matmul-nan.mlir --references %t/refs | FileCheck %s --check-prefix=NAN
// NAN: status: wrong
// NAN: references: 0 runs, 1 trial inputs reused

// Write-only outputs are still prefilled: NaN for floats, and for integers
// the complement of the stored baseline output, so a skipped row fails.
// RUN: stark-eval --no-timing --problem %S/Inputs/add-problem.mlir --candidate %S/Inputs/add-problem.mlir --references %t/add --write-references | FileCheck %s --check-prefix=ADD
// ADD: references: 6 runs, 0 trial inputs reused
// (--no-timing: no speedup, so no extra trials to store.)
// RUN: not stark-eval --no-timing --problem %S/Inputs/add-problem.mlir --candidate %S/Inputs/add-skip-last-row.mlir --references %t/add | FileCheck %s --check-prefix=SKIP
// SKIP: status: wrong
// SKIP-NEXT: message: argument #2 differs from the reference in 13 of 91 elements (trial 0 (uniform, seed 16294208416658607535)); worst: argument #2 [6, 0] (flat 78): got nan, expected 0.841135383
// SKIP: references: 0 runs, 1 trial inputs reused
// RUN: stark-eval --no-timing --problem %S/Inputs/add-i32-problem.mlir --candidate %S/Inputs/add-i32-problem.mlir --references %t/addi --write-references | FileCheck %s --check-prefix=ADD
// RUN: not stark-eval --no-timing --problem %S/Inputs/add-i32-problem.mlir --candidate %S/Inputs/add-i32-skip-last-row.mlir --references %t/addi | FileCheck %s --check-prefix=SKIPI
// SKIPI: status: wrong
// SKIPI: references: 0 runs, 1 trial inputs reused

// Stored references belong to one problem, target and seed: another seed
// finds nothing for it and computes its own.
// RUN: %{eval} --suspicious-speedup 1e9 --seed 7 --candidate %S/Inputs/matmul-ikj.mlir --references %t/refs | FileCheck %s --check-prefix=OTHER
// OTHER: status: ok
// OTHER: references: 18 runs, 0 trial inputs reused

// A speedup that triggers extra trials reads their references too; past
// the 10 stored ones it computes them.
// RUN: %{eval} --suspicious-speedup 0 --extra-trials 2 --candidate %S/Inputs/matmul-ikj.mlir --references %t/refs | FileCheck %s --check-prefix=EXTRA
// EXTRA: status: ok
// EXTRA: flags: speedup_above_threshold, extra_trials_passed
// EXTRA: references: 0 runs, 11 trial inputs reused
// RUN: %{eval} --suspicious-speedup 0 --extra-trials 12 --candidate %S/Inputs/matmul-ikj.mlir --references %t/refs | FileCheck %s --check-prefix=BEYOND
// BEYOND: flags: speedup_above_threshold, extra_trials_passed
// BEYOND: references: 4 runs, 19 trial inputs reused

// --write-references needs the directory.
// RUN: not stark-eval --write-references --problem %S/Inputs/matmul-problem.mlir --candidate %S/Inputs/matmul-ikj.mlir 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: stark-eval: --write-references needs --references

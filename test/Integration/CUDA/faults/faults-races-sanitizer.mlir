// The racy kernels of faults-races.mlir under compute-sanitizer's racecheck
// (stark-eval --sanitize): the hazard is reported whatever the schedule, and
// the finding makes the candidate wrong. The correct tiled kernel of the
// controls stays verified under it.
//
// DEFINE: %{eval} = stark-eval --target cuda --no-timing --correctness-trials 1 --no-special-values --timeout 600
// DEFINE: %{gen} = python3 %S/../Inputs/cuda_candidate.py

// RUN: %{gen} %S/../Inputs/matmul-problem.mlir %S/Inputs/matmul-tiled-no-trailing-sync.cu -D M=255 -D K=129 -D N=191 > %t.tiled.mlir
// RUN: not %{eval} --sanitize racecheck --problem %S/../Inputs/matmul-problem.mlir --candidate %t.tiled.mlir | FileCheck %s --check-prefix=RACE
// RUN: %{gen} %S/../Inputs/rowsum-problem.mlir %S/Inputs/rowsum-tree-no-sync.cu -D R=1023 -D C=997 > %t.rowsum.mlir
// RUN: not %{eval} --sanitize racecheck --problem %S/../Inputs/rowsum-problem.mlir --candidate %t.rowsum.mlir | FileCheck %s --check-prefix=RACE
// Under the sanitizer the race may also show in the outputs (its schedule
// differs), which fails the trial before the sanitizer's own report.
// RACE:      status: wrong
// RACE-NEXT: message: {{compute-sanitizer reported errors in the candidate|argument #[0-9]+ differs from the reference}}

// A write past the end of the output under memcheck.
// RUN: %{gen} %S/../Inputs/matmul-problem.mlir %S/Inputs/matmul-write-past-end.cu -D M=255 -D K=129 -D N=191 > %t.past.mlir
// RUN: not %{eval} --sanitize memcheck --problem %S/../Inputs/matmul-problem.mlir --candidate %t.past.mlir | FileCheck %s --check-prefix=WRONG
// WRONG: status: wrong

// Control: the correct tiled kernel.
// RUN: %{gen} %S/../Inputs/matmul-problem.mlir %S/../Inputs/matmul-tiled.cu -D M=255 -D K=129 -D N=191 > %t.ok.mlir
// RUN: %{eval} --sanitize racecheck --problem %S/../Inputs/matmul-problem.mlir --candidate %t.ok.mlir | FileCheck %s --check-prefix=OK
// RUN: %{eval} --sanitize memcheck --problem %S/../Inputs/matmul-problem.mlir --candidate %t.ok.mlir | FileCheck %s --check-prefix=OK
// OK:      status: ok
// OK:      flags: {{.*}}sanitizer_{{memcheck|racecheck}}_clean

// Under the tool a trial runs the candidate once (a winner has passed the
// second, rescheduled run before; under racecheck each run of a large
// kernel takes seconds).
// RUN: %{eval} --sanitize racecheck --json --problem %S/../Inputs/matmul-problem.mlir --candidate %t.ok.mlir | FileCheck %s --check-prefix=ONCE
// ONCE:     "correctness": {
// ONCE-NEXT: "candidate_runs": 1,

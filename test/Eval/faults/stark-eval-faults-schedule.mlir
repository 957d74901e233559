// Planted faults, class "schedule": a threaded kernel that is right only in
// the order its threads happen to take. Every correctness trial's second
// run takes another schedule (on the cpu: the shards one by one, the last
// first), so a shard that reads what an earlier one writes is caught
// whatever order the parallel run took.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --time-budget 1

// Expected: ok. Control: one row per shard, no shard reads another's rows.
// RUN: %{eval} --problem %S/Inputs/add-f32-problem.mlir --candidate %S/Inputs/add-threaded-rows.mlir | FileCheck %s --check-prefix=OK

// Expected: wrong. Each row adds the previous row's last sum minus its
// true value: zero only when the previous shard has finished first.
// RUN: not %{eval} --problem %S/Inputs/add-f32-problem.mlir --candidate %S/Inputs/add-threaded-rows-read-previous.mlir | FileCheck %s --check-prefix=WRONG

// OK:    status: ok
// WRONG:      status: wrong
// WRONG-NEXT: message: argument #2 differs

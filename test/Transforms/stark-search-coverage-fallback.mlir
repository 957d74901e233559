// The coverage pass does not leave an op upstream because one pick
// failed: a pick that fails its evaluation is followed by the expert's
// next pick (the first of a family not tried yet, else the next point of
// the same family; for this matmul on the host there is one family), once:
// two picks per problem at most. The remark, the progress and the report
// name the failed pick. The failures are planted: a stand-in worker
// (Inputs/crashing-worker.py) dies of SIGSEGV on its first
// STARK_TEST_CRASHES evaluations, as a kernel that faults takes its worker
// down, and passes the others to stark-eval. The budget (total-seconds=3)
// pays for no search, so the one problem is covered.
//
// RUN: cp %S/Inputs/crashing-worker.py %t.worker && chmod +x %t.worker
// DEFINE: %{search} = stark-opt %s --stark-hot-ops="profile=host top-k=0" --stark-outline --stark-search="target=cpu budget=1 trials=1 timing-trials=1 total-seconds=3 summary=1 report=%t.json" --mlir-print-op-on-diagnostic=false
// DEFINE: %{worker} = env STARK_EVAL_WORKER=%t.worker STARK_TEST_REAL_WORKER=%stark_tools_dir/stark-eval

// The first pick crashes; the next is judged, and kept where it verified
// and ran faster than upstream (which depends on the host's timing).
// RUN: rm -f %t.count && %{worker} STARK_TEST_CRASH_COUNT=%t.count STARK_TEST_CRASHES=1 %{search} -o %t.mlir 2> %t.log
// RUN: FileCheck %s --check-prefix=ONE < %t.log
// RUN: %python %S/Inputs/check-coverage-report.py %t.json | FileCheck %s --check-prefix=REPORT
// RUN: %python -c "import json,sys; p=json.load(open(sys.argv[1]))['problems'][0]; f=p['first_pick']; print('pick', f['id'], f['strategy']); [print('before', b['strategy'], b['status'], b['failure']) for b in f['failed_before']]; [print('node', n['id'], n['strategy'], n['status']) for n in p['nodes']]; print('candidates', p['candidates'])" %t.json | FileCheck %s --check-prefix=ONEJSON
//
// ONE: stark-search: [1/1] linalg.matmul 96x80xf32,80x112xf32->96x112xf32: first pick cpu-tile-vectorize failed (crash); trying cpu-tile-vectorize [[PARAMS:.+]]{{$}}
// ONE-NEXT: stark-search: [1/1] linalg.matmul 96x80xf32,80x112xf32->96x112xf32: {{first pick|upstream}}: cpu-tile-vectorize failed (crash); {{[0-9.]+x faster than upstream|first pick slower than upstream}}
// ONE: remark: stark-search: {{first pick|upstream}}: its share of the budget left pays for no search ({{.*}}); cpu-tile-vectorize failed (crash); {{[0-9.]+x faster than upstream .*: cpu-tile-vectorize|first pick slower than upstream: }}
// REPORT: #{{[0-9]+}} stark_problem_0 linalg.matmul: {{first pick|upstream}}, consistent
// ONEJSON: pick 2 cpu-tile-vectorize
// ONEJSON-NEXT: before cpu-tile-vectorize crash crash: the worker died: Segmentation fault
// ONEJSON-NEXT: node 0 baseline ok
// ONEJSON-NEXT: node 1 cpu-tile-vectorize crash
// ONEJSON-NEXT: node 2 cpu-tile-vectorize {{ok|slower}}
// ONEJSON-NEXT: candidates 2

// Both picks crash: the second failure ends the coverage of the problem,
// which stays upstream, saying why; no third pick is tried.
// RUN: rm -f %t.count && %{worker} STARK_TEST_CRASH_COUNT=%t.count STARK_TEST_CRASHES=5 %{search} -o %t.all.mlir 2> %t.all.log
// RUN: FileCheck %s --check-prefix=ALL < %t.all.log
// RUN: FileCheck %s --check-prefix=IR < %t.all.mlir
// RUN: %python %S/Inputs/check-coverage-report.py %t.json | FileCheck %s --check-prefix=UPSTREAM
// RUN: FileCheck %s --check-prefix=COUNT < %t.count
//
// ALL: stark-search: [1/1] linalg.matmul {{.*}}: first pick cpu-tile-vectorize failed (crash); trying cpu-tile-vectorize
// ALL-NEXT: stark-search: [1/1] linalg.matmul {{.*}}: upstream: cpu-tile-vectorize failed (crash); first pick failed: crash: the worker died: Segmentation fault
// ALL-NOT: trying
// ALL: remark: stark-search: upstream: its share of the budget left pays for no search ({{.*}}); cpu-tile-vectorize failed (crash); first pick failed: crash
// ALL: model summary: 1 problem(s) in {{[0-9.]+}} s: 0 searched, 0 first pick, 1 upstream
// IR: linalg.matmul
// IR-NOT: stark_kernel
// UPSTREAM: #{{[0-9]+}} stark_problem_0 linalg.matmul: upstream, consistent
// COUNT: {{^2$}}

// An evaluation that cannot run at all (status error: here no worker)
// would fail the same way for any pick: no second pick is tried.
// RUN: env STARK_EVAL_WORKER=%t.no-such-worker %{search} -o %t.error.mlir 2> %t.error.log
// RUN: FileCheck %s --check-prefix=ERROR < %t.error.log
//
// ERROR-NOT: trying
// ERROR: stark-search: [1/1] linalg.matmul {{.*}}: upstream: first pick failed: error: cannot start the worker '{{.*}}no-such-worker'
// ERROR-NOT: trying

func.func @matmul(%a: tensor<96x80xf32>, %b: tensor<80x112xf32>, %c: tensor<96x112xf32>) -> tensor<96x112xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<96x80xf32>, tensor<80x112xf32>) outs(%c : tensor<96x112xf32>) -> tensor<96x112xf32>
  return %0 : tensor<96x112xf32>
}

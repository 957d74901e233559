// Correct alternative lowerings verify: other loop orders, tiling with
// remainder loops, a different summation order, vectors. Inputs/ holds the
// problems and candidates; every run is isolated in a worker process.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush

// The trial count is asserted: a noisy timing must not add extra trials.
// RUN: %{eval} --suspicious-speedup 1e9 --problem %S/Inputs/matmul-problem.mlir --candidate %S/Inputs/matmul-ikj.mlir | FileCheck %s --check-prefix=IKJ
// IKJ:      status: ok
// IKJ-NEXT: message: verified on 6 trials; {{[0-9.]+}}x the baseline
// IKJ-NEXT: target: cpu
// IKJ-NEXT: worst element: argument #2 [{{[0-9]+}}, {{[0-9]+}}] (flat {{[0-9]+}}): got {{.*}}, expected {{.*}}, abs error {{.*}}, rel error {{.*}}, allowed {{.*}} ({{uniform|normal|large|tiny|negative}}, seed {{[0-9]+}})
// IKJ-NEXT: tolerance: f32 atol 3.15e-05, rtol 3.15e-05 (reduction length 17)
// IKJ-NEXT: correctness: 6 trials (uniform, normal, large, tiny, negative, special), high-precision reference: yes
// IKJ-NEXT: baseline:  median {{[0-9.]+ [num]?s}} (min {{.*}}, max {{.*}}, IQR {{.*}} = {{[0-9.]+}}% of the median, 2 trials)
// IKJ-NEXT: candidate: median {{[0-9.]+ [num]?s}} (min {{.*}}, max {{.*}}, IQR {{.*}} = {{[0-9.]+}}% of the median, 2 trials)
// IKJ-NEXT: speedup: {{[0-9.]+}}x
// IKJ-NEXT: flags: none
// Where the time went: the judge's phases, and inside them the steps the
// runner process reports.
// IKJ:      judge's time: parsing the problem and the candidate {{[0-9.]+}} s; compiling the candidate {{[0-9.]+}} s;{{.*}} timing baseline and candidate {{[0-9.]+}} s;{{.*}} in all {{[0-9.]+}} s
// IKJ-NEXT: runner's time (inside the judge's): starting the process {{[0-9.]+}} s; parsing the sources {{[0-9.]+}} s; creating the target {{[0-9.]+}} s; compiling the candidate {{[0-9.]+}} s; allocating the arguments {{[0-9.]+}} s; making the arguments {{[0-9.]+}} s; uploading the arguments {{[0-9.]+}} s; running the candidate {{[0-9.]+}} s; reading back and comparing {{[0-9.]+}} s; making the timing sets {{[0-9.]+}} s; staging the timing sets {{[0-9.]+}} s; warm-up and timed rounds {{[0-9.]+}} s; back-to-back runs {{[0-9.]+}} s;

// RUN: %{eval} --problem %S/Inputs/matmul-problem.mlir --candidate %S/Inputs/matmul-ijk.mlir | FileCheck %s --check-prefix=OK
// RUN: %{eval} --problem %S/Inputs/matmul-problem.mlir --candidate %S/Inputs/matmul-ksplit.mlir | FileCheck %s --check-prefix=OK
// RUN: %{eval} --problem %S/Inputs/rowsum-problem.mlir --candidate %S/Inputs/rowsum-tiled4.mlir | FileCheck %s --check-prefix=OK
// RUN: %{eval} --problem %S/Inputs/add-problem.mlir --candidate %S/Inputs/add-vector.mlir | FileCheck %s --check-prefix=OK
// RUN: %{eval} --problem %S/Inputs/matmul-problem.mlir --candidate %S/Inputs/matmul-tile-copy.mlir | FileCheck %s --check-prefix=OK
// OK: status: ok

// The problem against itself, with more seeds and the cache flush on.
// RUN: stark-eval --trials 2 --max-trials 2 --warmup 1 --correctness-trials 7 --suspicious-speedup 1e9 --seed 99 --problem %S/Inputs/rowsum-problem.mlir --candidate %S/Inputs/rowsum-problem.mlir | FileCheck %s --check-prefix=SELF
// SELF:      status: ok
// SELF:      tolerance: f32 atol 4.38e-05, rtol 4.38e-05 (reduction length 33)
// SELF-NEXT: correctness: 8 trials (uniform, normal, large, tiny, negative, uniform, normal, special)

// A speedup above --suspicious-speedup triggers the extra trials.
// RUN: %{eval} --suspicious-speedup 0 --extra-trials 3 --problem %S/Inputs/matmul-problem.mlir --candidate %S/Inputs/matmul-ikj.mlir | FileCheck %s --check-prefix=SUSPICIOUS
// SUSPICIOUS: status: ok
// SUSPICIOUS: correctness: 9 trials (uniform, normal, large, tiny, negative, special, uniform, normal, large)
// SUSPICIOUS: flags: speedup_above_threshold, extra_trials_passed

// Verification only.
// RUN: %{eval} --no-timing --problem %S/Inputs/matmul-problem.mlir --candidate %S/Inputs/matmul-ikj.mlir | FileCheck %s --check-prefix=NOTIME
// NOTIME:      status: ok
// NOTIME-NEXT: message: verified on 6 trials{{$}}
// NOTIME-NOT:  speedup

// JSON output.
// RUN: %{eval} --json --suspicious-speedup 1e9 --seed 7 --problem %S/Inputs/matmul-problem.mlir --candidate %S/Inputs/matmul-ikj.mlir | FileCheck %s --check-prefix=JSON
// JSON:      "correctness": {
// JSON-NEXT:   "candidate_runs": 12,
// JSON-NEXT:   "distributions": [
// JSON-NEXT:     "uniform",
// JSON:        "high_precision_reference": true,
// JSON-NEXT:   "seeds": [
// JSON:        "trials": 6
// JSON:      "flags": [],
// JSON:      "message": "verified on 6 trials;
// JSON:      "mismatches": 0,
// JSON:      "status": "ok",
// JSON-NEXT: "target": "cpu",
// JSON-NEXT: "timing": {
// JSON-NEXT:   "baseline": {
// JSON:          "median_s":
// JSON:          "relative_iqr":
// JSON:          "trials": 2
// JSON:        "speedup":
// JSON:      "tolerance": {
// JSON-NEXT:   "atol": 3.1456{{[0-9]+}}e-05,
// JSON-NEXT:   "element_type": "f32",
// JSON-NEXT:   "reduction_length": 17,
// JSON:      "worst": {
// JSON:        "abs_error":
// JSON:        "index": [
// JSON:        "passed": true,
// JSON-NEXT:   "reference": "baseline",

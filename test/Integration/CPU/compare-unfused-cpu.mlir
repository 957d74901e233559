// compare-unfused on the host, end to end: each fused chain (a row sum and
// the division by it; a swish and a bias add) is also outlined op by op,
// stark-search searches all six problems and keeps the chain's kernel only
// where it is faster than its ops' winners (or baselines) together; the
// report says which, with both times. Then the chains' times are set by hand
// (set-fused-time.py) so that each decision is known: at 1e9 us every chain
// is unfused and its ops are substituted one by one; at 1e-3 us every chain
// stays fused; at 1.02 times its ops' time it stays fused unless
// min-speedup is 1. stark-eval checks each resulting program against the
// original.
//
// RUN: stark-opt %s --mlir-print-op-on-diagnostic=false --stark-hot-ops=top-k=0 --stark-outline=compare-unfused=1 --stark-search="target=cpu budget=2 trials=1 timing-trials=1 progress=0 min-speedup=1 report=%t.json" -o %t.searched.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=SEARCH < %t.remarks
// RUN: %python %S/Inputs/check-unfused-report.py %t.json 1.0 | FileCheck %s --check-prefix=REPORT
//
// RUN: %python %S/Inputs/set-fused-time.py %t.searched.mlir %t.slow.mlir 1e9
// RUN: stark-opt %t.slow.mlir --mlir-print-op-on-diagnostic=false --stark-search="target=cpu progress=0" --stark-substitute -o %t.unfused.mlir 2> %t.slow.remarks
// RUN: FileCheck %s --check-prefix=SLOW < %t.slow.remarks
// RUN: stark-opt %t.slow.mlir --stark-search="target=cpu progress=0" -o - 2>/dev/null | FileCheck %s --check-prefix=RETAG
// RUN: %python %S/Inputs/set-fused-time.py %t.searched.mlir %t.fast.mlir 1e-3
// RUN: stark-opt %t.fast.mlir --mlir-print-op-on-diagnostic=false --stark-search="target=cpu progress=0" --stark-substitute -o %t.fused.mlir 2> %t.fast.remarks
// RUN: FileCheck %s --check-prefix=FAST < %t.fast.remarks
// min-speedup=0 judges candidates by correctness only; between a chain and
// its ops alone, both verified, the faster is kept.
// RUN: stark-opt %t.fast.mlir --mlir-print-op-on-diagnostic=false --stark-search="target=cpu progress=0 min-speedup=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAST-ZERO
// Within the search's min-speedup, a chain stays fused: at 1.02 times its
// ops' time it is unfused only with min-speedup=1.
// RUN: %python %S/Inputs/set-fused-time.py %t.searched.mlir %t.close.mlir 1.02x
// RUN: stark-opt %t.close.mlir --mlir-print-op-on-diagnostic=false --stark-search="target=cpu progress=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLOSE
// RUN: stark-opt %t.close.mlir --mlir-print-op-on-diagnostic=false --stark-search="target=cpu progress=0 min-speedup=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLOSE-ANY
//
// DEFINE: %{eval} = stark-eval --correctness-trials 3 --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --no-f64-reference --problem %s
// RUN: %{eval} --candidate %t.unfused.mlir --entry row_div | FileCheck %s
// RUN: %{eval} --candidate %t.unfused.mlir --entry swish_bias | FileCheck %s
// RUN: %{eval} --candidate %t.fused.mlir --entry row_div | FileCheck %s
// RUN: %{eval} --candidate %t.fused.mlir --entry swish_bias | FileCheck %s

// Each op of both chains is searched alone too, and every chain decided.
// SEARCH-COUNT-4: remark: alone as @stark_problem_{{[0-9]+}}: stark-search:
// SEARCH-DAG: stark-search: {{(un)?}}fused: @[[ROWS:stark_problem_[0-9]+]] ({{[0-9.]+}} us) is {{(not )?}}1.00x slower than its ops alone: @{{stark_problem_[0-9]+}} ({{[0-9.]+}} us) + @{{stark_problem_[0-9]+}} ({{[0-9.]+}} us) = {{[0-9.]+}} us
// SEARCH-DAG: stark-search: {{(un)?}}fused: @[[SWISH:stark_problem_[0-9]+]] ({{[0-9.]+}} us) is {{(not )?}}1.00x slower than its ops alone: @{{stark_problem_[0-9]+}} ({{[0-9.]+}} us) + @{{stark_problem_[0-9]+}} ({{[0-9.]+}} us) = {{[0-9.]+}} us

// The report's choice follows its times.
// REPORT: fused(linalg.generic,linalg.generic) 64x512xf32->64x512xf32: consistent
// REPORT: fused(linalg.generic,linalg.generic) 128x256xf32,256xf32->128x256xf32: consistent

// Unfused, each op names its own problem, and the row sum's problem takes
// the fill it owns.
// RETAG-LABEL: func.func @row_div
// RETAG: linalg.fill {{.*}}stark.problem = @[[$SUM:stark_problem_[0-9]+]]}
// RETAG: linalg.generic {{.*}}stark.problem = @[[$SUM]], stark.unfused_problem = @[[$SUM]]}
// RETAG: linalg.generic {{.*}}stark.problem = @[[DIV:stark_problem_[0-9]+]], stark.unfused_problem = @[[DIV]]}
// RETAG-LABEL: func.func @swish_bias
// RETAG: linalg.generic {{.*}}stark.problem = @[[SWISH:stark_problem_[0-9]+]], stark.unfused_problem = @[[SWISH]]}
// RETAG: linalg.generic {{.*}}stark.problem = @[[BIAS:stark_problem_[0-9]+]], stark.unfused_problem = @[[BIAS]]}
// RETAG: module @[[$SUM]] attributes {{{.*}}op = "linalg.fill + linalg.generic"

// SLOW-COUNT-4: stark-search: unfused: @stark_problem_{{[0-9]+}} (1000000000.00 us) is 1.05x slower than its ops alone
// SLOW-NOT: stark-search: fused:
// SLOW-NOT: left as is: the chain
// SLOW-NOT: error:

// FAST-COUNT-4: stark-search: fused: @stark_problem_{{[0-9]+}} (0.00 us) is not 1.05x slower than its ops alone
// FAST-NOT: stark-search: unfused
// FAST-NOT: left as is
// FAST-NOT: error:

// FAST-ZERO-COUNT-4: stark-search: fused: @stark_problem_{{[0-9]+}} (0.00 us) is not 1.00x slower than its ops alone
// FAST-ZERO-NOT: stark-search: unfused
// CLOSE-COUNT-4: stark-search: fused: @stark_problem_{{[0-9]+}} ({{[0-9.]+}} us) is not 1.05x slower than its ops alone
// CLOSE-NOT: stark-search: unfused
// CLOSE-ANY-COUNT-4: stark-search: unfused: @stark_problem_{{[0-9]+}} ({{[0-9.]+}} us) is 1.00x slower than its ops alone
// CLOSE-ANY-NOT: stark-search: fused

// CHECK: status: ok

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>

func.func @row_div(%x: tensor<64x512xf32>) -> tensor<64x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x512xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %o = tensor.empty() : tensor<64x512xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x512xf32>, tensor<64xf32>) outs(%o : tensor<64x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<64x512xf32>
  return %y : tensor<64x512xf32>
}

func.func @swish_bias(%x: tensor<128x256xf32>, %b: tensor<256xf32>) -> tensor<128x256xf32> {
  %o = tensor.empty() : tensor<128x256xf32>
  %one = arith.constant 1.0 : f32
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<128x256xf32>) outs(%o : tensor<128x256xf32>) {
  ^bb0(%a: f32, %c: f32):
    %n = arith.negf %a : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %a, %d : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>
  %o2 = tensor.empty() : tensor<128x256xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %b : tensor<128x256xf32>, tensor<256xf32>) outs(%o2 : tensor<128x256xf32>) {
  ^bb0(%a: f32, %c: f32, %d: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>
  return %y : tensor<128x256xf32>
}

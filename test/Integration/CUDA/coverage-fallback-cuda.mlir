// The coverage pass on cuda: when the first pick of a problem fails, the
// next pick is another family's. Eight rows times a linear layer's weight
// (B as N x K) take gemm_skinny first; the stand-in worker
// (../../Transforms/Inputs/crashing-worker.py) crashes on the first
// evaluation, as a faulting kernel would, and passes the next to stark-eval,
// so the second pick, of another family, is judged and kept where it
// verified and beat upstream. The budget (total-seconds=4) pays for no
// search.
//
// RUN: cp %S/../../Transforms/Inputs/crashing-worker.py %t.worker && chmod +x %t.worker
// RUN: rm -f %t.count && env STARK_EVAL_WORKER=%t.worker STARK_TEST_REAL_WORKER=%stark_tools_dir/stark-eval STARK_TEST_CRASH_COUNT=%t.count STARK_TEST_CRASHES=1 stark-opt %s --stark-hot-ops="top-k=0" --stark-outline --stark-search="target=cuda budget=1 trials=1 timing-trials=1 total-seconds=4 report=%t.json" --mlir-print-op-on-diagnostic=false -o %t.mlir 2> %t.log
// RUN: FileCheck %s < %t.log
// RUN: %python %S/../../Transforms/Inputs/check-coverage-report.py %t.json | FileCheck %s --check-prefix=REPORT
//
// CHECK: stark-search: [1/1] linalg.fill + linalg.matmul {{.*}}: first pick gemm_skinny failed (crash); trying {{(reduce_row|gemm_3xtf32|gemm_wgmma_3xtf32|gemm_f32|gemm) }}
// CHECK-NEXT: stark-search: [1/1] linalg.fill + linalg.matmul {{.*}}: {{first pick|upstream}}: gemm_skinny failed (crash); {{[0-9.]+x faster than upstream|first pick slower than upstream|first pick failed}}
// REPORT: stark_problem_0 linalg.fill + linalg.matmul: {{first pick|upstream}}, consistent

func.func @linear(%a: tensor<8x2052xf32>, %w: tensor<260x2052xf32>) -> tensor<8x260xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x260xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<8x260xf32>) -> tensor<8x260xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %w : tensor<8x2052xf32>, tensor<260x2052xf32>) outs(%c : tensor<8x260xf32>) -> tensor<8x260xf32>
  return %y : tensor<8x260xf32>
}

// End to end on the host for operand prologues: relu(x * scale) computing A
// of a matmul, and an f16 weight widened and scaled per column computing B
// (with a bias after the matmul), are outlined with their matmul as one
// problem each (stark-outline fuses epilogues and prologues by default; the
// cpu pipeline leaves both off); the host's schedules build candidates for
// the fused problems, the evaluator verifies each against the upstream
// lowering of the whole group, winners (where a candidate is faster) are
// substituted, and stark-eval checks each function of the optimised program
// against the original. stark-substitute-prologue.mlir substitutes such a
// problem's winner whatever the timing.
//
// RUN: stark-opt %s --mlir-print-op-on-diagnostic=false --stark-outline=all --stark-search="target=cpu budget=3 trials=1 timing-trials=1 progress=0 min-speedup=1 report=%t.json" --stark-substitute -o %t.opt.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: %python -c "import json,sys; [print(p['op'], n['strategy'], n['status']) for p in json.load(open(sys.argv[1]))['problems'] for n in p['nodes'] if n['id'] > 0]" %t.json | FileCheck %s --check-prefix=NODES
// DEFINE: %{eval} = stark-eval --correctness-trials 3 --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --no-f64-reference --problem %s --candidate %t.opt.mlir
// RUN: %{eval} --entry scale_relu_matmul | FileCheck %s
// RUN: %{eval} --entry dequant_matmul_bias | FileCheck %s

// REMARKS-DAG: outlined with 1 producer/consumer op(s) as @stark_problem_{{[0-9]}} (fused(linalg.generic,linalg.matmul) 64x48xf32,48xf32,48x32xf32->64x32xf32
// REMARKS-DAG: outlined with 2 producer/consumer op(s) as @stark_problem_{{[0-9]}} (fused(linalg.generic,linalg.matmul,linalg.generic) 72x130xf16,130xf32,40x72xf32,130xf32->40x130xf32
// REMARKS-NOT: error

// Every candidate of both problems was built and passed (verified, or
// `slower`: screened out after its first trial and timed runs).
// NODES-DAG: fused(linalg.generic,linalg.matmul) cpu-fused-rows {{ok|slower}}
// NODES-DAG: fused(linalg.generic,linalg.matmul,linalg.generic) cpu-fused-rows {{ok|slower}}
// NODES-NOT: failed
// NODES-NOT: error

// CHECK: status: ok

func.func @scale_relu_matmul(%x: tensor<64x48xf32>, %s: tensor<48xf32>, %w: tensor<48x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x48xf32>, tensor<48xf32>) outs(%e : tensor<64x48xf32>) {
  ^bb0(%v: f32, %k: f32, %o: f32):
    %p = arith.mulf %v, %k : f32
    %r = arith.maximumf %p, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x48xf32>
  %c0 = tensor.empty() : tensor<64x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%c0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %y = linalg.matmul ins(%a, %w : tensor<64x48xf32>, tensor<48x32xf32>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}

func.func @dequant_matmul_bias(%x: tensor<40x72xf32>, %w: tensor<72x130xf16>, %s: tensor<130xf32>, %bias: tensor<130xf32>) -> tensor<40x130xf32> {
  %zero = arith.constant 0.0 : f32
  %eb = tensor.empty() : tensor<72x130xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %s : tensor<72x130xf16>, tensor<130xf32>) outs(%eb : tensor<72x130xf32>) {
  ^bb0(%v: f16, %k: f32, %o: f32):
    %f = arith.extf %v : f16 to f32
    %p = arith.mulf %f, %k : f32
    linalg.yield %p : f32
  } -> tensor<72x130xf32>
  %e = tensor.empty() : tensor<40x130xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<40x130xf32>) -> tensor<40x130xf32>
  %mm = linalg.matmul ins(%x, %b : tensor<40x72xf32>, tensor<72x130xf32>) outs(%c : tensor<40x130xf32>) -> tensor<40x130xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<40x130xf32>, tensor<130xf32>) outs(%e : tensor<40x130xf32>) {
  ^bb0(%v: f32, %t: f32, %o: f32):
    %z = arith.addf %v, %t : f32
    linalg.yield %z : f32
  } -> tensor<40x130xf32>
  return %y : tensor<40x130xf32>
}

// End to end on the host for fused chains: a layer norm + GELU, a
// log-softmax and a swish + scale + bias chain (each several linalg ops), an
// argmax over a middle dimension and an argmin of integer rows (each one op
// with the fills of its value and position) are outlined as one problem
// each; the host's fused schedules build candidates
// for them (cpu-fused-rows for the chains with reductions, the element-wise
// chain fused into one op, `fused_group`), the evaluator verifies each, and
// stark-eval checks every function of the optimised program against the
// original on several input distributions.
//
// RUN: stark-opt %s --mlir-print-op-on-diagnostic=false --stark-pipeline="target=cpu top-k=0 budget=2 trials=1 timing-trials=1 progress=0 min-speedup=1 report=%t.json" -o %t.opt.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: %python -c "import json,sys; [print(p['op'], p['shapes'], n['strategy'], n['params'].get('fused_group', '0'), n['status']) for p in json.load(open(sys.argv[1]))['problems'] for n in p['nodes'] if n['id'] > 0]" %t.json | FileCheck %s --check-prefix=NODES
// DEFINE: %{eval} = stark-eval --correctness-trials 3 --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --no-f64-reference --problem %s --candidate %t.opt.mlir
// RUN: %{eval} --entry layernorm_gelu | FileCheck %s
// RUN: %{eval} --entry log_softmax | FileCheck %s
// RUN: %{eval} --entry swish_scale_bias | FileCheck %s
// RUN: %{eval} --entry argmax_middle | FileCheck %s
// RUN: %{eval} --entry argmin_rows | FileCheck %s

// REMARKS-DAG: outlined with 3 producer/consumer op(s) as @stark_problem_{{[0-9]}} (fused(linalg.generic,linalg.generic,linalg.generic,linalg.generic) 64x256xf32
// REMARKS-DAG: outlined with 2 producer/consumer op(s) as @stark_problem_{{[0-9]}} (fused(linalg.generic,linalg.generic,linalg.generic) 64x512xf32
// REMARKS-DAG: outlined with 2 producer/consumer op(s) as @stark_problem_{{[0-9]}} (fused(linalg.generic,linalg.generic,linalg.generic) 128x256xf32
// REMARKS-DAG: outlined with the fills of its outputs as @stark_problem_{{[0-9]}} (fused(linalg.generic) 4x64x33xf32->4x33xi64
// REMARKS-DAG: outlined with the fills of its outputs as @stark_problem_{{[0-9]}} (fused(linalg.generic) 32x300xi32->32xi32

// Every candidate of the five problems was built and passed (verified, or
// `slower`: screened out after its first trial and timed runs; the
// argmin's integer rows hold many equal values: the first one's position
// is the answer).
// NODES-DAG: fused(linalg.generic,linalg.generic,linalg.generic,linalg.generic) 64x256xf32,256xf32,256xf32->64x256xf32 cpu-fused-rows 0 {{ok|slower}}
// NODES-DAG: fused(linalg.generic,linalg.generic,linalg.generic) 64x512xf32->64x512xf32 cpu-fused-rows 0 {{ok|slower}}
// NODES-DAG: fused(linalg.generic,linalg.generic,linalg.generic) 128x256xf32,256xf32->128x256xf32 cpu-tile-vectorize 1 {{ok|slower}}
// NODES-DAG: fused(linalg.generic) 4x64x33xf32->4x33xi64 cpu-fused-rows 0 {{ok|slower}}
// NODES-DAG: fused(linalg.generic) 32x300xi32->32xi32 cpu-fused-rows 0 {{ok|slower}}
// NODES-NOT: failed
// NODES-NOT: error

// CHECK: status: ok

func.func @layernorm_gelu(%x: tensor<64x256xf32>, %gamma: tensor<256xf32>, %beta: tensor<256xf32>) -> tensor<64x256xf32> {
  %t1 = arith.constant 0.0 : f32
  %t2 = tensor.empty() : tensor<64xf32>
  %t3 = linalg.fill ins(%t1 : f32) outs(%t2 : tensor<64xf32>) -> tensor<64xf32>
  %t4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x256xf32>) outs(%t3 : tensor<64xf32>) {
  ^bb0(%a0: f32, %o0: f32):
    %r = arith.addf %a0, %o0 : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %t5 = arith.constant 0.0 : f32
  %t6 = tensor.empty() : tensor<64xf32>
  %t7 = linalg.fill ins(%t5 : f32) outs(%t6 : tensor<64xf32>) -> tensor<64xf32>
  %t8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %t4 : tensor<64x256xf32>, tensor<64xf32>) outs(%t7 : tensor<64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o0: f32):
    %n = arith.constant 256.0 : f32
    %mu = arith.divf %a1, %n : f32
    %d = arith.subf %a0, %mu : f32
    %q = arith.mulf %d, %d : f32
    %r = arith.addf %q, %o0 : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %t9 = tensor.empty() : tensor<64x256xf32>
  %t10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %t4, %t8, %gamma, %beta : tensor<64x256xf32>, tensor<64xf32>, tensor<64xf32>, tensor<256xf32>, tensor<256xf32>) outs(%t9 : tensor<64x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %o0: f32):
    %n = arith.constant 256.0 : f32
    %eps = arith.constant 1.000000e-05 : f32
    %mu = arith.divf %a1, %n : f32
    %var = arith.divf %a2, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.subf %a0, %mu : f32
    %y = arith.mulf %d, %rs : f32
    %yg = arith.mulf %y, %a3 : f32
    %r = arith.addf %yg, %a4 : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>
  %t11 = tensor.empty() : tensor<64x256xf32>
  %t12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t10 : tensor<64x256xf32>) outs(%t11 : tensor<64x256xf32>) {
  ^bb0(%a0: f32, %o0: f32):
    %ghalf = arith.constant 0.5 : f32
    %gone = arith.constant 1.0 : f32
    %grs2 = arith.constant 0.707106769 : f32
    %ga = arith.mulf %a0, %grs2 : f32
    %ge = math.erf %ga : f32
    %gb = arith.addf %gone, %ge : f32
    %gc = arith.mulf %a0, %ghalf : f32
    %r = arith.mulf %gc, %gb : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>
  return %t12 : tensor<64x256xf32>
}

func.func @log_softmax(%x: tensor<64x512xf32>) -> tensor<64x512xf32> {
  %t1 = arith.constant 0xFF800000 : f32
  %t2 = tensor.empty() : tensor<64xf32>
  %t3 = linalg.fill ins(%t1 : f32) outs(%t2 : tensor<64xf32>) -> tensor<64xf32>
  %t4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x512xf32>) outs(%t3 : tensor<64xf32>) {
  ^bb0(%a0: f32, %o0: f32):
    %r = arith.maximumf %a0, %o0 : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %t5 = arith.constant 0.0 : f32
  %t6 = tensor.empty() : tensor<64xf32>
  %t7 = linalg.fill ins(%t5 : f32) outs(%t6 : tensor<64xf32>) -> tensor<64xf32>
  %t8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %t4 : tensor<64x512xf32>, tensor<64xf32>) outs(%t7 : tensor<64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o0: f32):
    %d = arith.subf %a0, %a1 : f32
    %e = math.exp %d : f32
    %r = arith.addf %e, %o0 : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %t9 = tensor.empty() : tensor<64x512xf32>
  %t10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %t4, %t8 : tensor<64x512xf32>, tensor<64xf32>, tensor<64xf32>) outs(%t9 : tensor<64x512xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o0: f32):
    %l = math.log %a2 : f32
    %d = arith.subf %a0, %a1 : f32
    %r = arith.subf %d, %l : f32
    linalg.yield %r : f32
  } -> tensor<64x512xf32>
  return %t10 : tensor<64x512xf32>
}

func.func @swish_scale_bias(%x: tensor<128x256xf32>, %b: tensor<256xf32>) -> tensor<128x256xf32> {
  %t1 = tensor.empty() : tensor<128x256xf32>
  %t2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<128x256xf32>) outs(%t1 : tensor<128x256xf32>) {
  ^bb0(%a0: f32, %o0: f32):
    %qsone = arith.constant 1.0 : f32
    %qsn = arith.negf %a0 : f32
    %qse = math.exp %qsn : f32
    %qsd = arith.addf %qsone, %qse : f32
    %qsig = arith.divf %qsone, %qsd : f32
    %r = arith.mulf %a0, %qsig : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>
  %t3 = tensor.empty() : tensor<128x256xf32>
  %t4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t2 : tensor<128x256xf32>) outs(%t3 : tensor<128x256xf32>) {
  ^bb0(%a0: f32, %o0: f32):
    %s = arith.constant 1.702 : f32
    %r = arith.mulf %a0, %s : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>
  %t5 = tensor.empty() : tensor<128x256xf32>
  %t6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t4, %b : tensor<128x256xf32>, tensor<256xf32>) outs(%t5 : tensor<128x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o0: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>
  return %t6 : tensor<128x256xf32>
}

func.func @argmax_middle(%x: tensor<4x64x33xf32>) -> tensor<4x33xi64> {
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<4x33xf32>
  %m = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<4x33xf32>) -> tensor<4x33xf32>
  %c0 = arith.constant 0 : i64
  %e1 = tensor.empty() : tensor<4x33xi64>
  %i = linalg.fill ins(%c0 : i64) outs(%e1 : tensor<4x33xi64>) -> tensor<4x33xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : tensor<4x64x33xf32>) outs(%m, %i : tensor<4x33xf32>, tensor<4x33xi64>) {
  ^bb0(%a: f32, %o: f32, %oi: i64):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i64
    %gt = arith.cmpf ogt, %a, %o : f32
    %v = arith.select %gt, %a, %o : f32
    %j = arith.select %gt, %ki, %oi : i64
    linalg.yield %v, %j : f32, i64
  } -> (tensor<4x33xf32>, tensor<4x33xi64>)
  return %r#1 : tensor<4x33xi64>
}

func.func @argmin_rows(%x: tensor<32x300xi32>) -> tensor<32xi32> {
  %big = arith.constant 2147483647 : i32
  %e0 = tensor.empty() : tensor<32xi32>
  %m = linalg.fill ins(%big : i32) outs(%e0 : tensor<32xi32>) -> tensor<32xi32>
  %c0 = arith.constant 0 : i32
  %e1 = tensor.empty() : tensor<32xi32>
  %i = linalg.fill ins(%c0 : i32) outs(%e1 : tensor<32xi32>) -> tensor<32xi32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<32x300xi32>) outs(%i, %m : tensor<32xi32>, tensor<32xi32>) {
  ^bb0(%a: i32, %oi: i32, %o: i32):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i32
    %gt = arith.cmpi sgt, %o, %a : i32
    %v = arith.select %gt, %a, %o : i32
    %j = arith.select %gt, %ki, %oi : i32
    linalg.yield %j, %v : i32, i32
  } -> (tensor<32xi32>, tensor<32xi32>)
  return %r#0 : tensor<32xi32>
}

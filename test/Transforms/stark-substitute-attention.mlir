// RUN: split-file %s %t
// RUN: stark-opt %t/tagged.mlir --stark-substitute 2>&1 | FileCheck %t/tagged.mlir
// RUN: stark-opt %t/tagged.mlir --stark-substitute -o %t/substituted.mlir 2>/dev/null
// RUN: stark-eval --correctness-trials 3 --trials 1 --max-trials 1 --warmup 0 --no-cache-flush --no-f64-reference --problem %t/original.mlir --candidate %t/substituted.mlir --entry attention_causal | FileCheck %s --check-prefix=EVAL

// An attention chain is one problem (--stark-outline, fuse-attention): its
// winner (here the problem's own ops, as the cpu target would run them)
// replaces the transpose of K, both contractions, the scale, the causal
// mask and the softmax by one call, found again from the ops' tags; the
// program computes what it did before (stark-eval runs both on the host).
// EVAL: status: ok

//--- original.mlir
func.func @attention_causal(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %s0 = tensor.empty() : tensor<2x8x8xf32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %kt0 = tensor.empty() : tensor<2x4x8xf32>
  %kt = linalg.transpose ins(%k : tensor<2x8x4xf32>) outs(%kt0 : tensor<2x4x8xf32>) permutation = [0, 2, 1]
  %s = linalg.generic {indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, d, j)>, affine_map<(b, i, j, d) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %kt : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%s1 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %t0 = tensor.empty() : tensor<2x8x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x8x8xf32>) outs(%t0 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.5 : f32
    %x = arith.mulf %a, %c : f32
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %up = arith.cmpi ugt, %j, %i : index
    %mv = arith.select %up, %ninf, %zero : f32
    %y = arith.addf %x, %mv : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  %m0 = tensor.empty() : tensor<2x8xf32>
  %m1 = linalg.fill ins(%ninf : f32) outs(%m0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%t : tensor<2x8x8xf32>) outs(%m1 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  %e0 = tensor.empty() : tensor<2x8x8xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t, %mx : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e0 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32):
    %d = arith.subf %a, %mm : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %z0 = tensor.empty() : tensor<2x8xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%z0 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<2x8x8xf32>) outs(%z1 : tensor<2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  %p0 = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %z : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%p0 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %zz: f32, %o: f32):
    %r = arith.divf %a, %zz : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x8x4xf32>
  %o1 = linalg.fill ins(%zero : f32) outs(%o0 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(b, i, e, j) -> (b, i, j)>, affine_map<(b, i, e, j) -> (b, j, e)>, affine_map<(b, i, e, j) -> (b, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%o1 : tensor<2x8x4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x8x4xf32>
  return %out : tensor<2x8x4xf32>
}

//--- tagged.mlir
// CHECK: remark: stark-substitute: replaced by @stark_kernel_9f45a6ac2da762d0 (loops, 2.00x, verified)
// CHECK-LABEL: func.func @attention_causal
// CHECK-NOT: linalg.
// CHECK: call @stark_kernel_9f45a6ac2da762d0(
// CHECK-NOT: linalg.
// CHECK: return
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @attention_causal(%arg0: tensor<2x8x4xf32>, %arg1: tensor<2x8x4xf32>, %arg2: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %0 = tensor.empty() : tensor<2x8x8xf32>
    %1 = linalg.fill {stark.problem = @stark_problem_0} ins(%cst : f32) outs(%0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %2 = tensor.empty() : tensor<2x4x8xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x8x4xf32>) outs(%2 : tensor<2x4x8xf32>) permutation = [0, 2, 1]  {stark.problem = @stark_problem_0}
    %3 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %transposed : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%1 : tensor<2x8x8xf32>) attrs =  {stark.problem = @stark_problem_0} {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %19 = arith.mulf %in, %in_1 : f32
      %20 = arith.addf %out, %19 : f32
      linalg.yield %20 : f32
    } -> tensor<2x8x8xf32>
    %4 = tensor.empty() : tensor<2x8x8xf32>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<2x8x8xf32>) outs(%4 : tensor<2x8x8xf32>) attrs =  {stark.problem = @stark_problem_0} {
    ^bb0(%in: f32, %out: f32):
      %cst_1 = arith.constant 5.000000e-01 : f32
      %19 = arith.mulf %in, %cst_1 : f32
      %20 = linalg.index 1 : index
      %21 = linalg.index 2 : index
      %22 = arith.cmpi ugt, %21, %20 : index
      %23 = arith.select %22, %cst_0, %cst : f32
      %24 = arith.addf %19, %23 : f32
      linalg.yield %24 : f32
    } -> tensor<2x8x8xf32>
    %6 = tensor.empty() : tensor<2x8xf32>
    %7 = linalg.fill {stark.problem = @stark_problem_0} ins(%cst_0 : f32) outs(%6 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %8 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%5 : tensor<2x8x8xf32>) outs(%7 : tensor<2x8xf32>) attrs =  {stark.problem = @stark_problem_0} {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.maximumf %in, %out : f32
      linalg.yield %19 : f32
    } -> tensor<2x8xf32>
    %9 = tensor.empty() : tensor<2x8x8xf32>
    %10 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5, %8 : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%9 : tensor<2x8x8xf32>) attrs =  {stark.problem = @stark_problem_0} {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %19 = arith.subf %in, %in_1 : f32
      %20 = math.exp %19 : f32
      linalg.yield %20 : f32
    } -> tensor<2x8x8xf32>
    %11 = tensor.empty() : tensor<2x8xf32>
    %12 = linalg.fill {stark.problem = @stark_problem_0} ins(%cst : f32) outs(%11 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %13 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%10 : tensor<2x8x8xf32>) outs(%12 : tensor<2x8xf32>) attrs =  {stark.problem = @stark_problem_0} {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.addf %in, %out : f32
      linalg.yield %19 : f32
    } -> tensor<2x8xf32>
    %14 = tensor.empty() : tensor<2x8x8xf32>
    %15 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%10, %13 : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%14 : tensor<2x8x8xf32>) attrs =  {stark.problem = @stark_problem_0} {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %19 = arith.divf %in, %in_1 : f32
      linalg.yield %19 : f32
    } -> tensor<2x8x8xf32>
    %16 = tensor.empty() : tensor<2x8x4xf32>
    %17 = linalg.fill {stark.problem = @stark_problem_0} ins(%cst : f32) outs(%16 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%15, %arg2 : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%17 : tensor<2x8x4xf32>) attrs =  {stark.problem = @stark_problem_0} {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %19 = arith.mulf %in, %in_1 : f32
      %20 = arith.addf %out, %19 : f32
      linalg.yield %20 : f32
    } -> tensor<2x8x4xf32>
    return %18 : tensor<2x8x4xf32>
  }
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 8, num_outputs = 1, op = "fused(linalg.transpose,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic)", shapes = "2x8x4xf32,2x8x4xf32,2x8x4xf32->2x8x4xf32", signature = "9f45a6ac2da762d020fa05432123381d">, stark.winner = #stark.winner<baseline_us = 4.0, candidate = 1, params = {}, speedup = 2.0, strategy = "loops", target = "cpu", winner_us = 2.0>} {
    func.func @kernel(%arg0: memref<2x8x4xf32>, %arg1: memref<2x8x4xf32>, %arg2: memref<2x8x4xf32>, %arg3: memref<2x8x4xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      %cst_0 = arith.constant 0xFF800000 : f32
      %alloc = memref.alloc() : memref<2x4x8xf32>
      linalg.transpose ins(%arg0 : memref<2x8x4xf32>) outs(%alloc : memref<2x4x8xf32>) permutation = [0, 2, 1] 
      %alloc_1 = memref.alloc() : memref<2x8x8xf32>
      linalg.fill ins(%cst : f32) outs(%alloc_1 : memref<2x8x8xf32>)
      linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg1, %alloc : memref<2x8x4xf32>, memref<2x4x8xf32>) outs(%alloc_1 : memref<2x8x8xf32>) {
      ^bb0(%in: f32, %in_7: f32, %out: f32):
        %0 = arith.mulf %in, %in_7 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
      %alloc_2 = memref.alloc() : memref<2x8x8xf32>
      linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_1 : memref<2x8x8xf32>) outs(%alloc_2 : memref<2x8x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %cst_7 = arith.constant 5.000000e-01 : f32
        %0 = arith.mulf %in, %cst_7 : f32
        %1 = linalg.index 1 : index
        %2 = linalg.index 2 : index
        %3 = arith.cmpi ugt, %2, %1 : index
        %4 = arith.select %3, %cst_0, %cst : f32
        %5 = arith.addf %0, %4 : f32
        linalg.yield %5 : f32
      }
      %alloc_3 = memref.alloc() : memref<2x8xf32>
      linalg.fill ins(%cst_0 : f32) outs(%alloc_3 : memref<2x8xf32>)
      linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_2 : memref<2x8x8xf32>) outs(%alloc_3 : memref<2x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %0 = arith.maximumf %in, %out : f32
        linalg.yield %0 : f32
      }
      %alloc_4 = memref.alloc() : memref<2x8x8xf32>
      linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_2, %alloc_3 : memref<2x8x8xf32>, memref<2x8xf32>) outs(%alloc_4 : memref<2x8x8xf32>) {
      ^bb0(%in: f32, %in_7: f32, %out: f32):
        %0 = arith.subf %in, %in_7 : f32
        %1 = math.exp %0 : f32
        linalg.yield %1 : f32
      }
      %alloc_5 = memref.alloc() : memref<2x8xf32>
      linalg.fill ins(%cst : f32) outs(%alloc_5 : memref<2x8xf32>)
      linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_4 : memref<2x8x8xf32>) outs(%alloc_5 : memref<2x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %0 = arith.addf %in, %out : f32
        linalg.yield %0 : f32
      }
      %alloc_6 = memref.alloc() : memref<2x8x8xf32>
      linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_4, %alloc_5 : memref<2x8x8xf32>, memref<2x8xf32>) outs(%alloc_6 : memref<2x8x8xf32>) {
      ^bb0(%in: f32, %in_7: f32, %out: f32):
        %0 = arith.divf %in, %in_7 : f32
        linalg.yield %0 : f32
      }
      linalg.fill ins(%cst : f32) outs(%arg3 : memref<2x8x4xf32>)
      linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_6, %arg2 : memref<2x8x8xf32>, memref<2x8x4xf32>) outs(%arg3 : memref<2x8x4xf32>) {
      ^bb0(%in: f32, %in_7: f32, %out: f32):
        %0 = arith.mulf %in, %in_7 : f32
        %1 = arith.addf %out, %0 : f32
        linalg.yield %1 : f32
      }
      memref.dealloc %alloc : memref<2x4x8xf32>
      memref.dealloc %alloc_1 : memref<2x8x8xf32>
      memref.dealloc %alloc_2 : memref<2x8x8xf32>
      memref.dealloc %alloc_3 : memref<2x8xf32>
      memref.dealloc %alloc_4 : memref<2x8x8xf32>
      memref.dealloc %alloc_5 : memref<2x8xf32>
      memref.dealloc %alloc_6 : memref<2x8x8xf32>
      return
    }
    module @winner {
      func.func @kernel(%arg0: memref<2x8x4xf32>, %arg1: memref<2x8x4xf32>, %arg2: memref<2x8x4xf32>, %arg3: memref<2x8x4xf32>) {
        %cst = arith.constant 0.000000e+00 : f32
        %cst_0 = arith.constant 0xFF800000 : f32
        %alloc = memref.alloc() : memref<2x4x8xf32>
        linalg.transpose ins(%arg0 : memref<2x8x4xf32>) outs(%alloc : memref<2x4x8xf32>) permutation = [0, 2, 1] 
        %alloc_1 = memref.alloc() : memref<2x8x8xf32>
        linalg.fill ins(%cst : f32) outs(%alloc_1 : memref<2x8x8xf32>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg1, %alloc : memref<2x8x4xf32>, memref<2x4x8xf32>) outs(%alloc_1 : memref<2x8x8xf32>) {
        ^bb0(%in: f32, %in_7: f32, %out: f32):
          %0 = arith.mulf %in, %in_7 : f32
          %1 = arith.addf %out, %0 : f32
          linalg.yield %1 : f32
        }
        %alloc_2 = memref.alloc() : memref<2x8x8xf32>
        linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_1 : memref<2x8x8xf32>) outs(%alloc_2 : memref<2x8x8xf32>) {
        ^bb0(%in: f32, %out: f32):
          %cst_7 = arith.constant 5.000000e-01 : f32
          %0 = arith.mulf %in, %cst_7 : f32
          %1 = linalg.index 1 : index
          %2 = linalg.index 2 : index
          %3 = arith.cmpi ugt, %2, %1 : index
          %4 = arith.select %3, %cst_0, %cst : f32
          %5 = arith.addf %0, %4 : f32
          linalg.yield %5 : f32
        }
        %alloc_3 = memref.alloc() : memref<2x8xf32>
        linalg.fill ins(%cst_0 : f32) outs(%alloc_3 : memref<2x8xf32>)
        linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_2 : memref<2x8x8xf32>) outs(%alloc_3 : memref<2x8xf32>) {
        ^bb0(%in: f32, %out: f32):
          %0 = arith.maximumf %in, %out : f32
          linalg.yield %0 : f32
        }
        %alloc_4 = memref.alloc() : memref<2x8x8xf32>
        linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_2, %alloc_3 : memref<2x8x8xf32>, memref<2x8xf32>) outs(%alloc_4 : memref<2x8x8xf32>) {
        ^bb0(%in: f32, %in_7: f32, %out: f32):
          %0 = arith.subf %in, %in_7 : f32
          %1 = math.exp %0 : f32
          linalg.yield %1 : f32
        }
        %alloc_5 = memref.alloc() : memref<2x8xf32>
        linalg.fill ins(%cst : f32) outs(%alloc_5 : memref<2x8xf32>)
        linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_4 : memref<2x8x8xf32>) outs(%alloc_5 : memref<2x8xf32>) {
        ^bb0(%in: f32, %out: f32):
          %0 = arith.addf %in, %out : f32
          linalg.yield %0 : f32
        }
        %alloc_6 = memref.alloc() : memref<2x8x8xf32>
        linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_4, %alloc_5 : memref<2x8x8xf32>, memref<2x8xf32>) outs(%alloc_6 : memref<2x8x8xf32>) {
        ^bb0(%in: f32, %in_7: f32, %out: f32):
          %0 = arith.divf %in, %in_7 : f32
          linalg.yield %0 : f32
        }
        linalg.fill ins(%cst : f32) outs(%arg3 : memref<2x8x4xf32>)
        linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_6, %arg2 : memref<2x8x8xf32>, memref<2x8x4xf32>) outs(%arg3 : memref<2x8x4xf32>) {
        ^bb0(%in: f32, %in_7: f32, %out: f32):
          %0 = arith.mulf %in, %in_7 : f32
          %1 = arith.addf %out, %0 : f32
          linalg.yield %1 : f32
        }
        memref.dealloc %alloc : memref<2x4x8xf32>
        memref.dealloc %alloc_1 : memref<2x8x8xf32>
        memref.dealloc %alloc_2 : memref<2x8x8xf32>
        memref.dealloc %alloc_3 : memref<2x8xf32>
        memref.dealloc %alloc_4 : memref<2x8x8xf32>
        memref.dealloc %alloc_5 : memref<2x8xf32>
        memref.dealloc %alloc_6 : memref<2x8x8xf32>
        return
      }
    }
  }
}


// --stark-outline fuses a chain only where the cost model estimates one
// kernel faster than one kernel per op on the hardware profile. On the H200,
// x / sum(x) over a whole 4096x4096 tensor would put the reduction into one
// block (the row of the fused kernel is the whole tensor): each op is its own
// problem. The same chain over rows (x / sum of its row) keeps 4096 blocks
// busy and saves the intermediate: one problem. On the host, and with
// cost-model=false, both chains are fused. With compare-unfused, each op of a
// fused chain is also outlined alone, and the chain's problem lists them.
//
// RUN: stark-opt %s --stark-outline="all=1 profile=h200" -verify-diagnostics -o /dev/null
// RUN: stark-opt %s --stark-outline="all=1 profile=h200 cost-model=false" 2>/dev/null | FileCheck %s --check-prefix=FUSED
// RUN: stark-opt %s --stark-outline="all=1 profile=host" --mlir-print-op-on-diagnostic=false 2> %t.host | FileCheck %s --check-prefix=FUSED
// RUN: FileCheck %s --check-prefix=HOST < %t.host
// RUN: stark-opt %s --stark-outline="all=1 profile=h200 compare-unfused=1" --mlir-print-op-on-diagnostic=false 2> %t.remarks | FileCheck %s --check-prefix=ALONE
// RUN: FileCheck %s --check-prefix=ALONE-REMARK < %t.remarks

// FUSED-LABEL: func.func @global
// FUSED: linalg.fill {{.*}}stark.problem = @[[GLOBAL:stark_problem_[0-9]+]]}
// FUSED: linalg.generic {{.*}}stark.problem = @[[GLOBAL]]}
// FUSED: linalg.generic {{.*}}stark.problem = @[[GLOBAL]]}
// FUSED: module @[[GLOBAL]] attributes {{{.*}}op = "fused(linalg.generic,linalg.generic)", shapes = "4096x4096xf32->4096x4096xf32"
// HOST-NOT: remark: not fused
// HOST-COUNT-2: outlined with 1 producer/consumer op(s) as @stark_problem_{{[0-9]}} (fused(linalg.generic,linalg.generic) {{.*}}; by the cost model on host, one kernel moves 134 MB instead of 201 MB
// HOST-NOT: remark: not fused

#id = affine_map<(i, j) -> (i, j)>
#all = affine_map<(i, j) -> ()>
#row = affine_map<(i, j) -> (i)>

// ALONE-LABEL: func.func @global
// ALONE: linalg.generic {{.*}}stark.problem = @[[SUM:stark_problem_[0-9]+]]}
// ALONE-NOT: stark.unfused_problem
// ALONE: linalg.generic {{.*}}stark.problem = @[[DIV:stark_problem_[0-9]+]]}
func.func @global(%x: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  // expected-remark @below {{not fused with its producers and consumers: by the cost model on h200, one kernel moves 134 MB instead of 201 MB, ~3.69 ms instead of ~45.94 us in 2 kernel(s)}}
  // expected-remark @below {{outlined with the fill of its output as @stark_problem_0 (linalg.fill + linalg.generic 4096x4096xf32->f32}}
  %s = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<4096x4096xf32>) outs(%f : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %o = tensor.empty() : tensor<4096x4096xf32>
  // expected-remark @below {{outlined as @stark_problem_1 (linalg.generic 4096x4096xf32,f32->4096x4096xf32}}
  %y = linalg.generic {indexing_maps = [#id, #all, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4096x4096xf32>, tensor<f32>) outs(%o : tensor<4096x4096xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}

// ALONE-LABEL: func.func @rows
// ALONE: linalg.fill {{.*}}stark.problem = @[[CHAIN:stark_problem_[0-9]+]]}
// ALONE: linalg.generic {{.*}}stark.problem = @[[CHAIN]], stark.unfused_problem = @[[ROWSUM:stark_problem_[0-9]+]]}
// ALONE: linalg.generic {{.*}}stark.problem = @[[CHAIN]], stark.unfused_problem = @[[ROWDIV:stark_problem_[0-9]+]]}
// ALONE: module @[[CHAIN]] attributes {{{.*}}op = "fused(linalg.generic,linalg.generic)"{{.*}}stark.unfused = [@[[ROWSUM]], @[[ROWDIV]]]}
// ALONE: module @[[ROWSUM]] attributes {{{.*}}op = "linalg.fill + linalg.generic", shapes = "4096x4096xf32->4096xf32"
// ALONE-NOT: stark.unfused
// ALONE: module @[[ROWDIV]] attributes {{{.*}}op = "linalg.generic", shapes = "4096x4096xf32,4096xf32->4096x4096xf32"
// ALONE-NOT: stark.unfused
// ALONE-REMARK: outlined with 1 producer/consumer op(s) as @stark_problem_2 (fused(linalg.generic,linalg.generic) 4096x4096xf32->4096x4096xf32, signature {{[0-9a-f]+}}); by the cost model on h200, one kernel moves 134 MB instead of 201 MB, ~29.96 us instead of ~45.95 us in 2 kernel(s); its ops are also outlined alone
func.func @rows(%x: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4096xf32>) -> tensor<4096xf32>
  // expected-remark @below {{outlined with 1 producer/consumer op(s) as @stark_problem_2 (fused(linalg.generic,linalg.generic) 4096x4096xf32->4096x4096xf32}}
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4096x4096xf32>) outs(%f : tensor<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  %o = tensor.empty() : tensor<4096x4096xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%o : tensor<4096x4096xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}

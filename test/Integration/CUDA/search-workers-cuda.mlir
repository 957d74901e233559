// One GPU, three evaluation workers: both hot ops are searched side by
// side, candidates are compiled and verified in parallel, timing takes the
// device alone (its lock), the fastest are timed again on device 0, and
// the substituted program still computes what the input did; the
// candidates likely to come next are compiled ahead on the idle host
// cores (the report's evaluation.precompile). (This run
// once crashed stark-opt: the side-by-side searches shared one MLIRContext
// and loaded dialects into it from their threads; each now has its own.)
//
// RUN: stark-opt %s --stark-pipeline="target=cuda top-k=2 budget=6 seed=1 progress=0 workers-per-device=3 report=%t.json" -o %t.out.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: sed 's/^module {/module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 2>} {/' %s > %t.problem.mlir
// RUN: stark-eval --target cuda --no-timing --problem %t.problem.mlir --candidate %t.out.mlir | FileCheck %s
//
// The same under a model budget: the plan's turns run one after another,
// each judging its candidates three at a time.
// RUN: stark-opt %s --stark-pipeline="target=cuda top-k=2 budget=6 total-seconds=120 seed=1 progress=0 workers-per-device=3 report=%t.budget.json" -o %t.budget.mlir 2> %t.budget.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.budget.remarks
// RUN: stark-eval --target cuda --no-timing --problem %t.problem.mlir --candidate %t.budget.mlir | FileCheck %s
//
// More devices than the machine has are refused up front.
// RUN: not stark-opt %s --stark-search="target=cuda devices=64" 2>&1 | FileCheck %s --check-prefix=TOOMANY

// REMARK: remark: stark-substitute: replaced by @stark_kernel_{{[0-9a-f]+}} ({{.+}}, verified)
// REMARK: remark: stark-substitute: replaced by @stark_kernel_{{[0-9a-f]+}} ({{.+}}, verified)

// REPORT: "evaluation": {
// REPORT-NEXT: "devices": 1,
// REPORT-NEXT: "executors": 3,
// REPORT-NEXT: "lost": [],
// REPORT-NEXT: "mpi": false,
// REPORT-NEXT: "precompile": {
// REPORT-NEXT: "compile_seconds": {{[0-9.e+-]+}},
// REPORT-NEXT: "compiled": {{[1-9][0-9]*}},
// REPORT: "workers_per_device": 3
// REPORT: "candidates": 6,
// REPORT: "retimed": [
// REPORT: "candidates": 6,
// REPORT: "retimed": [
// REPORT: "target": "cuda"

// CHECK: status: ok

// TOOMANY: error: stark-search: devices=64 but only {{[0-9]+}} CUDA device(s) are visible here

module {
  func.func @kernel(%x: memref<1024x512xf32>, %b: memref<512xf32>,
                    %y: memref<1024x512xf32>, %s: memref<1024xf32>) {
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                    iterator_types = ["parallel", "parallel"]}
        ins(%x, %b : memref<1024x512xf32>, memref<512xf32>) outs(%y : memref<1024x512xf32>) {
      ^bb0(%v: f32, %c: f32, %o: f32):
        %n = arith.negf %v : f32
        %e = math.exp %n : f32
        %one = arith.constant 1.0 : f32
        %d = arith.addf %one, %e : f32
        %q = arith.divf %v, %d : f32
        %r = arith.addf %q, %c : f32
        linalg.yield %r : f32
    }
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%s : memref<1024xf32>)
    linalg.reduce ins(%y : memref<1024x512xf32>) outs(%s : memref<1024xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %a = arith.addf %in, %acc : f32
        linalg.yield %a : f32
      }
    return
  }
}

// End to end on the GPU: the pipeline finds both hot ops of a program,
// searches CUDA candidates for each, substitutes the verified winners (CUDA
// C++ winners as gpu.binary + gpu.launch_func), and the program computes the
// same numbers before and after: the output program is evaluated against the
// input program as its problem, both run on the device. A verified winner
// need only be as fast as the upstream lowering (min-speedup=1): the test is
// about the pipeline, not a speed margin (the element-wise op's winner was
// 1.19x on an H100, timed while other GPU tests share the device, and once
// fell under the default 1.05x).
//
// RUN: stark-opt %s --stark-pipeline="target=cuda top-k=2 budget=3 seed=1 min-speedup=1 progress=0 report=%t.json" -o %t.out.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.out.mlir
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: sed 's/^module {/module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 2>} {/' %s > %t.problem.mlir
// RUN: stark-eval --target cuda --no-timing --problem %t.problem.mlir --candidate %t.out.mlir | FileCheck %s

// REMARK: remark: stark-substitute: replaced by @stark_kernel_{{[0-9a-f]+}} ({{.+}}, verified)
// REMARK: remark: stark-substitute: replaced by @stark_kernel_{{[0-9a-f]+}} ({{.+}}, verified)

// IR-LABEL: func.func @kernel
// IR-NOT: linalg.generic
// IR: call @stark_kernel_
// IR: call @stark_kernel_
// IR-DAG: gpu.binary @stark_kernel_
// IR-DAG: gpu.launch_func

// REPORT: "target": "cuda"

// CHECK: status: ok

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

// REQUIRES: mlir-runner
// End to end on the host: the pipeline substitutes a verified winner for
// the matmul, and the program computes the same numbers before and after.
// Inputs are small integers, so every summation order gives exact results
// and the two outputs must match to the last bit.
//
// RUN: stark-opt %s --stark-pipeline="target=cpu top-k=1 budget=3 seed=1 progress=0 report=%t.json" -o %t.out.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.out.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: mlir-opt %s %{lower_to_llvm} | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils > %t.before
// RUN: mlir-opt %t.out.mlir %{lower_to_llvm} | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils > %t.after
// RUN: FileCheck %s --check-prefix=OUT < %t.after
// The first line holds the buffer's address; the numbers follow.
// RUN: tail -n +2 %t.before > %t.before.data
// RUN: tail -n +2 %t.after > %t.after.data
// RUN: diff %t.before.data %t.after.data
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// IR-LABEL: func.func @mm
// IR: call @stark_kernel_{{[0-9a-f]+}}({{.*}}) {stark.winner = {candidate = {{[0-9]+}} : i64, signature = "{{[0-9a-f]+}}", speedup = {{.*}}, strategy = "cpu-tile-vectorize"}}
// IR-NOT: linalg.matmul
// IR: func.func private @stark_kernel_
// IR: vector.
// IR-NOT: stark_problem

// REMARK: remark: stark-search: searched: {{[0-9.]+}}x faster on cpu: cpu-tile-vectorize
// REMARK: remark: stark-substitute: replaced by @stark_kernel_{{[0-9a-f]+}} (cpu-tile-vectorize, {{[0-9.]+}}x, verified)

// OUT: Unranked Memref base@{{.*}} rank = 2 offset = 0 sizes = [128, 96] strides = [96, 1] data =

// REPORT: "problems": [
// REPORT: "op": "linalg.matmul"
// REPORT: "stop_reason": "candidates"

func.func @mm(%a: tensor<128x64xf32>, %b: tensor<64x96xf32>, %c: tensor<128x96xf32>) -> tensor<128x96xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x96xf32>)
                     outs(%c : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %0 : tensor<128x96xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

// Small integers from the indices (no linalg op, so nothing else is hot).
func.func @fill(%n: index, %m: index, %salt: index) -> tensor<?x?xf32> {
  %c7 = arith.constant 7 : index
  %c3 = arith.constant 3.0 : f32
  %t = tensor.generate %n, %m {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    %s2 = arith.addi %s, %salt : index
    %r = arith.remui %s2, %c7 : index
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    %v = arith.subf %f, %c3 : f32
    tensor.yield %v : f32
  } : tensor<?x?xf32>
  return %t : tensor<?x?xf32>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  %c128 = arith.constant 128 : index
  %a0 = call @fill(%c128, %c64, %c1) : (index, index, index) -> tensor<?x?xf32>
  %b0 = call @fill(%c64, %c96, %c2) : (index, index, index) -> tensor<?x?xf32>
  %d0 = call @fill(%c128, %c96, %c3) : (index, index, index) -> tensor<?x?xf32>
  %a = tensor.cast %a0 : tensor<?x?xf32> to tensor<128x64xf32>
  %b = tensor.cast %b0 : tensor<?x?xf32> to tensor<64x96xf32>
  %d = tensor.cast %d0 : tensor<?x?xf32> to tensor<128x96xf32>
  %r = call @mm(%a, %b, %d) : (tensor<128x64xf32>, tensor<64x96xf32>, tensor<128x96xf32>) -> tensor<128x96xf32>
  %u = tensor.cast %r : tensor<128x96xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

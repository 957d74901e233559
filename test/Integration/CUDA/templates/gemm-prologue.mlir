// A contraction with operand prologues as one kernel: the SIMT gemm applies
// the element-wise ops that compute A or B to each element as it loads it
// (relu(x * scale[k]) as A from a fill of 0.5; an f16 weight widened and
// scaled per column as B, then a bias), with vector and scalar loads and
// both buffering modes, verified against the upstream lowering of the whole
// fused problem (the computed operand is never written by the candidate).

// RUN: stark-template --problem %S/Inputs/fused-scale-relu-matmul.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-scale-relu-matmul.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-scale-relu-matmul.mlir --family gemm --params bm=64,bn=64,bk=16,tm=4,tn=4,double_buffer=0 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-scale-relu-matmul.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-dequant-matmul-bias.mlir --family gemm | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-dequant-matmul-bias.mlir --candidate - | FileCheck %s
// RUN: stark-template --problem %S/Inputs/fused-dequant-matmul-bias.mlir --family gemm --params bm=128,bn=64,bk=8,tm=8,tn=8,double_buffer=1 | stark-eval --target cuda --no-timing --problem %S/Inputs/fused-dequant-matmul-bias.mlir --candidate - | FileCheck %s
// CHECK: status: ok

// The sources stark-template writes for the pointwise and row families (the
// embedded Loops.cuh, Lanes.cuh, Reduce.cuh, Softmax.cuh and Norm.cuh with
// their generated specialisation) compile with nvcc for sm_90a, without a
// GPU: an f16 transposed elementwise op, a row reduction split over blocks,
// an f16 column max, an exclusive cumsum scan, a depthwise convolution, a strided f16 softmax, a
// streamed (Welford) layer norm and an RMS norm; and the split-K candidates
// of the embedded GEMM kernels (GemmCommon.cuh with GemmF32.cuh or
// Gemm3xTf32.cuh, the workspace and the reduction entry) and gemm, gemm_tc
// and gemm_f32 on fill + contraction problems (C written from the fill
// value, never read), and gemm_tc on tf32. nvcc compiles the embedded kernels' host helpers too,
// which use <cstdint>.
// REQUIRES: nvcc

// RUN: stark-template --problem %S/Inputs/templates/relu-transpose-f16.mlir --family elementwise --source > %t.ew.cu
// RUN: %nvcc-compile %t.ew.cu -o %t.ew.o
// RUN: stark-template --problem %S/Inputs/templates/sum-squares.mlir --family reduce_row --params threads=256,rows=1,vec=4,split=8 --source > %t.row.cu
// RUN: %nvcc-compile %t.row.cu -o %t.row.o
// RUN: stark-template --problem %S/Inputs/templates/col-max-f16.mlir --family reduce_col --source > %t.col.cu
// RUN: %nvcc-compile %t.col.cu -o %t.col.o
// RUN: stark-template --problem %S/Inputs/templates/fill-col-max-f16.mlir --family reduce_col --source > %t.col-fill.cu
// RUN: %nvcc-compile %t.col-fill.cu -o %t.col-fill.o
// RUN: stark-template --problem %S/Inputs/templates/depthwise.mlir --family direct --source > %t.direct.cu
// RUN: %nvcc-compile %t.direct.cu -o %t.direct.o
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/cumsum-long-exclusive.mlir --family scan --source > %t.scan.cu
// RUN: %nvcc-compile %t.scan.cu -o %t.scan.o
// RUN: stark-template --problem %S/Inputs/templates/softmax-strided-f16.mlir --family softmax --source > %t.softmax.cu
// RUN: %nvcc-compile %t.softmax.cu -o %t.softmax.o
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/layernorm-long.mlir --family layernorm --source > %t.ln.cu
// RUN: %nvcc-compile %t.ln.cu -o %t.ln.o
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/rmsnorm.mlir --family rmsnorm --params threads=128,rows=2,vec=4,cache=0 --source > %t.rms.cu
// RUN: %nvcc-compile %t.rms.cu -o %t.rms.o
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/matmul-large-k.mlir --family gemm_f32 --params bm=64,bn=64,bk=16,wm=32,wn=32,tm=8,tn=4,stages=4,min_blocks=4,split_k=8 --source > %t.splitk-f32.cu
// RUN: %nvcc-compile -include cstdint %t.splitk-f32.cu -o %t.splitk-f32.o
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/matmul-large-k-ta-odd.mlir --family gemm_3xtf32 --params bm=64,bn=64,bk=32,wm=32,wn=32,stages=3,split_k=7 --source > %t.splitk-tf32.cu
// RUN: %nvcc-compile -include cstdint %t.splitk-tf32.cu -o %t.splitk-tf32.o
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-matmul-255x129x191.mlir --family gemm --source > %t.fill-gemm.cu
// RUN: %nvcc-compile %t.fill-gemm.cu -o %t.fill-gemm.o
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-matmul-f16-odd.mlir --family gemm_tc --source > %t.fill-tc.cu
// RUN: %nvcc-compile %t.fill-tc.cu -o %t.fill-tc.o
// RUN: stark-template --problem %S/stark-template.mlir --family gemm_tc --allow-tf32 --source > %t.tf32-tc.cu
// RUN: %nvcc-compile %t.tf32-tc.cu -o %t.tf32-tc.o
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fill-matmul-255x129x191.mlir --family gemm_f32 --source > %t.fill-f32.cu
// RUN: %nvcc-compile -include cstdint %t.fill-f32.cu -o %t.fill-f32.o

// The full set: bench/problems/full/ is what `gen.py --set full` writes (the
// problem files and README.md), every file passes the suite's lint (header
// complete and equal to @main's signature, twin and reference known, the
// reference runs on the check shapes, stark-opt parses the file and finds a
// hot op; where torch imports, the twin on meta tensors of the full shapes
// gives the header's result), the bf16 twins are in it, and the README says
// why each left-out problem is left out.
//
// RUN: %python %stark_src_root/bench/problems/gen.py --set full --check
// RUN: %python %stark_src_root/bench/problems/gen.py --set full --lint stark-opt | FileCheck %s --implicit-check-not=FAIL
// RUN: FileCheck %s --check-prefix=README < %stark_src_root/bench/problems/full/README.md
//
// The driver selects by name and group (--names) and lists a selection's
// sizes without running anything (--list), to plan device calls:
// RUN: env PYTHONPATH=%stark_src_root/python %python -m stark.bench --set full --names gemm_bf16,conv2d_asym --list | FileCheck %s --check-prefix=LIST

// CHECK: ok matmul_rect_bf16.mlir: 2 hot ops
// CHECK: ok matmul_square.mlir: 1 hot ops
// CHECK: ok matmul_square_bf16.mlir: 2 hot ops
// CHECK: problems: 14, level1 14, failing: 0

// README: | matmul_square | gemm | M=4096, N=4096, K=4096 | 137.4 | {{.*}} | yes |
// README: | matvec | gemv | M=2048, K=1048576 | 4.3 | {{.*}} | no: arguments and f64 references need 43.0 GB of host memory per trial, above the 20 GB cap (peak 69 GB) |
// README: | matmul_small_k | gemm | {{.*}} | no: arguments and f64 references need 21.6 GB
// README: | conv2d_square | conv | {{.*}} | no: arguments and f64 references need 48.2 GB
// README: | conv2d_asym | conv | {{.*}} | yes |

// LIST: conv2d_asym conv f32 [8x64x512x1024, 128x64x3x3] GFLOP 614.9 peak host GB 25.7
// LIST-NEXT: matmul_rect_bf16 gemm_bf16 bf16 [2048x8192, 8192x4096] GFLOP 137.4 peak host GB 0.5
// LIST-NEXT: matmul_square_bf16 gemm_bf16 bf16 [4096x4096, 4096x4096] GFLOP 137.4 peak host GB 0.4
// LIST-NEXT: 3 problems

// The full set: bench/problems/full/ is what `gen.py --set full` writes (the
// problem files and README.md), every file passes the suite's lint (header
// complete and equal to @main's signature, twin and reference known, the
// reference runs on the check shapes, stark-opt parses the file and finds a
// hot op; where torch imports, the twin on meta tensors of the full shapes
// gives the header's result), every problem of the suite has a row at
// KernelBench's shapes, the bf16 twins are in it, and the README says why
// each left-out problem is left out.
//
// RUN: %python %stark_src_root/bench/problems/gen.py --set full --check
// RUN: %python %stark_src_root/bench/problems/gen.py --set full --lint stark-opt | FileCheck %s --implicit-check-not=FAIL
// RUN: FileCheck %s --check-prefix=README < %stark_src_root/bench/problems/full/README.md
//
// Every problem, left out or not, builds and parses at its full shapes (the
// host cap lifted, into a scratch folder):
// RUN: rm -rf %t && %python %stark_src_root/bench/problems/gen.py --set full --dir %t --host-cap-gb 1000
// RUN: %python %stark_src_root/bench/problems/gen.py --set full --dir %t --lint stark-opt | FileCheck %s --check-prefix=ALL --implicit-check-not=FAIL
//
// The driver selects by name and group (--names) and lists a selection's
// sizes without running anything (--list), to plan device calls; a name
// that selects nothing is reported:
// RUN: env PYTHONPATH=%stark_src_root/python %python -m stark.bench --set full --names gemm_bf16,conv2d_asym --list | FileCheck %s --check-prefix=LIST
// RUN: env PYTHONPATH=%stark_src_root/python %python -m stark.bench --set full --names norm,norm_bf16,pool_bf16,elementwise_bf16,no_such_group --list 2>&1 | FileCheck %s --check-prefix=GROUPS

// CHECK: ok layer_norm_bf16.mlir: 3 hot ops
// CHECK: ok matmul_rect_bf16.mlir: 2 hot ops
// CHECK: ok matmul_square.mlir: 1 hot ops
// CHECK: ok matmul_square_bf16.mlir: 2 hot ops
// CHECK: ok maxpool2d_bf16.mlir: 1 hot ops
// CHECK: ok new_gelu_bf16.mlir: 1 hot ops
// CHECK: ok relu.mlir: 1 hot ops
// CHECK: problems: 45, fused 16, level1 29, failing: 0

// ALL: ok softmax_bf16.mlir: 3 hot ops
// ALL: problems: 83, fused 16, level1 67, failing: 0

// README: In the set: 45 problems (40 f32, 5 bf16); left out for host memory: 38 of the 83 below.
// README: | matmul_square | gemm | M=4096, N=4096, K=4096 | 137.4 | {{.*}} | yes |
// README: | matvec | gemv | M=2048, K=1048576 | 4.3 | {{.*}} | no: arguments and f64 references need 43.0 GB of host memory per trial, above the 20 GB cap (peak 69 GB) |
// README: | matmul_small_k | gemm | {{.*}} | no: arguments and f64 references need 21.6 GB
// README: | relu | elementwise | B=4096, D=393216 | - | 12.88 | 0 | 51.5 | {{.*}} | yes |
// README: | relu_bf16 | elementwise_bf16 | {{.*}} | no: arguments and f32 references need 32.2 GB
// README: | softmax | softmax | {{.*}} | no: arguments and f64 references need 64.4 GB
// README: | layer_norm_bf16 | norm_bf16 | B=16, C=64, H=256, W=256 | {{.*}} | yes |
// README: | conv2d_square | conv | {{.*}} | no: arguments and f64 references need 48.2 GB
// README: | conv2d_asym | conv | {{.*}} | yes |
// README: | maxpool2d_bf16 | pool_bf16 | {{.*}} | yes |
// README: | attention_small_heads | fused | BH=32, S=512, D=64 | {{.*}} | yes |
// README: ## Groups (in the set)
// README: - `fused` (16):

// LIST: conv2d_asym conv f32 [8x64x512x1024, 128x64x3x3] GFLOP 614.9 peak host GB 25.7
// LIST-NEXT: matmul_rect_bf16 gemm_bf16 bf16 [2048x8192, 8192x4096] GFLOP 137.4 peak host GB 0.9
// LIST-NEXT: matmul_square_bf16 gemm_bf16 bf16 [4096x4096, 4096x4096] GFLOP 137.4 peak host GB 0.8
// LIST-NEXT: 3 problems

// GROUPS-DAG: warning: --names no_such_group: no problem, group or category of that name
// GROUPS-DAG: layer_norm norm f32 [16x64x256x256, 64x256x256, 64x256x256] GFLOP - peak host GB 4.6
// GROUPS-DAG: layer_norm_bf16 norm_bf16 bf16 [16x64x256x256, 64x256x256, 64x256x256] GFLOP - peak host GB 2.3
// GROUPS-DAG: maxpool2d_bf16 pool_bf16 bf16 [32x64x512x512] GFLOP - peak host GB 17.1
// GROUPS-DAG: new_gelu_bf16 elementwise_bf16 bf16 [8192x8192] GFLOP - peak host GB 2.1
// GROUPS-DAG: 4 problems

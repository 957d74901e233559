// stark-template --family td-* prints a transform-dialect schedule of a
// problem (--source: the script) and the gpu.launch module it produces.

// RUN: stark-template --problem %S/Inputs/schedules/matmul.mlir --family td-matmul --params bm=64,bn=64,bk=16,tm=4,tn=4,ku=4,promote=1 --source | FileCheck %s --check-prefix=SCRIPT
// RUN: stark-template --problem %S/Inputs/schedules/matmul.mlir --family td-matmul --params bm=64,bn=64,bk=16,tm=4,tn=4,ku=4,promote=1 | FileCheck %s --check-prefix=IR
// RUN: stark-template --problem %S/Inputs/schedules/matmul.mlir --list | FileCheck %s --check-prefix=LIST
// RUN: not stark-template --problem %S/Inputs/schedules/matmul.mlir --family td-matmul --params bm=96,bn=64,bk=16,tm=4,tn=4,ku=4,promote=1 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not stark-template --problem %S/Inputs/schedules/matmul.mlir --family td-reduce 2>&1 | FileCheck %s --check-prefix=NOREDUCE

// Blocks of 64x64, the K loop 16 deep, A and B staged in shared memory,
// 4x4 register tiles per thread, 4 K steps per contraction unrolled 4 times
// (outerproduct, the default contraction lowering, is not printed).
// SCRIPT: transform.structured.tile_using_forall %{{.+}} tile_sizes [64, 64, 0](mapping = [#gpu.block<y>, #gpu.block<x>])
// SCRIPT: transform.gpu.map_forall_to_blocks %{{.+}} generate_gpu_launch
// SCRIPT: transform.structured.tile_using_for %{{.+}} tile_sizes [0, 0, 16]
// SCRIPT: transform.structured.promote %{{.+}} {memory_space = #gpu.address_space<workgroup>, operands_to_promote = [0, 1], use_original_subview_size}
// SCRIPT: transform.structured.tile_using_forall %{{.+}} tile_sizes [4, 4, 0](mapping = [#gpu.thread<y>, #gpu.thread<x>])
// SCRIPT: transform.structured.tile_using_for %{{.+}} tile_sizes [0, 0, 4]
// SCRIPT: transform.annotate %{{.+}} "stark.unroll"
// SCRIPT: transform.split_handle
// SCRIPT: transform.structured.tile_using_forall %{{.+}} tile_sizes [1, 4](mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>])
// SCRIPT: transform.structured.vectorize
// SCRIPT: transform.gpu.map_nested_forall_to_threads %{{.+}} block_dims = [16, 16, 1]
// SCRIPT: transform.structured.hoist_redundant_vector_transfers
// SCRIPT: transform.structured.match ops{["scf.for"]} attributes {stark.unroll}
// SCRIPT: transform.loop.unroll %{{.+}} {factor = 4 : i64}
// SCRIPT: transform.apply_patterns.vector.lower_contraction{{$}}
// SCRIPT: transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = innerreduction

// The candidate: the problem's entry, one launch of 4x8 blocks of 16x16
// threads with 8 KiB of shared memory; accumulators loaded before the K
// loop and stored after it; aligned 16-byte accesses.
// IR-LABEL: func.func @kernel(
// IR-SAME: stark.schedule = #stark.schedule<family = "td-matmul", params = {bk = 16 : i64, bm = 64 : i64, bn = 64 : i64, ku = 4 : i64, promote = 1 : i64, tm = 4 : i64, tn = 4 : i64}, script = "
// IR: %[[SMEM:.+]] = arith.constant 8192 : i32
// IR: gpu.launch blocks({{.+}}) in ({{.+}} = %c8{{.*}}, {{.+}} = %c4{{.*}}, {{.+}} = %c1{{.*}}) threads({{.+}}) in ({{.+}} = %c16{{.*}}, {{.+}} = %c16{{.*}}, {{.+}} = %c1{{.*}}) dynamic_shared_memory_size %[[SMEM]]
// IR: gpu.dynamic_shared_memory
// IR: vector.load %arg2{{.+}} {alignment = 16 : i64} : memref<256x512xf32>, vector<4xf32>
// IR: scf.for {{.+}} iter_args
// IR: vector.store {{.+}} {alignment = 16 : i64} : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// IR: gpu.barrier
// IR: vector.fma
// IR: scf.yield
// IR: vector.store {{.+}}, %arg2{{.+}} {alignment = 16 : i64} : memref<256x512xf32>, vector<4xf32>
// IR-NOT: linalg.

// LIST: schedule td-matmul bk=16 bm=128 bn=128 ku=4 promote=1 tm=8 tn=8
// LIST-NOT: td-reduce

// BAD: stark-template: tiles bm=96 bn=64 bk=16 tm=4 tn=4 ku=4 must divide the loops 256x512x128 and each other
// NOREDUCE: stark-template: family 'td-reduce' does not apply: td-reduce: contractions take td-matmul or the CUDA C++ templates

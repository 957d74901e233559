// Fused chains read as one computation (FusedView) and their kernels (no GPU
// needed): chains with reductions get the fused_rows family, whose source
// walks each row once per reduction and recomputes the chain's temporaries
// where they are read; element-wise chains become one element-wise op with
// broadcasts and transposed reads folded into its accesses. Chains that are
// not one computation over one loop space are declined with the reason.

// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-log-softmax.mlir --list | FileCheck %s --check-prefix=LIST
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-log-softmax.mlir --source | FileCheck %s --check-prefix=LSM
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-log-softmax.mlir --params lanes=128,rows=1,cache=0 --source | FileCheck %s --check-prefix=STREAM
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-log-softmax.mlir | FileCheck %s --check-prefix=LSM-PLAN
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-mean-middle.mlir --list | FileCheck %s --check-prefix=MEAN-LIST
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-mean-middle.mlir --source | FileCheck %s --check-prefix=MEAN
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-mean-middle-long.mlir --list | FileCheck %s --check-prefix=LONG-LIST
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-mean-middle-long.mlir --source | FileCheck %s --check-prefix=LONG
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-mean-middle-long.mlir | FileCheck %s --check-prefix=LONG-PLAN
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-log-softmax.mlir --family fused_rows --params lanes=32,rows=4,split=2 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-mean-middle.mlir --family fused_rows --params lanes=1,rows=32,split=3 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-bias-sigmoid-sum.mlir --params lanes=32,rows=4 --source | FileCheck %s --check-prefix=SUM
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-layernorm-gelu.mlir --source | FileCheck %s --check-prefix=LNGELU
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-swish-scale-bias.mlir --list | FileCheck %s --check-prefix=EW-LIST
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-swish-scale-bias.mlir --params block=128,vec=4,per_thread=1 --source | FileCheck %s --check-prefix=EW
// RUN: stark-template --problem %S/Inputs/templates/rmsnorm-middle-dim.mlir --list | FileCheck %s --check-prefix=MIDDLE
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-log-softmax.mlir --family fused_rows --params lanes=48 2>&1 | FileCheck %s --check-prefix=LANES
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-log-softmax.mlir --family fused_rows --params lanes=64,rows=2 2>&1 | FileCheck %s --check-prefix=LANES
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-swish-scale-bias.mlir --family fused_rows 2>&1 | FileCheck %s --check-prefix=NORED
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-log-softmax.mlir --family fused_rows --params lanes=1,rows=128,cache=1 2>&1 | FileCheck %s --check-prefix=CACHE
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-log-softmax.mlir --family fused_rows --params lanes=32,rows=4,cache=3 2>&1 | FileCheck %s --check-prefix=CACHE2
// RUN: not stark-template --problem %S/Inputs/templates/fused-two-axes.mlir --list 2>&1 | FileCheck %s --check-prefix=AXES
// RUN: not stark-template --problem %S/Inputs/templates/fused-transpose-self.mlir --list 2>&1 | FileCheck %s --check-prefix=SELF
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-log-softmax.mlir --params lanes=32,rows=8,cache=2 | FileCheck %s --check-prefix=SHARED-PLAN
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-log-softmax.mlir --params lanes=32,rows=8,cache=2 --source | FileCheck %s --check-prefix=SHARED
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-log-softmax.mlir --family fused_rows --params lanes=1,rows=64,cache=2 2>&1 | FileCheck %s --check-prefix=SHARED-LANES
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-log-softmax.mlir --params lanes=32,rows=8,cache=2 --source > %t.fused-shared.cu
// RUN: %if nvcc %{ %nvcc-compile %t.fused-shared.cu -o %t.fused-shared.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-argmax-middle.mlir --source | FileCheck %s --check-prefix=ARGMAX
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-argmin-rows-i32.mlir --source | FileCheck %s --check-prefix=ARGMIN
// RUN: not stark-template --problem %S/Inputs/templates/fused-argmax-last-of-equal.mlir --list 2>&1 | FileCheck %s --check-prefix=LAST
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-argmax-middle.mlir --source > %t.fused-argmax.cu
// RUN: %if nvcc %{ %nvcc-compile %t.fused-argmax.cu -o %t.fused-argmax.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-argmin-rows-i32.mlir --source > %t.fused-argmin.cu
// RUN: %if nvcc %{ %nvcc-compile %t.fused-argmin.cu -o %t.fused-argmin.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-layernorm-gelu.mlir --params lanes=256,rows=1 --source > %t.fused.cu
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-mean-middle.mlir --params lanes=1,rows=128 --source > %t.fused-thread.cu
// RUN: %if nvcc %{ %nvcc-compile %t.fused.cu -o %t.fused.o %}
// RUN: %if nvcc %{ %nvcc-compile %t.fused-thread.cu -o %t.fused-thread.o %}
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/fused-log-softmax.mlir --params lanes=1,rows=32,split=8 --source > %t.fused-split.cu
// RUN: %if nvcc %{ %nvcc-compile %t.fused-split.cu -o %t.fused-split.o %}

// Rows of 300 contiguous elements: lanes along the row first, each keeping
// its elements in registers while they fit (at most 32 per lane), then the
// same lanes reading the row once per walk, one thread per row last.
// LIST: fused_rows: 13 parameter sets
// LIST-NEXT: cache=1,lanes=128,rows=1
// LIST: cache=0,lanes=128,rows=1
// LIST: cache=0,lanes=1,rows=128
// LIST-NOT: elementwise

// log-softmax: a max and a sum of exp(x - max), then x - max - log(sum),
// x read once into the lanes' registers (3 elements each) and nothing else
// stored.
// LSM: // Fused rows fused(linalg.generic,linalg.generic,linalg.generic): 7 rows of 300, 2 reductions; 128 lanes per row, 1 row per block.
// LSM: constexpr int SLOTS = 3;
// LSM: extern "C" __global__ void __launch_bounds__(LANES * ROWS_PER_BLOCK * SPLIT) stark_fused_rows(const float* __restrict__ arg0, float* __restrict__ arg1) {
// LSM: float cache0[SLOTS];
// LSM-NEXT: float acc0 = __int_as_float(0xff800000);
// LSM-NEXT: // reduction 0 (max)
// LSM-NEXT: #pragma unroll
// LSM-NEXT: for (int t = 0; t < SLOTS; ++t) {
// LSM-NEXT: const idx_t c = lane + (idx_t)t * LANES;
// LSM: const float p0_1 = stark_widen(arg0[(300) * i0 + i1]);
// LSM-NEXT: cache0[t] = p0_1;
// LSM-NEXT: acc0 = stark_maximumf(acc0, (float)(p0_1));
// LSM: acc0 = stark_kernels::rowAllReduce<LANES>(acc0, part0[threadIdx.y],
// LSM: const float [[MAX:r[0-9]+]] = stark_maximumf(__int_as_float(0xff800000), acc0);
// LSM: // reduction 1 (add)
// LSM: const float p1_1 = cache0[t];
// LSM: = (p1_1 - [[MAX]]);
// LSM: = expf(
// LSM: const float [[TOTAL:r[0-9]+]] = (0.0f + acc1);
// LSM-NEXT: const float [[LOG:r[0-9]+]] = logf([[TOTAL]]);
// LSM-NEXT: // outputs
// LSM: const float q1 = cache0[t];
// LSM-NEXT: const float [[D:q[0-9]+]] = (q1 - [[MAX]]);
// LSM-NEXT: const float [[Y:q[0-9]+]] = ([[D]] - [[LOG]]);
// LSM-NEXT: arg1[(300) * i0 + i1] = stark_cast<float>([[Y]]);
// LSM: __syncthreads();

// Without the cache each walk reads x again, lanes striding over the row.
// STREAM-NOT: SLOTS
// STREAM: // reduction 0 (max)
// STREAM-NEXT: for (idx_t c = lane; c < LEN; c += LANES) {
// STREAM: // reduction 1 (add)
// STREAM-NEXT: for (idx_t c = lane; c < LEN; c += LANES) {
// STREAM: const float p1_1 = stark_widen(arg0[(300) * i0 + i1]);
// STREAM: // outputs
// STREAM-NEXT: for (idx_t c = lane; c < LEN; c += LANES) {
// STREAM: const float q1 = stark_widen(arg0[(300) * i0 + i1]);

// LSM-PLAN: stark.cuda = #stark.cuda<family = "fused_rows", launches = [#stark.launch<block = array<i64: 128, 1, 1>, grid = array<i64: 7, 1, 1>, kernel = "stark_fused_rows">], params = {cache = "1", lanes = "128", rows = "1"}

// A mean over the middle dimension: neighbouring rows are neighbours in
// memory, so one thread per row comes first; the division by 50 is a row
// value after the sum, written once per row.
// MEAN-LIST: fused_rows: 7 parameter sets
// MEAN-LIST-NEXT: cache=0,lanes=1,rows=128
// MEAN: 99 rows of 50, 1 reduction; 1 lane per row, 128 rows per block.
// MEAN: const idx_t i0 = (r / 33);
// MEAN-NEXT: const idx_t i1 = (r % 33);
// MEAN: for (idx_t c = 0; c < LEN; c += 1) {
// MEAN: stark_widen(arg0[(1650) * i0 + i1 + (33) * i2]);
// MEAN-NOT: rowAllReduce
// MEAN: = ({{.+}} / 50.0f);
// MEAN-NEXT: if (lane == 0) {
// MEAN-NEXT: arg1[(33) * i0 + i1] = stark_cast<float>(

// 260 rows of 300 elements 65 apart: a thread per row would leave 260
// loads in flight, so 16 (or 8, 4) threads share a row, each walking every
// split-th element, and combine their parts in order through shared memory.
// LONG-LIST: fused_rows: 12 parameter sets
// LONG-LIST-NEXT: cache=0,lanes=1,rows=32,split=16
// LONG-LIST-NEXT: cache=0,lanes=1,rows=64,split=8
// LONG-LIST: cache=0,lanes=1,rows=128
// LONG: __launch_bounds__(LANES * ROWS_PER_BLOCK * SPLIT)
// LONG: __shared__ float part0[SPLIT][ROWS_PER_BLOCK];
// LONG: const bool live = base + threadIdx.x < ROWS;
// LONG-NEXT: const long long row = live ? base + threadIdx.x : ROWS - 1;
// LONG: for (idx_t c = part; c < LEN; c += SPLIT) {
// LONG: part0[threadIdx.y][threadIdx.x] = acc0;
// LONG-NEXT: __syncthreads();
// LONG: for (int s = 1; s < SPLIT; ++s)
// LONG-NEXT: acc0 = (acc0 + part0[s][threadIdx.x]);
// LONG: acc0 = part0[0][threadIdx.x];
// LONG: = ({{.+}} / 300.0f);
// LONG-NEXT: if (threadIdx.y == 0) {
// LONG-NEXT: if (live) arg1[(65) * i0 + i1] = stark_cast<float>(
// LONG-PLAN: block = array<i64: 32, 16, 1>, grid = array<i64: 9, 1, 1>

// An element-wise epilogue feeding a sum into an output filled with 0.5:
// the bias is read per column, the fill value starts the combination.
// SUM: // reduction 0 (add)
// SUM: stark_widen(arg1[i1]);
// SUM: expf(
// SUM: = (0.5f + acc0);
// SUM: if (lane == 0) {
// SUM-NEXT: arg2[i0] = stark_cast<float>(

// Layer norm with its two fills, then the erf GELU, in one kernel.
// LNGELU: 6 rows of 160, 2 reductions
// LNGELU: // reduction 1 (add)
// LNGELU: rsqrtf(
// LNGELU: // outputs
// LNGELU: stark_widen(arg1[i1]);
// LNGELU: stark_widen(arg2[i1]);
// LNGELU: erff(

// swish, scale and bias, the middle op reading its input transposed: one
// element-wise op over the output's loops, the bias a vector along them.
// EW-LIST: elementwise: 6 parameter sets
// EW-LIST: direct:
// EW: // Element-wise fused(linalg.generic,linalg.generic,linalg.generic): 4 points per access along loop d1.
// EW: const StarkVec<float, VEC> x0 = stark_kernels::loadVec<VEC>(arg0 + p);
// EW-NEXT: const StarkVec<float, VEC> x1 = stark_kernels::loadVec<VEC>(arg1 + i1);
// EW: expf(
// EW: * 1.70200002f);
// EW: stark_kernels::storeVec<VEC>(arg2 + p, r0);

// An RMS norm over the channels of NCHW: rows are the pixels, one thread
// each.
// MIDDLE: fused_rows: 7 parameter sets
// MIDDLE-NEXT: cache=0,lanes=1,rows=128

// The log-softmax's rows kept in shared memory (8 rows of 300 floats per
// block): a first loop stores each lane's elements there, and every walk
// reads them back at the same position (no walk reads the input).
// SHARED-PLAN: kernel = "stark_fused_rows", shared_bytes = 9600>
// SHARED: extern __shared__ __align__(128) unsigned char stark_smem[];
// SHARED: unsigned char *rowCache = stark_smem + (size_t)threadIdx.y * 1200;
// SHARED-NEXT: float *cache0 = reinterpret_cast<float *>(rowCache + 0);
// SHARED: // the rows into shared memory
// SHARED: cache0[c] = stark_widen(arg0[(300) * i0 + i1]);
// SHARED: // reduction 0 (max)
// SHARED-NOT: arg0[
// SHARED: = cache0[c];
// SHARED: // reduction 1 (add)
// SHARED-NOT: arg0[
// SHARED: = cache0[c];
// SHARED: // outputs
// SHARED-NOT: arg0[
// SHARED: = cache0[c];
// SHARED-LANES: cache=2 needs lanes along the row, a row input and at most 225280 bytes of cached rows per block

// An argmax over the middle dimension (its value a temporary of the
// problem): value and position travel together through the walk and the
// combine of the row's parts, and replace the fills' values only when the
// row's maximum is strictly greater than the initial value.
// ARGMAX: 132 rows of 64, 1 reduction; 1 lane per row
// ARGMAX: __shared__ stark_kernels::ArgState<float> part0[SPLIT][ROWS_PER_BLOCK];
// ARGMAX: stark_kernels::ArgState<float> acc0 = stark_kernels::ArgState<float>{__int_as_float(0xff800000), 9223372036854775807LL};
// ARGMAX: // reduction 0 (argmax)
// ARGMAX: const long long [[POS:p0_[0-9]+]] = (long long)(i1);
// ARGMAX: acc0 = stark_kernels::argMax(acc0, stark_kernels::ArgState<float>{(float)([[VAL:p0_[0-9]+]]), (long long)({{p0_[0-9]+}})});
// ARGMAX: acc0 = stark_kernels::argMax(acc0, part0[s][threadIdx.x]);
// ARGMAX: const bool [[GT:r[0-9]+]] = (acc0.v > __int_as_float(0xff800000));
// ARGMAX: const long long [[IDX:r[0-9]+]] = ([[GT]] ? ((long long)acc0.i) : 0LL);
// ARGMAX: arg1[(33) * i0 + i2] = stark_cast<long long>([[IDX]]);

// An argmin of i32 rows written as `value > x` with an i32 position, lanes
// along the row.
// ARGMIN: // reduction 0 (argmin)
// ARGMIN: acc0 = stark_kernels::argMin(acc0, stark_kernels::ArgState<int>
// ARGMIN: stark_kernels::rowAllReduce<LANES>(acc0, part0[threadIdx.y], [](stark_kernels::ArgState<int> &a, stark_kernels::ArgState<int> b) { a = stark_kernels::argMin(a, b); });
// ARGMIN: const bool [[LT:r[0-9]+]] = (acc0.v < 2147483647);
// ARGMIN: ([[LT]] ? ((int)acc0.i) : 0);

// LAST: fused chain: 'linalg.generic' reduces into two outputs: the comparison 'arith.cmpf oge' is not a strict order of ordered floats or signed integers (it would not keep the first extreme)

// LANES: lanes must be 1 or a power of two in [32, 1024]; lanes x rows a multiple of 32 up to 1024; rows 1 when lanes exceed 32
// SPLIT: split must be 1, or a power of two in [2, 32] with lanes 1 and cache 0
// CACHE: cache=1 needs lanes along the row, a row input and at most 32 cached elements per lane
// CACHE2: cache must be 0 (none), 1 (registers) or 2 (shared memory)
// NORED: family 'fused_rows' does not apply to fused(linalg.generic,linalg.generic,linalg.generic): the fused chain has no reduction (the element-wise families take it)
// AXES: fused chain: the reductions do not all reduce the same loops
// SELF: fused chain: 'linalg.generic' meets itself through two different index maps of one buffer

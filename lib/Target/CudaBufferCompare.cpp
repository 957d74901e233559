//===- CudaBufferCompare.cpp - Compare device buffers on the device -------===//

#include "stark/Target/CudaBufferCompare.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::stark;

// Every thread compares 32-bit words in a grid-stride loop and remembers
// whether one differed; thread 0 of the grid also compares the last
// `bytes % 4` bytes. A thread that saw a difference stores 1 to the flag
// (every writer writes the same value, so no atomic is needed).
static constexpr const char kBufferComparePtx[] = R"PTX(
.version 7.5
.target sm_75
.address_size 64

.visible .entry stark_buffers_differ(
    .param .u64 p_a, .param .u64 p_b, .param .u64 p_bytes, .param .u64 p_flag)
{
  .reg .pred %p<4>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<16>;

  ld.param.u64 %rd1, [p_a];
  ld.param.u64 %rd2, [p_b];
  ld.param.u64 %rd3, [p_bytes];
  ld.param.u64 %rd4, [p_flag];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  cvta.to.global.u64 %rd4, %rd4;
  shr.u64 %rd11, %rd3, 2;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd5, %r1, %r2;
  cvt.u64.u32 %rd6, %r3;
  add.u64 %rd5, %rd5, %rd6;
  mov.u64 %rd12, %rd5;
  mul.wide.u32 %rd7, %r4, %r2;
  mov.u32 %r7, 0;
$L_words:
  setp.ge.u64 %p1, %rd5, %rd11;
  @%p1 bra $L_tail;
  shl.b64 %rd8, %rd5, 2;
  add.u64 %rd9, %rd1, %rd8;
  add.u64 %rd10, %rd2, %rd8;
  ld.global.u32 %r5, [%rd9];
  ld.global.u32 %r6, [%rd10];
  setp.ne.u32 %p2, %r5, %r6;
  @%p2 mov.u32 %r7, 1;
  add.u64 %rd5, %rd5, %rd7;
  bra $L_words;
$L_tail:
  setp.ne.u64 %p1, %rd12, 0;
  @%p1 bra $L_store;
  shl.b64 %rd5, %rd11, 2;
$L_bytes:
  setp.ge.u64 %p1, %rd5, %rd3;
  @%p1 bra $L_store;
  add.u64 %rd9, %rd1, %rd5;
  add.u64 %rd10, %rd2, %rd5;
  ld.global.u8 %r5, [%rd9];
  ld.global.u8 %r6, [%rd10];
  setp.ne.u32 %p2, %r5, %r6;
  @%p2 mov.u32 %r7, 1;
  add.u64 %rd5, %rd5, 1;
  bra $L_bytes;
$L_store:
  setp.eq.u32 %p3, %r7, 0;
  @%p3 bra $L_exit;
  mov.u32 %r8, 1;
  st.global.u32 [%rd4], %r8;
$L_exit:
  ret;
}
)PTX";

StringRef mlir::stark::getBufferComparePtx() { return kBufferComparePtx; }

CudaBufferCompare::~CudaBufferCompare() {
  // The caller keeps the context current while it tears its device down.
  if (flags)
    api.cuMemFreeFn(flags);
  if (module)
    api.cuModuleUnloadFn(module);
}

LogicalResult CudaBufferCompare::prepare(unsigned count, std::string &error) {
  if (!module) {
    CUresult result = api.cuModuleLoadDataExFn(&module, kBufferComparePtx, 0,
                                               nullptr, nullptr);
    if (result == CUDA_SUCCESS)
      result =
          api.cuModuleGetFunctionFn(&function, module, "stark_buffers_differ");
    if (result != CUDA_SUCCESS) {
      error = api.describe(result, "loading the buffer comparison kernel");
      return failure();
    }
  }
  if (count <= flagCount)
    return success();
  if (flags)
    api.cuMemFreeFn(flags);
  flags = 0;
  flagCount = 0;
  CUresult result = api.cuMemAllocFn(&flags, sizeof(uint32_t) * count);
  if (result != CUDA_SUCCESS) {
    error = api.describe(result, "cuMemAlloc (comparison flags)");
    return failure();
  }
  flagCount = count;
  return success();
}

LogicalResult CudaBufferCompare::clearFlags(CUstream stream,
                                            std::string &error) {
  CUresult result = api.cuMemsetD32AsyncFn(flags, 0, flagCount, stream);
  if (result != CUDA_SUCCESS) {
    error = api.describe(result, "cuMemsetD32Async (comparison flags)");
    return failure();
  }
  return success();
}

LogicalResult CudaBufferCompare::enqueue(CUdeviceptr a, CUdeviceptr b,
                                         size_t bytes, unsigned index,
                                         CUstream stream, std::string &error) {
  if (index >= flagCount) {
    error = llvm::formatv("no comparison flag #{0}", index).str();
    return failure();
  }
  if (bytes == 0)
    return success();
  CUdeviceptr flag = flags + sizeof(uint32_t) * index;
  unsigned long long length = bytes;
  void *params[] = {&a, &b, &length, &flag};
  constexpr unsigned kThreads = 256;
  // Enough blocks to fill an H200 several times over; each thread loops.
  size_t words = std::max<size_t>(bytes / 4, 1);
  unsigned blocks =
      unsigned(std::min<size_t>((words + kThreads - 1) / kThreads, 4096));
  CUresult result = api.cuLaunchKernelFn(function, blocks, 1, 1, kThreads, 1, 1,
                                         0, stream, params, nullptr);
  if (result != CUDA_SUCCESS) {
    error = api.describe(result, "cuLaunchKernel(stark_buffers_differ)");
    return failure();
  }
  return success();
}

LogicalResult CudaBufferCompare::readFlags(CUstream stream,
                                           SmallVectorImpl<uint32_t> &out,
                                           std::string &error) {
  out.assign(flagCount, 0);
  CUresult result = api.cuMemcpyDtoHAsyncFn(
      out.data(), flags, sizeof(uint32_t) * flagCount, stream);
  if (result == CUDA_SUCCESS)
    result = api.cuStreamSynchronizeFn(stream);
  if (result != CUDA_SUCCESS) {
    error = api.describe(result, "reading the comparison flags");
    return failure();
  }
  return success();
}

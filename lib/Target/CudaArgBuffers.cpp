//===- CudaArgBuffers.cpp - Argument buffers on the GPU and their guards --===//
//
// Each argument lives between two guard regions; input sets are staged on
// the device so that a restore or a comparison never crosses the bus.
//
//===----------------------------------------------------------------------===//

#include "CudaTargetInternal.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatarget;

CudaArgBuffers::~CudaArgBuffers() {
  device->liveBuffers.erase(this);
  if (pointers.empty() && staged.empty())
    return;
  device->api.cuCtxSetCurrentFn(device->context);
  freeStaged();
  for (CUdeviceptr ptr : pointers)
    device->api.cuMemFreeFn(ptr - kGuardBytes);
}

void CudaArgBuffers::freeStaged() {
  for (ArrayRef<CUdeviceptr> set : staged)
    for (CUdeviceptr ptr : set)
      if (ptr)
        device->api.cuMemFreeFn(ptr);
  staged.clear();
}

LogicalResult CudaArgBuffers::stage(ArrayRef<std::vector<HostBuffer>> sets,
                                    std::string &error) {
  if (failed(device->makeCurrent(error)))
    return failure();
  freeStaged();
  // Nothing half staged stays behind a failure.
  auto fail = [&] {
    freeStaged();
    return failure();
  };
  for (const std::vector<HostBuffer> &set : sets) {
    if (failed(checkHostBuffers(specs, set, error)))
      return fail();
    SmallVector<CUdeviceptr> &copies = staged.emplace_back(set.size(), 0);
    for (auto [i, buffer] : llvm::enumerate(set)) {
      if (buffer.bytes.empty())
        continue;
      CUresult result =
          device->api.cuMemAllocFn(&copies[i], buffer.bytes.size());
      if (result != CUDA_SUCCESS) {
        error = device->api.describe(result, "staging an input set");
        return fail();
      }
      if (failed(device->copyToDevice(copies[i], buffer.bytes.data(),
                                      buffer.bytes.size(),
                                      "staging an input set", error)))
        return fail();
    }
    // The host bytes may go once the copies are done.
    if (failed(device->synchronize("staging an input set", error)))
      return fail();
  }
  return success();
}

LogicalResult CudaArgBuffers::restore(unsigned index, std::string &error) {
  if (failed(device->makeCurrent(error)) ||
      failed(enqueueRestore(index, error)))
    return failure();
  return device->synchronize("restoring an input set", error);
}

LogicalResult CudaArgBuffers::enqueueRestore(unsigned index,
                                             std::string &error) {
  if (index >= staged.size()) {
    error = llvm::formatv("no staged input set #{0}", index).str();
    return failure();
  }
  for (auto [i, from] : llvm::enumerate(staged[index])) {
    if (!from)
      continue;
    CUresult result = device->api.cuMemcpyAsyncFn(
        pointers[i], from, size_t(specs[i].sizeInBytes()), device->stream);
    if (result != CUDA_SUCCESS) {
      error = device->api.describe(result, "restoring an input set");
      return failure();
    }
  }
  return success();
}

FailureOr<SmallVector<unsigned>>
CudaArgBuffers::findChangedInputs(unsigned index, std::string &error) {
  if (index >= staged.size()) {
    error = llvm::formatv("no staged input set #{0}", index).str();
    return failure();
  }
  if (failed(device->makeCurrent(error)))
    return failure();
  if (!device->compare)
    device->compare = std::make_unique<CudaBufferCompare>(device->api);
  CudaBufferCompare &compare = *device->compare;
  if (failed(compare.prepare(unsigned(specs.size()), error)) ||
      failed(compare.clearFlags(device->stream, error)))
    return failure();
  for (auto [i, spec] : llvm::enumerate(specs))
    if (!spec.isOutput &&
        failed(compare.enqueue(pointers[i], staged[index][i],
                               size_t(spec.sizeInBytes()), unsigned(i),
                               device->stream, error)))
      return failure();
  SmallVector<uint32_t> flags;
  if (failed(compare.readFlags(device->stream, flags, error)))
    return failure();
  SmallVector<unsigned> changed;
  for (auto [i, spec] : llvm::enumerate(specs))
    if (!spec.isOutput && flags[i])
      changed.push_back(unsigned(i));
  return changed;
}

LogicalResult CudaArgBuffers::allocate(std::string &error) {
  for (const ArgSpec &spec : specs) {
    CUdeviceptr ptr = 0;
    // cuMemAlloc rejects zero bytes; an empty argument still gets a pointer.
    size_t bytes = std::max<int64_t>(spec.sizeInBytes(), 1) + 2 * kGuardBytes;
    CUresult result = device->api.cuMemAllocFn(&ptr, bytes);
    if (result != CUDA_SUCCESS) {
      error = device->api.describe(
          result, llvm::formatv("cuMemAlloc({0} bytes)", bytes).str());
      return failure();
    }
    pointers.push_back(ptr + kGuardBytes);
    if (failed(resetGuards(pointers.size() - 1, error)))
      return failure();
  }
  return success();
}

LogicalResult CudaArgBuffers::resetGuards(size_t i, std::string &error) {
  SmallVector<uint8_t> guard(kGuardBytes);
  for (bool after : {false, true}) {
    fillGuardPattern(guard, unsigned(i), after);
    CUdeviceptr at = after ? pointers[i] + specs[i].sizeInBytes()
                           : pointers[i] - kGuardBytes;
    // The pattern lives on the stack: wait before it goes.
    if (failed(device->copyToDevice(at, guard.data(), guard.size(),
                                    "cuMemcpyHtoDAsync (guard)", error)) ||
        failed(device->synchronize("guard upload", error)))
      return failure();
  }
  return success();
}

LogicalResult CudaArgBuffers::downloadArg(unsigned index, HostBuffer &host,
                                          std::string &error) {
  if (index >= specs.size()) {
    error = llvm::formatv("download: no argument #{0}", index).str();
    return failure();
  }
  if (failed(device->makeCurrent(error)))
    return failure();
  host.bytes.resize(specs[index].sizeInBytes());
  if (host.bytes.empty())
    return success();
  if (failed(device->copyToHost(host.bytes.data(), pointers[index],
                                host.bytes.size(), "cuMemcpyDtoHAsync", error)))
    return failure();
  return device->synchronize("download", error);
}

FailureOr<std::string> CudaArgBuffers::checkGuards(std::string &error) {
  if (failed(device->makeCurrent(error)))
    return failure();
  std::string damage;
  // Every guard is read back before one wait: a wait per argument cost a
  // round trip each after every timed run.
  size_t n = pointers.size();
  SmallVector<uint8_t> guards(2 * n * kGuardBytes);
  StringRef what = "cuMemcpyDtoHAsync (guard)";
  for (size_t i = 0; i < n; ++i) {
    CUdeviceptr end = pointers[i] + specs[i].sizeInBytes();
    uint8_t *at = guards.data() + 2 * i * kGuardBytes;
    if (failed(device->copyToHost(at, pointers[i] - kGuardBytes, kGuardBytes,
                                  what, error)) ||
        failed(device->copyToHost(at + kGuardBytes, end, kGuardBytes, what,
                                  error)))
      return failure();
  }
  if (failed(device->synchronize("guard download", error)))
    return failure();
  for (size_t i = 0; i < n; ++i) {
    ArrayRef<uint8_t> before(guards.data() + 2 * i * kGuardBytes, kGuardBytes),
        after(guards.data() + (2 * i + 1) * kGuardBytes, kGuardBytes);
    std::string d = describeGuardDamage(before, after, unsigned(i));
    if (d.empty())
      continue;
    damage += (damage.empty() ? "" : "\n") + d;
    if (failed(resetGuards(i, error)))
      return failure();
  }
  return damage;
}

LogicalResult
CudaArgBuffers::copyEach(ArrayRef<HostBuffer> host, StringRef what,
                         function_ref<LogicalResult(size_t)> copyArg,
                         std::string &error) {
  if (failed(checkHostBuffers(specs, host, error)) ||
      failed(device->makeCurrent(error)))
    return failure();
  for (auto [i, buffer] : llvm::enumerate(host))
    if (!buffer.bytes.empty() && failed(copyArg(i)))
      return failure();
  return device->synchronize(what, error);
}

LogicalResult CudaArgBuffers::upload(ArrayRef<HostBuffer> host,
                                     std::string &error) {
  return copyEach(
      host, "upload",
      [&](size_t i) {
        return device->copyToDevice(pointers[i], host[i].bytes.data(),
                                    host[i].bytes.size(), "cuMemcpyHtoDAsync",
                                    error);
      },
      error);
}

LogicalResult CudaArgBuffers::download(MutableArrayRef<HostBuffer> host,
                                       std::string &error) {
  // Queued on the kernels' stream, so it reads what they wrote.
  return copyEach(
      host, "download",
      [&](size_t i) {
        return device->copyToHost(host[i].bytes.data(), pointers[i],
                                  host[i].bytes.size(), "cuMemcpyDtoHAsync",
                                  error);
      },
      error);
}

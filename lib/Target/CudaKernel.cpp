//===- CudaKernel.cpp - Loaded candidates and their launches --------------===//

#include "CudaTargetInternal.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatarget;

FailureOr<CudaArgBuffers *> CudaKernel::getArgs(ArgBuffers &args,
                                                std::string &error) {
  if (!device->liveBuffers.contains(&args)) {
    error = "argument buffers were not allocated by this cuda target";
    return failure();
  }
  auto *cudaArgs = static_cast<CudaArgBuffers *>(&args);
  if (cudaArgs->pointers.size() != numArgs) {
    error = llvm::formatv("the kernel takes {0} arguments, the buffers hold "
                          "{1}",
                          numArgs, cudaArgs->pointers.size())
                .str();
    return failure();
  }
  return cudaArgs;
}

LogicalResult CudaKernel::run(ArgBuffers &args, std::string &error) {
  FailureOr<CudaArgBuffers *> cudaArgs = getArgs(args, error);
  if (failed(cudaArgs) || failed(device->makeCurrent(error)))
    return failure();
  std::string enqueueError;
  bool enqueued = succeeded(enqueue(**cudaArgs, enqueueError));
  return finishQueued(enqueued, std::move(enqueueError), error);
}

LogicalResult CudaKernel::finishQueued(bool enqueued, std::string enqueueError,
                                       std::string &error) {
  // Wait even when queueing failed half way: kernels already queued must
  // not run into the next upload.
  std::string syncError;
  bool synced = succeeded(device->synchronize("kernel", syncError));
  finishRun();
  if (!enqueued) {
    error = std::move(enqueueError);
    return failure();
  }
  if (!synced) {
    error = std::move(syncError);
    return failure();
  }
  return success();
}

MlirCudaKernel::~MlirCudaKernel() {
  device->api.cuCtxSetCurrentFn(device->context);
  destroyGraph();
  // The engine's global destructors unload the kernel modules through
  // mgpuModuleUnload, which needs the state.
  CudaRuntimeScope scope(state);
  engine.reset();
  state.releaseAll();
}

LogicalResult MlirCudaKernel::enqueue(CudaArgBuffers &args,
                                      std::string &error) {
  // One slot per descriptor field; pointers fit in an int64_t slot.
  SmallVector<int64_t> slots;
  for (auto [ptr, shape] : llvm::zip(args.pointers, shapes)) {
    slots.push_back(int64_t(ptr));
    slots.push_back(int64_t(ptr));
    slots.push_back(0);
    slots.append(shape.begin(), shape.end());
    int64_t stride = 1;
    SmallVector<int64_t> strides(shape.size());
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      strides[d] = stride;
      stride *= shape[d];
    }
    slots.append(strides.begin(), strides.end());
  }
  SmallVector<void *> packed;
  for (int64_t &slot : slots)
    packed.push_back(&slot);

  CudaRuntimeScope scope(state);
  entry(packed.data());
  if (state.hasError()) {
    error = state.takeError();
    return failure();
  }
  return success();
}

void MlirCudaKernel::destroyGraph() {
  if (graph)
    device->api.cuGraphExecDestroyFn(graph);
  graph = nullptr;
  graphArgs.clear();
}

FailureOr<CUgraphExec> MlirCudaKernel::getGraph(CudaArgBuffers &args,
                                                std::string &error) {
  if (graph &&
      ArrayRef<CUdeviceptr>(graphArgs) == ArrayRef<CUdeviceptr>(args.pointers))
    return graph;
  destroyGraph();
  const CudaDriverApi &api = device->api;
  // Relaxed: the host code may still allocate (not a stream operation);
  // what would wait for the stream fails the capture in the runtime.
  CUresult begun = api.cuStreamBeginCaptureFn(device->stream,
                                              CU_STREAM_CAPTURE_MODE_RELAXED);
  if (begun != CUDA_SUCCESS) {
    error = api.describe(begun, "cuStreamBeginCapture");
    return failure();
  }
  state.capturing = true;
  std::string enqueueError;
  bool enqueued = succeeded(enqueue(args, enqueueError));
  state.capturing = false;
  CUgraph captured = nullptr;
  CUresult ended = api.cuStreamEndCaptureFn(device->stream, &captured);
  // Nothing ran: the temporaries go back to the pool at once. The graph
  // keeps their addresses; whatever gets them next is queued on the same
  // stream, so it never overlaps a replay.
  state.releaseAllocations();
  auto fail = [&](std::string message) {
    if (captured)
      api.cuGraphDestroyFn(captured);
    error = std::move(message);
    return failure();
  };
  if (!enqueued)
    return fail(std::move(enqueueError));
  if (ended != CUDA_SUCCESS)
    return fail(api.describe(ended, "cuStreamEndCapture"));
  CUgraphExec exec = nullptr;
  CUresult made = api.cuGraphInstantiateFn(&exec, captured, 0);
  if (made != CUDA_SUCCESS)
    return fail(api.describe(made, "cuGraphInstantiate"));
  api.cuGraphDestroyFn(captured);
  graph = exec;
  graphArgs.assign(args.pointers.begin(), args.pointers.end());
  return graph;
}

LogicalResult SourceCudaKernel::prepareEnqueue(CudaArgBuffers &args,
                                               std::string &error) {
  // Each map is encoded for these arguments and written to memory of its
  // own before the launch: a kernel can keep nothing there between runs.
  const CudaDriverApi &api = device->api;
  for (const Launch &launch : launches)
    for (auto [i, spec] : llvm::enumerate(launch.maps)) {
      unsigned slot = launch.firstMap + unsigned(i);
      CUtensorMap &map = hostMaps[slot];
      if (spec.arg >= args.pointers.size() ||
          failed(
              encodeTensorMap(api, spec, args.pointers[spec.arg], map, error)))
        return failure();
      CUresult copied =
          api.cuMemcpyHtoDAsyncFn(mapMemory + slot * sizeof(CUtensorMap), &map,
                                  sizeof(map), device->stream);
      if (copied != CUDA_SUCCESS) {
        error = api.describe(copied, "cuMemcpyHtoDAsync (tensor map)");
        return failure();
      }
    }
  mapsWrittenFor = &args;
  return success();
}

LogicalResult SourceCudaKernel::enqueue(CudaArgBuffers &args,
                                        std::string &error) {
  if (mapsWrittenFor != &args && failed(prepareEnqueue(args, error)))
    return failure();
  mapsWrittenFor = nullptr;
  SmallVector<CUdeviceptr> pointers(args.pointers.begin(), args.pointers.end());
  for (const Launch &launch : launches) {
    const CudaLaunch &c = launch.config;
    // The arguments' pointers, then the addresses of the launch's tensor
    // maps.
    SmallVector<CUdeviceptr> mapAddresses;
    for (unsigned i = 0, e = launch.maps.size(); i < e; ++i)
      mapAddresses.push_back(mapMemory +
                             (launch.firstMap + i) * sizeof(CUtensorMap));
    SmallVector<void *> params;
    for (CUdeviceptr &ptr : pointers)
      params.push_back(&ptr);
    for (CUdeviceptr &address : mapAddresses)
      params.push_back(&address);
    CUresult result = device->api.cuLaunchKernelFn(
        launch.function, c.grid[0], c.grid[1], c.grid[2], c.block[0],
        c.block[1], c.block[2], c.sharedBytes, device->stream, params.data(),
        nullptr);
    if (result != CUDA_SUCCESS) {
      error = device->api.describe(
          result, llvm::formatv("cuLaunchKernel({0})", c.kernel).str());
      return failure();
    }
  }
  return success();
}

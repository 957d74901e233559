//===- CudaDeviceLoad.h - Keep part of a GPU busy beside a run ---*- C++
//-*-===//
//
// A kernel with a race can give the right answer under the one schedule a
// quiet GPU gives it every time. The second run of each correctness trial
// runs the candidate beside a load: blocks of the target's own kernel
// (PTX, not a candidate's) that occupy some of the SMs for a short while,
// so that the candidate's first waves land on other SMs, in another order,
// and later ones land where the load was. The load always ends by itself:
// a candidate that needs all of its blocks resident at once only waits.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TARGET_CUDADEVICELOAD_H
#define STARK_TARGET_CUDADEVICELOAD_H

#include "stark/Target/CudaDriver.h"

namespace mlir::stark {

/// The PTX of `stark_hold_sms(started, generation, hold_ns)`: thread 0 of
/// each block writes `generation` to `started[blockIdx.x]`, then spins on
/// %globaltimer for `hold_ns`; the block's other threads wait for it at a
/// barrier, so that the block keeps its SM slots the whole time.
StringRef getDeviceLoadPtx();

/// How a variant loads a device of `smCount` SMs.
struct DeviceLoadShape {
  unsigned blocks = 0; // of kDeviceLoadThreads threads each
  uint64_t holdNanoseconds = 0;
};
inline constexpr unsigned kDeviceLoadThreads = 1024;
DeviceLoadShape getDeviceLoadShape(unsigned variant, unsigned smCount);

/// The load, in the current context, on a stream of its own.
class CudaDeviceLoad {
public:
  explicit CudaDeviceLoad(const CudaDriverApi &api) : api(api) {}
  ~CudaDeviceLoad();

  /// Starts variant `variant` and waits (up to 50 ms) until its blocks
  /// run; the kernel to perturb may be enqueued after this returns.
  LogicalResult start(unsigned variant, unsigned smCount, std::string &error);
  /// Waits for the load to end.
  LogicalResult finish(std::string &error);

private:
  LogicalResult prepare(unsigned blocks, std::string &error);

  const CudaDriverApi &api;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  CUstream stream = nullptr;
  /// One word per block in mapped host memory: the generation that block
  /// last started in.
  volatile uint32_t *startedHost = nullptr;
  CUdeviceptr startedDevice = 0;
  unsigned capacity = 0;
  uint32_t generation = 0;
};

} // namespace mlir::stark

#endif // STARK_TARGET_CUDADEVICELOAD_H

//===- EvalPool.h - Evaluations in parallel over devices and ranks -*- C++
//-*-===//
//
// A pool of executors, each running one evaluation at a time: worker
// processes pinned to a device of this host (several may share one), or
// evaluation servers on other MPI ranks (MpiEval.h). Jobs are queued and
// taken by whichever executor is free; results come back in the order the
// jobs were given, whoever ran them, so a search stays deterministic.
//
// An executor that is lost (a rank that died or stopped answering) takes no
// more jobs; the job it held goes back to the head of the queue and runs
// elsewhere. When every executor is lost, the pool's fallback (a worker on
// this host) takes over, so jobs never wait forever.
//
// Fairness: a winner's time must come from one device, with nothing else
// running on it. Workers sharing a device serialise their timing through
// the device's lock (DeviceLock.h); `evaluateHere` runs on the pool's home
// device (device 0 of this host), where the baseline is measured and the
// final contenders of a search are timed again.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_EVALPOOL_H
#define STARK_EVAL_EVALPOOL_H

#include "stark/Eval/Worker.h"

namespace mlir::stark {
class Precompiler;
} // namespace mlir::stark

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace mlir::stark {

/// One evaluation: the problem, the candidate and how to evaluate it.
struct EvalJob {
  std::string problemSource, problemName;
  std::string candidateSource, candidateName;
  EvalOptions options;
  WorkerOptions worker;
};

/// Runs one job at a time.
class EvalExecutor {
public:
  virtual ~EvalExecutor();
  /// "device 0 worker 1", "rank 2": what reports and remarks call it.
  virtual std::string getName() const = 0;
  /// The job's result; none when the executor is lost (`lostReason` says
  /// why): the job did not run to an answer and must run elsewhere.
  virtual std::optional<EvalResult> run(const EvalJob &job,
                                        std::string &lostReason) = 0;
};

/// A worker process on this host, pinned to `cudaDevice` (a value of
/// CUDA_VISIBLE_DEVICES; empty: not pinned) and timing under the lock file
/// `deviceLock` (empty: no lock).
class LocalExecutor : public EvalExecutor {
public:
  LocalExecutor(std::string name, std::string cudaDevice,
                std::string deviceLock);
  std::string getName() const override { return name; }
  std::optional<EvalResult> run(const EvalJob &job,
                                std::string &lostReason) override;

private:
  std::string name, cudaDevice, deviceLock;
};

/// An executor the pool stopped using, and what it cost.
struct LostExecutor {
  std::string name;
  std::string reason;
  /// Jobs it held that went back to the queue.
  unsigned requeued = 0;
};

class EvalPool {
public:
  /// `executors` run the jobs; `home` runs evaluateHere and, once every
  /// executor is lost, the queue.
  EvalPool(std::vector<std::unique_ptr<EvalExecutor>> executors,
           std::unique_ptr<EvalExecutor> home);
  ~EvalPool();
  EvalPool(const EvalPool &) = delete;
  EvalPool &operator=(const EvalPool &) = delete;

  /// Runs `jobs` on the executors, in parallel; the results in job order.
  /// Safe to call from several threads at once (they share the executors).
  std::vector<EvalResult> evaluateAll(std::vector<EvalJob> jobs);
  /// Runs `job` on the home device, in the calling thread.
  EvalResult evaluateHere(const EvalJob &job);

  /// Candidates compiled ahead (Precompiler.h): each job's candidate is
  /// settled there before it runs. Null: none.
  void setPrecompiler(Precompiler *p) { precompiler = p; }

  /// Executors (lost ones included).
  unsigned size() const { return numExecutors; }
  /// Executors that were lost so far.
  std::vector<LostExecutor> getLost() const;

private:
  struct Task;
  void serve(EvalExecutor *executor, bool isHome);

  std::vector<std::unique_ptr<EvalExecutor>> executors;
  std::unique_ptr<EvalExecutor> home;
  unsigned numExecutors = 0;
  Precompiler *precompiler = nullptr;

  mutable std::mutex mutex;
  std::condition_variable wake;
  std::deque<std::shared_ptr<Task>> queue;
  std::vector<std::thread> threads;
  std::vector<LostExecutor> lost;
  unsigned live = 0;
  bool homeServing = false;
  bool stopping = false;
};

/// What a pool of this host is made of.
struct LocalPoolOptions {
  /// "cpu" or "cuda".
  std::string target = "cpu";
  /// Devices (cuda: CUDA_VISIBLE_DEVICES 0..devices-1, counted in the
  /// caller's own CUDA_VISIBLE_DEVICES when it has one) and workers on
  /// each. The cpu target has one device, the host.
  unsigned devices = 1;
  unsigned workersPerDevice = 1;
};

/// The value of CUDA_VISIBLE_DEVICES that pins a worker to device `index`
/// of `visible` (the caller's CUDA_VISIBLE_DEVICES; empty: all devices).
std::string getPinnedDevice(llvm::StringRef visible, unsigned index);

/// The executors of a pool on this host: `workersPerDevice` per device,
/// taken round-robin over the devices (device 0 worker 0, device 1 worker
/// 0, ...), so that the first jobs spread over the devices.
std::vector<std::unique_ptr<EvalExecutor>>
createLocalExecutors(const LocalPoolOptions &options);
/// The home executor: a worker on device 0 under its lock.
std::unique_ptr<EvalExecutor> createHomeExecutor(llvm::StringRef target);

} // namespace mlir::stark

#endif // STARK_EVAL_EVALPOOL_H

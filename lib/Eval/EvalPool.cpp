//===- EvalPool.cpp - Evaluations in parallel over devices and ranks ------===//

#include "stark/Eval/EvalPool.h"
#include "stark/Eval/DeviceLock.h"
#include "stark/Eval/Precompiler.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>
#include <future>

using namespace mlir;
using namespace mlir::stark;

EvalExecutor::~EvalExecutor() = default;

LocalExecutor::LocalExecutor(std::string name, std::string cudaDevice,
                             std::string deviceLock)
    : name(std::move(name)), cudaDevice(std::move(cudaDevice)),
      deviceLock(std::move(deviceLock)) {}

std::optional<EvalResult> LocalExecutor::run(const EvalJob &job,
                                             std::string &lostReason) {
  WorkerOptions worker = job.worker;
  if (!cudaDevice.empty())
    worker.cudaDevice = cudaDevice;
  if (!deviceLock.empty())
    worker.deviceLock = deviceLock;
  // A worker process cannot take its executor down with it: whatever
  // happens to the candidate is a result.
  return evaluateInWorker(job.problemSource, job.problemName,
                          job.candidateSource, job.candidateName, job.options,
                          worker);
}

struct EvalPool::Task {
  EvalJob job;
  std::promise<EvalResult> result;
};

EvalPool::EvalPool(std::vector<std::unique_ptr<EvalExecutor>> executorList,
                   std::unique_ptr<EvalExecutor> homeExecutor)
    : executors(std::move(executorList)), home(std::move(homeExecutor)) {
  numExecutors = executors.size();
  std::lock_guard<std::mutex> guard(mutex);
  live = executors.size();
  for (auto &executor : executors)
    threads.emplace_back([this, e = executor.get()] { serve(e, false); });
  if (executors.empty()) {
    homeServing = true;
    threads.emplace_back([this] { serve(home.get(), true); });
  }
}

EvalPool::~EvalPool() {
  {
    std::lock_guard<std::mutex> guard(mutex);
    stopping = true;
  }
  wake.notify_all();
  // Threads are only added while a job runs, and none does any more.
  for (std::thread &t : threads)
    t.join();
}

void EvalPool::serve(EvalExecutor *executor, bool isHome) {
  while (true) {
    std::shared_ptr<Task> task;
    {
      std::unique_lock<std::mutex> guard(mutex);
      wake.wait(guard, [&] { return stopping || !queue.empty(); });
      if (queue.empty())
        return;
      task = queue.front();
      queue.pop_front();
    }
    if (precompiler)
      precompiler->settle(task->job.candidateSource);
    std::string why;
    std::optional<EvalResult> result = executor->run(task->job, why);
    if (result) {
      task->result.set_value(std::move(*result));
      continue;
    }
    if (isHome) {
      // Nothing is left to run it: the job fails rather than wait forever.
      EvalResult failed;
      failed.status = EvalStatus::Error;
      failed.message = "no evaluator is left: " + why;
      failed.target = task->job.worker.targetName;
      task->result.set_value(std::move(failed));
      continue;
    }
    // Lost: the job goes first in line, and this executor takes no more.
    {
      std::lock_guard<std::mutex> guard(mutex);
      queue.push_front(task);
      lost.push_back({executor->getName(), why, 1});
      if (--live == 0 && !homeServing) {
        homeServing = true;
        threads.emplace_back([this] { serve(home.get(), true); });
      }
    }
    wake.notify_all();
    return;
  }
}

std::vector<EvalResult> EvalPool::evaluateAll(std::vector<EvalJob> jobs) {
  std::vector<std::future<EvalResult>> futures;
  {
    std::lock_guard<std::mutex> guard(mutex);
    for (EvalJob &job : jobs) {
      auto task = std::make_shared<Task>();
      task->job = std::move(job);
      futures.push_back(task->result.get_future());
      queue.push_back(std::move(task));
    }
  }
  wake.notify_all();
  std::vector<EvalResult> results;
  for (std::future<EvalResult> &f : futures)
    results.push_back(f.get());
  return results;
}

EvalResult EvalPool::evaluateHere(const EvalJob &job) {
  if (precompiler)
    precompiler->settle(job.candidateSource);
  std::string why;
  if (std::optional<EvalResult> result = home->run(job, why))
    return std::move(*result);
  EvalResult failed;
  failed.status = EvalStatus::Error;
  failed.message = "the home evaluator is lost: " + why;
  failed.target = job.worker.targetName;
  return failed;
}

std::vector<LostExecutor> EvalPool::getLost() const {
  std::lock_guard<std::mutex> guard(mutex);
  return lost;
}

std::string mlir::stark::getPinnedDevice(llvm::StringRef visible,
                                         unsigned index) {
  SmallVector<StringRef> listed;
  visible.split(listed, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (index < listed.size())
    return listed[index].trim().str();
  return std::to_string(index);
}

/// The caller's CUDA_VISIBLE_DEVICES, or "".
static std::string getVisibleDevices() {
  const char *visible = std::getenv("CUDA_VISIBLE_DEVICES");
  return visible ? visible : "";
}

std::vector<std::unique_ptr<EvalExecutor>>
mlir::stark::createLocalExecutors(const LocalPoolOptions &options) {
  std::vector<std::unique_ptr<EvalExecutor>> executors;
  bool cuda = options.target == "cuda";
  unsigned devices = cuda ? options.devices : 1;
  std::string visible = getVisibleDevices();
  for (unsigned w = 0; w < options.workersPerDevice; ++w)
    for (unsigned d = 0; d < devices; ++d) {
      std::string pinned = cuda ? getPinnedDevice(visible, d) : "";
      std::string name =
          cuda ? llvm::formatv("device {0} worker {1}", d, w).str()
               : llvm::formatv("worker {0}", w).str();
      executors.push_back(std::make_unique<LocalExecutor>(
          name, pinned, getDeviceLockPath(cuda ? "cuda" + pinned : "cpu")));
    }
  return executors;
}

std::unique_ptr<EvalExecutor>
mlir::stark::createHomeExecutor(llvm::StringRef target) {
  bool cuda = target == "cuda";
  std::string pinned = cuda ? getPinnedDevice(getVisibleDevices(), 0) : "";
  return std::make_unique<LocalExecutor>(
      cuda ? "device 0" : "host", pinned,
      getDeviceLockPath(cuda ? "cuda" + pinned : "cpu"));
}

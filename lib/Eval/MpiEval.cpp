//===- MpiEval.cpp - Evaluation servers on MPI ranks ----------------------===//

#include "stark/Eval/MpiEval.h"
#include "stark/Eval/DeviceLock.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <unistd.h>

#ifdef STARK_ENABLE_MPI
#include <atomic>
// Only the C interface: the C++ bindings are deprecated and noisy.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <mutex>
#endif

using namespace mlir;
using namespace mlir::stark;
namespace json = llvm::json;

#ifndef STARK_ENABLE_MPI

bool mlir::stark::isMpiAvailable() { return false; }

FailureOr<std::vector<std::unique_ptr<EvalExecutor>>>
mlir::stark::createMpiExecutors(const MpiClientOptions &, std::string &error) {
  error = "this build has no MPI (CMake found none; install Open MPI, e.g. "
          "Debian's libopenmpi-dev, and configure again)";
  return failure();
}

int mlir::stark::serveMpiEvaluations(const MpiServeOptions &) {
  llvm::errs() << "stark-eval: --serve-mpi: this build has no MPI\n";
  return 2;
}

#else

namespace {

enum Tag : int { kJobTag = 101, kResultTag = 102, kStopTag = 103 };

/// The MPI state of this process. Every MPI call is made under `mutex`.
struct MpiSession {
  std::mutex mutex;
  bool initialised = false;
  int rank = 0, size = 1;
  /// Ranks taken for lost; they are neither stopped nor waited for.
  std::vector<bool> lost;
  /// Send buffers of jobs a lost rank never took: MPI may still read them.
  std::vector<std::unique_ptr<std::string>> abandoned;
};

MpiSession &getSession() {
  static MpiSession session;
  return session;
}

std::string describeMpiError(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    return "MPI error " + std::to_string(code);
  return std::string(text, length);
}

/// Rank 0 at exit: tells every live server to stop and finalises, unless
/// a rank was lost: MPI_Finalize would wait for it forever, so the process
/// ends without it (the launcher then says this rank did not finalise).
void finishClient() {
  MpiSession &s = getSession();
  std::lock_guard<std::mutex> guard(s.mutex);
  bool anyLost = llvm::is_contained(s.lost, true);
  char flag = anyLost ? '1' : '0';
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  for (int rank = 1; rank < s.size; ++rank) {
    if (s.lost[rank])
      continue;
    MPI_Request request;
    if (MPI_Isend(&flag, 1, MPI_CHAR, rank, kStopTag, MPI_COMM_WORLD,
                  &request) != MPI_SUCCESS)
      continue;
    int done = 0;
    while (!done && std::chrono::steady_clock::now() < deadline)
      if (MPI_Test(&request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        break;
  }
  if (!anyLost)
    MPI_Finalize();
  fflush(nullptr);
}

/// Initialises MPI once, with errors returned rather than fatal.
LogicalResult initialise(std::string &error) {
  MpiSession &s = getSession();
  if (s.initialised)
    return success();
  int already = 0;
  MPI_Initialized(&already);
  if (!already) {
    int provided = 0;
    int rc =
        MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
    if (rc != MPI_SUCCESS) {
      error = "MPI_Init_thread failed: " + describeMpiError(rc);
      return failure();
    }
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s.size);
  s.lost.assign(s.size, false);
  s.initialised = true;
  return success();
}

/// One evaluation server rank, seen from rank 0.
class MpiExecutor : public EvalExecutor {
public:
  MpiExecutor(int rank, MpiClientOptions options)
      : rank(rank), options(options) {}
  std::string getName() const override {
    return llvm::formatv("rank {0}", rank);
  }
  std::optional<EvalResult> run(const EvalJob &job,
                                std::string &lostReason) override;

private:
  int rank;
  MpiClientOptions options;
  uint64_t nextId = 0;
};

std::optional<EvalResult> MpiExecutor::run(const EvalJob &job,
                                           std::string &lostReason) {
  MpiSession &s = getSession();
  uint64_t id = nextId++;
  // The reference store is a directory of this host: a server computes
  // its own references.
  EvalOptions evalOptions = job.options;
  evalOptions.referenceDir.clear();
  evalOptions.writeReferences = false;
  json::Object message{{"id", int64_t(id)},
                       {"problem", job.problemSource},
                       {"problem_name", job.problemName},
                       {"candidate", job.candidateSource},
                       {"candidate_name", job.candidateName},
                       {"target", job.worker.targetName},
                       {"timeout", job.worker.timeoutSeconds},
                       {"log_tail_bytes", int64_t(job.worker.logTailBytes)},
                       {"options", toJSON(evalOptions)}};
  auto text = std::make_unique<std::string>();
  llvm::raw_string_ostream(*text) << json::Value(std::move(message));

  double limit = job.worker.timeoutSeconds + options.graceSeconds;
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(limit);
  MPI_Request request;
  {
    std::lock_guard<std::mutex> guard(s.mutex);
    int rc = MPI_Isend(text->data(), int(text->size()), MPI_CHAR, rank, kJobTag,
                       MPI_COMM_WORLD, &request);
    if (rc != MPI_SUCCESS) {
      s.lost[rank] = true;
      lostReason = "MPI_Isend failed: " + describeMpiError(rc);
      return std::nullopt;
    }
  }
  bool sent = false;
  std::string answer;
  while (true) {
    bool received = false;
    {
      std::lock_guard<std::mutex> guard(s.mutex);
      int rc = MPI_SUCCESS;
      if (!sent) {
        int done = 0;
        rc = MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        sent = done;
      }
      MPI_Status status;
      int ready = 0;
      if (rc == MPI_SUCCESS)
        rc = MPI_Iprobe(rank, kResultTag, MPI_COMM_WORLD, &ready, &status);
      if (rc == MPI_SUCCESS && ready) {
        int count = 0;
        MPI_Get_count(&status, MPI_CHAR, &count);
        answer.assign(size_t(count), '\0');
        rc = MPI_Recv(answer.data(), count, MPI_CHAR, rank, kResultTag,
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        received = rc == MPI_SUCCESS;
      }
      if (rc != MPI_SUCCESS) {
        if (!sent)
          s.abandoned.push_back(std::move(text));
        s.lost[rank] = true;
        lostReason = "MPI error: " + describeMpiError(rc);
        return std::nullopt;
      }
    }
    if (received)
      break;
    if (std::chrono::steady_clock::now() > deadline) {
      std::lock_guard<std::mutex> guard(s.mutex);
      if (!sent) {
        MPI_Cancel(&request);
        MPI_Request_free(&request);
        s.abandoned.push_back(std::move(text));
      }
      s.lost[rank] = true;
      lostReason = llvm::formatv("no answer within {0:f0} s", limit).str();
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }

  EvalResult result;
  result.target = job.worker.targetName;
  result.status = EvalStatus::Error;
  llvm::Expected<json::Value> value = json::parse(answer);
  const json::Object *obj = value ? value->getAsObject() : nullptr;
  json::Path::Root root("answer");
  if (!obj || obj->getInteger("id") != int64_t(id) || !obj->get("result") ||
      !fromJSON(*obj->get("result"), result, root)) {
    if (!value)
      llvm::consumeError(value.takeError());
    result = EvalResult();
    result.target = job.worker.targetName;
    result.message = llvm::formatv("rank {0} sent a malformed answer", rank);
  }
  return result;
}

} // namespace

bool mlir::stark::isMpiAvailable() { return true; }

FailureOr<std::vector<std::unique_ptr<EvalExecutor>>>
mlir::stark::createMpiExecutors(const MpiClientOptions &options,
                                std::string &error) {
  MpiSession &s = getSession();
  {
    std::lock_guard<std::mutex> guard(s.mutex);
    bool first = !s.initialised;
    if (failed(initialise(error)))
      return failure();
    if (first && s.rank == 0 && s.size > 1)
      std::atexit(finishClient);
  }
  if (s.rank != 0) {
    error = llvm::formatv("this process is rank {0}; the passes run on rank "
                          "0 and the other ranks run `stark-eval --serve-mpi`",
                          s.rank)
                .str();
    return failure();
  }
  if (s.size < 2) {
    error = "no evaluation ranks: this process is the only MPI rank; start "
            "it as rank 0 of an MPI job whose other ranks run `stark-eval "
            "--serve-mpi`, e.g. `mpirun -n 1 stark-opt ... : -n 2 stark-eval "
            "--serve-mpi`";
    return failure();
  }
  std::vector<std::unique_ptr<EvalExecutor>> executors;
  for (int rank = 1; rank < s.size; ++rank)
    if (!s.lost[rank])
      executors.push_back(std::make_unique<MpiExecutor>(rank, options));
  return executors;
}

int mlir::stark::serveMpiEvaluations(const MpiServeOptions &options) {
  std::string error;
  MpiSession &s = getSession();
  if (failed(initialise(error))) {
    llvm::errs() << "stark-eval: --serve-mpi: " << error << "\n";
    return 1;
  }
  if (s.rank == 0) {
    llvm::errs() << "stark-eval: --serve-mpi: this process is rank 0, which "
                    "runs the passes (stark-opt); servers are ranks 1 and up\n";
    MPI_Abort(MPI_COMM_WORLD, 2);
    return 2;
  }
  std::string visible;
  if (const char *env = std::getenv("CUDA_VISIBLE_DEVICES"))
    visible = env;
  std::string device = options.cudaDevice.empty() ? getPinnedDevice(visible, 0)
                                                  : options.cudaDevice;
  int answered = 0;
  while (true) {
    MPI_Status status;
    int rc = MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    int count = 0;
    if (rc == MPI_SUCCESS)
      rc = MPI_Get_count(&status, MPI_CHAR, &count);
    std::string text(size_t(count), '\0');
    if (rc == MPI_SUCCESS)
      rc = MPI_Recv(text.data(), count, MPI_CHAR, 0, status.MPI_TAG,
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) {
      llvm::errs() << "stark-eval: rank " << s.rank
                   << ": lost rank 0: " << describeMpiError(rc) << "\n";
      return 1;
    }
    if (status.MPI_TAG == kStopTag) {
      // With a lost rank in the job, finalising would wait for it.
      if (text != "1")
        MPI_Finalize();
      return 0;
    }
    if (status.MPI_TAG != kJobTag)
      continue;
    if (options.exitAfter >= 0 && answered >= options.exitAfter) {
      llvm::errs() << "stark-eval: rank " << s.rank << ": exiting after "
                   << answered << " job(s), as asked (--mpi-exit-after)\n";
      llvm::errs().flush();
      ::_exit(1);
    }

    EvalJob job;
    int64_t id = -1;
    llvm::Expected<json::Value> value = json::parse(text);
    const json::Object *obj = value ? value->getAsObject() : nullptr;
    json::Path::Root root("job");
    EvalResult result;
    result.status = EvalStatus::Error;
    if (!obj || !obj->get("options") ||
        !fromJSON(*obj->get("options"), job.options,
                  json::Path(root).field("options"))) {
      if (!value)
        llvm::consumeError(value.takeError());
      result.message = "malformed job";
    } else {
      id = obj->getInteger("id").value_or(-1);
      job.problemSource = obj->getString("problem").value_or("").str();
      job.problemName = obj->getString("problem_name").value_or("").str();
      job.candidateSource = obj->getString("candidate").value_or("").str();
      job.candidateName = obj->getString("candidate_name").value_or("").str();
      job.worker.targetName = obj->getString("target").value_or("cpu").str();
      job.worker.timeoutSeconds = obj->getNumber("timeout").value_or(60);
      job.worker.logTailBytes =
          unsigned(obj->getInteger("log_tail_bytes").value_or(4000));
      bool cuda = job.worker.targetName == "cuda";
      if (cuda)
        job.worker.cudaDevice = options.cudaDevice;
      job.worker.deviceLock = getDeviceLockPath(cuda ? "cuda" + device : "cpu");
      result = evaluateInWorker(job.problemSource, job.problemName,
                                job.candidateSource, job.candidateName,
                                job.options, job.worker);
    }
    std::string answer;
    llvm::raw_string_ostream(answer)
        << json::Value(json::Object{{"id", id}, {"result", toJSON(result)}});
    rc = MPI_Send(answer.data(), int(answer.size()), MPI_CHAR, 0, kResultTag,
                  MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
      llvm::errs() << "stark-eval: rank " << s.rank
                   << ": cannot answer rank 0: " << describeMpiError(rc)
                   << "\n";
      return 1;
    }
    ++answered;
  }
}

#endif // STARK_ENABLE_MPI

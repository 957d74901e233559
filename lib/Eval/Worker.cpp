//===- Worker.cpp - Evaluate a candidate in a separate process ------------===//

#include "stark/Eval/Worker.h"
#include "stark/Eval/ChildProcess.h"
#include "stark/Eval/DeviceLock.h"
#include "stark/Eval/RunnerProcess.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <unistd.h>

using namespace mlir;
using namespace mlir::stark;
namespace json = llvm::json;

static constexpr StringLiteral kRequestFile = "request.json";
static constexpr StringLiteral kProblemFile = "problem.mlir";
static constexpr StringLiteral kCandidateFile = "candidate.mlir";
static constexpr StringLiteral kResultFile = "result.json";
static constexpr StringLiteral kLogFile = "worker.log";

static std::string joinPath(StringRef dir, StringRef file) {
  SmallString<256> path(dir);
  llvm::sys::path::append(path, file);
  return std::string(path);
}

static LogicalResult writeFile(StringRef path, StringRef contents,
                               std::string &error) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    error = llvm::formatv("cannot write '{0}': {1}", path, ec.message()).str();
    return failure();
  }
  os << contents;
  os.close();
  if (os.has_error()) {
    error = llvm::formatv("cannot write '{0}': {1}", path, os.error().message())
                .str();
    os.clear_error();
    return failure();
  }
  return success();
}

static FailureOr<std::string> readFile(StringRef path, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = llvm::formatv("cannot read '{0}': {1}", path,
                          buffer.getError().message())
                .str();
    return failure();
  }
  return (*buffer)->getBuffer().str();
}

// Any function of this library will do: getMainExecutable only needs an
// address inside the running program.
static void anchor() {}

FailureOr<std::string> mlir::stark::findEvalWorker(const WorkerOptions &options,
                                                   std::string &error) {
  if (!options.workerPath.empty())
    return options.workerPath;
  if (const char *env = std::getenv("STARK_EVAL_WORKER"); env && *env)
    return std::string(env);
  std::string self = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&anchor));
  if (!self.empty()) {
    SmallString<256> sibling(llvm::sys::path::parent_path(self));
    llvm::sys::path::append(sibling, "stark-eval");
    if (llvm::sys::fs::can_execute(sibling))
      return std::string(sibling);
  }
  if (auto onPath = llvm::sys::findProgramByName("stark-eval"))
    return *onPath;
  error = "cannot find the stark-eval worker: set STARK_EVAL_WORKER or put "
          "stark-eval next to this program or on PATH";
  return failure();
}

/// The last `bytes` bytes of `text`, starting at a line boundary.
static std::string tail(StringRef text, unsigned bytes) {
  if (text.size() <= bytes)
    return text.str();
  StringRef rest = text.take_back(bytes);
  size_t newline = rest.find('\n');
  if (newline != StringRef::npos && newline + 1 < rest.size())
    rest = rest.drop_front(newline + 1);
  return "...\n" + rest.str();
}

/// The last phase the worker announced, or "".
static std::string lastPhase(StringRef log) {
  size_t at = log.rfind(kWorkerPhasePrefix);
  if (at == StringRef::npos)
    return "";
  StringRef line = log.drop_front(at + kWorkerPhasePrefix.size());
  return line.take_until([](char c) { return c == '\n'; }).str();
}

static std::string withoutPhaseLines(StringRef log) {
  std::string rest;
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines)
    if (!line.starts_with(kWorkerPhasePrefix) && !line.trim().empty())
      rest += line.str() + "\n";
  return rest;
}

static EvalResult makeFailure(EvalStatus status, std::string message,
                              const WorkerOptions &worker) {
  EvalResult result;
  result.status = status;
  result.message = std::move(message);
  result.target = worker.targetName;
  return result;
}

/// This process's environment with CUDA_VISIBLE_DEVICES set to `device`.
static std::vector<std::string> getPinnedEnvironment(StringRef device) {
  std::vector<std::string> out;
  for (char **e = environ; e && *e; ++e)
    if (!StringRef(*e).starts_with("CUDA_VISIBLE_DEVICES="))
      out.push_back(*e);
  out.push_back(("CUDA_VISIBLE_DEVICES=" + device).str());
  return out;
}

/// The end of the worker's log (at least 64 KiB of it, more when
/// `tailBytes` asks): only the end matters, and a candidate may print a
/// lot.
static std::string readLogEnd(StringRef logPath, uint64_t tailBytes) {
  uint64_t logSize = 0;
  if (llvm::sys::fs::file_size(logPath, logSize) || logSize == 0)
    return "";
  uint64_t keep =
      std::min<uint64_t>(logSize, std::max<uint64_t>(64 * 1024, tailBytes));
  auto buffer = llvm::MemoryBuffer::getFileSlice(logPath, keep, logSize - keep);
  return buffer ? (*buffer)->getBuffer().str() : "";
}

/// The result the worker left in `dir`; failure, with `error` saying why,
/// when there is none or it does not read as a result (the worker's exit
/// code `rc` and `where` it was go into the message). A failed evaluation
/// without a log tail of its own gets the end of the worker's `log`.
static FailureOr<EvalResult> readWorkerResult(StringRef dir, int rc,
                                              StringRef where, StringRef log,
                                              const WorkerOptions &worker,
                                              std::string &error) {
  FailureOr<std::string> text = readFile(joinPath(dir, kResultFile), error);
  if (failed(text)) {
    error = llvm::formatv("the worker exited with code {0} without a "
                          "result{1}",
                          rc, where)
                .str();
    return failure();
  }
  llvm::Expected<json::Value> value = json::parse(*text);
  if (!value) {
    error =
        "the worker's result is not JSON: " + llvm::toString(value.takeError());
    return failure();
  }
  EvalResult result;
  json::Path::Root root("result");
  if (!fromJSON(*value, result, root)) {
    error =
        "the worker's result is malformed: " + llvm::toString(root.getError());
    return failure();
  }
  // The evaluation finished: its phase lines say nothing the result does
  // not, but anything else the worker printed (a backend's complaint) may.
  if (!result.isOk() && result.logTail.empty())
    result.logTail = tail(withoutPhaseLines(log), worker.logTailBytes);
  return result;
}

EvalResult mlir::stark::evaluateInWorker(StringRef problemSource,
                                         StringRef problemName,
                                         StringRef candidateSource,
                                         StringRef candidateName,
                                         const EvalOptions &options,
                                         const WorkerOptions &worker) {
  std::string error;
  FailureOr<std::string> program = findEvalWorker(worker, error);
  if (failed(program))
    return makeFailure(EvalStatus::Error, error, worker);

  SmallString<256> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("stark-eval", dir))
    return makeFailure(
        EvalStatus::Error,
        "cannot create a directory for the worker: " + ec.message(), worker);
  std::string dirPath(dir);
  llvm::scope_exit cleanup([&] {
    if (!worker.keepFiles)
      llvm::sys::fs::remove_directories(dirPath, /*IgnoreErrors=*/true);
  });

  json::Object request{
      {"target", worker.targetName},
      {"problem_name", problemName},
      {"candidate_name", candidateName},
      {"options", toJSON(options)},
  };
  if (!worker.deviceLock.empty())
    request["device_lock"] = worker.deviceLock;
  std::string requestText;
  llvm::raw_string_ostream(requestText) << json::Value(std::move(request));
  if (failed(
          writeFile(joinPath(dirPath, kProblemFile), problemSource, error)) ||
      failed(writeFile(joinPath(dirPath, kCandidateFile), candidateSource,
                       error)) ||
      failed(writeFile(joinPath(dirPath, kRequestFile), requestText, error)))
    return makeFailure(EvalStatus::Error, error, worker);

  std::string logPath = joinPath(dirPath, kLogFile);
  SmallVector<StringRef> args = {*program, "--worker", dirPath};
  std::optional<StringRef> redirects[] = {StringRef(""), StringRef(logPath),
                                          StringRef(logPath)};
  // A pinned worker sees only its device; everything else is inherited.
  std::optional<ArrayRef<StringRef>> env;
  std::vector<std::string> envStrings;
  SmallVector<StringRef> envRefs;
  if (!worker.cudaDevice.empty()) {
    envStrings = getPinnedEnvironment(worker.cudaDevice);
    envRefs.assign(envStrings.begin(), envStrings.end());
    env = ArrayRef<StringRef>(envRefs);
  }
  unsigned seconds = unsigned(std::ceil(std::max(1.0, worker.timeoutSeconds)));
  // Workers run from several threads at once: the wait must not use
  // process-wide signals (ChildProcess.h).
  ChildOutcome ended = runChildProcess(*program, args, env, redirects, seconds);

  std::string log = readLogEnd(logPath, worker.logTailBytes);
  std::string phase = lastPhase(log);
  std::string where = phase.empty() ? "" : " while " + phase;

  auto withLog = [&](EvalResult r) {
    r.phase = phase;
    r.logTail = tail(log, worker.logTailBytes);
    return r;
  };

  switch (ended.kind) {
  case ChildOutcome::Kind::NotStarted:
    return withLog(
        makeFailure(EvalStatus::Error,
                    llvm::formatv("cannot start the worker '{0}': {1}",
                                  *program, ended.message)
                        .str(),
                    worker));
  case ChildOutcome::Kind::TimedOut:
    return withLog(makeFailure(EvalStatus::Timeout,
                               llvm::formatv("the worker did not finish within "
                                             "{0} s and was killed{1}",
                                             seconds, where)
                                   .str(),
                               worker));
  case ChildOutcome::Kind::Signalled:
    return withLog(makeFailure(
        EvalStatus::Crash,
        llvm::formatv("the worker died: {0}{1}", ended.message, where).str(),
        worker));
  case ChildOutcome::Kind::Exited:
    break;
  }
  FailureOr<EvalResult> result =
      readWorkerResult(dirPath, ended.exitCode, where, log, worker, error);
  if (failed(result))
    return withLog(makeFailure(EvalStatus::Crash, error, worker));
  result->wallSeconds = ended.seconds;
  return *result;
}

int mlir::stark::runEvalWorker(StringRef dir) {
  // A crashing candidate should not leave a core file behind per attempt.
  llvm::sys::Process::PreventCoreFiles();
  std::string error;
  std::string resultPath = joinPath(dir, kResultFile);
  auto writeResult = [&](const EvalResult &result) {
    std::string text;
    llvm::raw_string_ostream(text) << json::Value(toJSON(result));
    // Written under another name first: the caller never reads half a file.
    std::string partial = resultPath + ".partial";
    if (failed(writeFile(partial, text, error)))
      return 1;
    if (llvm::sys::fs::rename(partial, resultPath))
      return 1;
    return 0;
  };
  auto requestError = [&](const std::string &message) {
    EvalResult result;
    result.status = EvalStatus::Error;
    result.message = "worker: " + message;
    writeResult(result);
    return 2;
  };

  FailureOr<std::string> requestText =
      readFile(joinPath(dir, kRequestFile), error);
  if (failed(requestText))
    return requestError(error);
  llvm::Expected<json::Value> request = json::parse(*requestText);
  if (!request)
    return requestError("bad request: " + llvm::toString(request.takeError()));
  const json::Object *obj = request->getAsObject();
  EvalOptions options;
  json::Path::Root root("request");
  if (!obj || !obj->getObject("options") ||
      !fromJSON(*obj->get("options"), options,
                json::Path(root).field("options")))
    return requestError("bad request options");
  std::string targetName = obj->getString("target").value_or("cpu").str();
  std::string problemName =
      obj->getString("problem_name").value_or("problem.mlir").str();
  std::string candidateName =
      obj->getString("candidate_name").value_or("candidate.mlir").str();

  FailureOr<std::string> problem = readFile(joinPath(dir, kProblemFile), error);
  if (failed(problem))
    return requestError(error);
  FailureOr<std::string> candidate =
      readFile(joinPath(dir, kCandidateFile), error);
  if (failed(candidate))
    return requestError(error);

  // With a device lock, timing waits until no other worker of the device
  // runs anything on it (DeviceLock.h); the lock goes with the process.
  std::optional<DeviceLock> lock;
  if (std::optional<StringRef> path = obj->getString("device_lock"))
    lock.emplace(*path);
  // What the lock cost, by the kind of phase that waited for it.
  std::vector<std::pair<std::string, double>> waits;
  options.onPhase = [&](StringRef phase) {
    llvm::errs() << kWorkerPhasePrefix << phase << "\n";
    llvm::errs().flush();
    if (!lock)
      return;
    auto start = std::chrono::steady_clock::now();
    lock->hold(getDeviceUse(phase, targetName));
    double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (waited > 1e-3)
      waits.emplace_back(getPhaseKind(phase).str(), waited);
  };
  // This process is the judge; the candidate runs in a child of its own.
  std::string self = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&anchor));
  RunnerStart start;
  start.targetName = targetName;
  start.problemSource = *problem;
  start.problemName = problemName;
  start.candidateSource = *candidate;
  start.candidateName = candidateName;
  start.entry = options.entry;
  start.synthesizeElidedWeights = options.synthesizeElidedWeights;
  if (!options.sanitizer.empty()) {
    FailureOr<std::vector<std::string>> launcher =
        getSanitizerLauncher(options.sanitizer, error);
    if (failed(launcher))
      return requestError(error);
    start.launcher = std::move(*launcher);
  }
  RunnerFactory startRunner = [&](EvalStatus &status, std::string &error) {
    return startRunnerProcess(self, start, status, error);
  };
  EvalResult result =
      evaluateSources(*problem, problemName, *candidate, candidateName,
                      targetName, options, startRunner);
  separateDeviceWaits(result.phaseSeconds, waits);
  return writeResult(result);
}

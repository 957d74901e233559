//===- RunnerProcess.cpp - A candidate's runner in a process of its own ---===//

#include "stark/Eval/RunnerProcess.h"
#include "stark/Eval/Evaluator.h"
#include "stark/Eval/ProblemAnalysis.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::stark;
namespace json = llvm::json;

//===----------------------------------------------------------------------===//
// Framing
//===----------------------------------------------------------------------===//

static constexpr uint64_t kMagic = 0x314e55524b524154ull; // "TARKRUN1"
/// No header is this large; a length beyond it is a broken frame.
static constexpr uint64_t kMaxHeaderBytes = uint64_t(64) << 20;
static constexpr uint64_t kMaxBlobs = 1 << 16;
/// The pipes' size: Linux's default limit for unprivileged processes
/// (/proc/sys/fs/pipe-max-size).
static constexpr int kPipeBytes = 1 << 20;

static LogicalResult writeAll(int fd, const void *data, size_t size,
                              std::string &error) {
  const char *p = static_cast<const char *>(data);
  while (size > 0) {
    ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      error = llvm::formatv("cannot write to the runner pipe: {0}",
                            std::strerror(errno))
                  .str();
      return failure();
    }
    p += n;
    size -= size_t(n);
  }
  return success();
}

static LogicalResult readAll(int fd, void *data, size_t size,
                             std::string &error) {
  char *p = static_cast<char *>(data);
  while (size > 0) {
    ssize_t n = ::read(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      error = llvm::formatv("cannot read from the runner pipe: {0}",
                            std::strerror(errno))
                  .str();
      return failure();
    }
    if (n == 0) {
      error = "the other end of the runner pipe closed";
      return failure();
    }
    p += n;
    size -= size_t(n);
  }
  return success();
}

static LogicalResult writeWord(int fd, uint64_t v, std::string &error) {
  return writeAll(fd, &v, sizeof(v), error);
}

static LogicalResult readWord(int fd, uint64_t &v, std::string &error) {
  return readAll(fd, &v, sizeof(v), error);
}

LogicalResult mlir::stark::writeRunnerMessage(int fd, const json::Value &header,
                                              ArrayRef<ArrayRef<uint8_t>> blobs,
                                              std::string &error) {
  std::string text;
  llvm::raw_string_ostream(text) << header;
  if (failed(writeWord(fd, kMagic, error)) ||
      failed(writeWord(fd, text.size(), error)) ||
      failed(writeAll(fd, text.data(), text.size(), error)) ||
      failed(writeWord(fd, blobs.size(), error)))
    return failure();
  for (ArrayRef<uint8_t> blob : blobs)
    if (failed(writeWord(fd, blob.size(), error)) ||
        failed(writeAll(fd, blob.data(), blob.size(), error)) ||
        failed(writeWord(fd, llvm::xxh3_64bits(blob), error)))
      return failure();
  return success();
}

LogicalResult mlir::stark::readRunnerMessage(int fd, RunnerMessage &message,
                                             std::string &error) {
  uint64_t magic = 0, headerBytes = 0, numBlobs = 0;
  if (failed(readWord(fd, magic, error)))
    return failure();
  if (magic != kMagic) {
    error = "the runner pipe carries something other than a message";
    return failure();
  }
  if (failed(readWord(fd, headerBytes, error)))
    return failure();
  if (headerBytes > kMaxHeaderBytes) {
    error = "a runner message header is too large";
    return failure();
  }
  std::string text(headerBytes, '\0');
  if (failed(readAll(fd, text.data(), text.size(), error)))
    return failure();
  llvm::Expected<json::Value> header = json::parse(text);
  if (!header) {
    error = "a runner message header is not JSON: " +
            llvm::toString(header.takeError());
    return failure();
  }
  message.header = std::move(*header);
  if (failed(readWord(fd, numBlobs, error)))
    return failure();
  if (numBlobs > kMaxBlobs) {
    error = "a runner message has too many blobs";
    return failure();
  }
  message.blobs.assign(numBlobs, {});
  for (std::vector<uint8_t> &blob : message.blobs) {
    uint64_t size = 0, sum = 0;
    if (failed(readWord(fd, size, error)))
      return failure();
    blob.resize(size);
    if (failed(readAll(fd, blob.data(), blob.size(), error)) ||
        failed(readWord(fd, sum, error)))
      return failure();
    if (sum != llvm::xxh3_64bits(blob)) {
      error = "a runner message blob does not match its checksum";
      return failure();
    }
  }
  return success();
}

/// The blobs of the outputs of `args`, in order: inputs travel as
/// checksums.
static void appendOutputBlobs(ArrayRef<HostBuffer> args,
                              SmallVectorImpl<ArrayRef<uint8_t>> &blobs) {
  for (const HostBuffer &b : args)
    if (b.spec.isOutput)
      blobs.push_back(b.bytes);
}

/// One buffer per spec: the outputs from `blobs` at `next`, the inputs
/// empty.
static LogicalResult takeOutputs(ArrayRef<ArgSpec> specs,
                                 std::vector<std::vector<uint8_t>> &blobs,
                                 size_t &next, std::vector<HostBuffer> &args,
                                 std::string &error) {
  args.clear();
  for (const ArgSpec &spec : specs) {
    args.emplace_back(spec);
    if (!spec.isOutput) {
      args.back().bytes.clear();
      continue;
    }
    if (next >= blobs.size() ||
        int64_t(blobs[next].size()) != spec.sizeInBytes()) {
      error = llvm::formatv("runner message: argument #{0} is missing or of "
                            "the wrong size",
                            args.size() - 1)
                  .str();
      return failure();
    }
    args.back().bytes = std::move(blobs[next++]);
  }
  return success();
}

static json::Value writeRecipe(const ArgumentRecipe &recipe) {
  json::Array given;
  for (const auto &[i, buffer] : recipe.given)
    given.push_back(i);
  return json::Object{{"dist", stringifyDistribution(recipe.dist)},
                      {"seed", recipe.seed},
                      {"finite_prefill", recipe.finitePrefill},
                      {"schedule", recipe.schedule},
                      {"given", std::move(given)}};
}

/// The recipe of a run request; its given buffers are the request's blobs.
static LogicalResult readRecipe(const json::Value *value,
                                ArrayRef<ArgSpec> specs,
                                std::vector<std::vector<uint8_t>> &blobs,
                                ArgumentRecipe &recipe, std::string &error) {
  const json::Object *o = value ? value->getAsObject() : nullptr;
  std::optional<Distribution> dist =
      o ? symbolizeDistribution(o->getString("dist").value_or(""))
        : std::nullopt;
  const json::Array *given = o ? o->getArray("given") : nullptr;
  if (!dist || !given || !o->get("seed") || !o->get("seed")->getAsUINT64()) {
    error = "malformed argument recipe";
    return failure();
  }
  recipe.dist = *dist;
  recipe.seed = *o->get("seed")->getAsUINT64();
  recipe.finitePrefill = o->getBoolean("finite_prefill").value_or(false);
  recipe.schedule = unsigned(o->getInteger("schedule").value_or(0));
  size_t next = 0;
  for (const json::Value &v : *given) {
    std::optional<int64_t> i = v.getAsInteger();
    if (!i || *i < 0 || size_t(*i) >= specs.size() || next >= blobs.size() ||
        int64_t(blobs[next].size()) != specs[*i].sizeInBytes()) {
      error = "malformed argument recipe";
      return failure();
    }
    HostBuffer b(specs[*i]);
    b.bytes = std::move(blobs[next++]);
    recipe.given.emplace_back(unsigned(*i), std::move(b));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The judge's side
//===----------------------------------------------------------------------===//

namespace {

class RemoteRunner : public CandidateRunner {
public:
  RemoteRunner(pid_t pid, int toChild, int fromChild)
      : pid(pid), toChild(toChild), fromChild(fromChild) {}
  ~RemoteRunner() override {
    if (toChild >= 0)
      ::close(toChild); // the runner exits at end of input
    ::close(fromChild);
    if (pid > 0) {
      // Give it a moment to exit on its own, then make sure.
      for (int i = 0; i < 50; ++i) {
        if (::waitpid(pid, nullptr, WNOHANG) == pid)
          return;
        ::usleep(2000);
      }
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
  }

  /// Sends a request and reads the reply; a runner that died on the way is
  /// an error naming how it died.
  LogicalResult call(const json::Value &request,
                     ArrayRef<ArrayRef<uint8_t>> blobs, RunnerMessage &reply,
                     std::string &error) {
    if (succeeded(writeRunnerMessage(toChild, request, blobs, error)) &&
        succeeded(readRunnerMessage(fromChild, reply, error)))
      return success();
    error = describeDeath(error);
    return failure();
  }

  void setSpecs(ArrayRef<ArgSpec> s) { specs.assign(s.begin(), s.end()); }
  /// The runner's start, as it reported it, and what the process took
  /// before it (fork, exec, loading) as the step "starting the process".
  void setStartSteps(const json::Value *steps, double wallSeconds) {
    addStepTimesFromJSON(steps, startSteps);
    double reported = 0;
    for (const auto &step : startSteps)
      reported += step.second;
    startSteps.insert(
        startSteps.begin(),
        {"starting the process", std::max(0.0, wallSeconds - reported)});
  }

  LogicalResult finish(std::string &error) override {
    if (pid <= 0)
      return success();
    ::close(toChild); // end of requests: the runner exits
    toChild = -1;
    int status = 0;
    if (::waitpid(pid, &status, 0) != pid) {
      error = "lost the candidate's runner";
      return failure();
    }
    pid = -1;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
      return success();
    if (WIFEXITED(status) && WEXITSTATUS(status) == kSanitizerExitCode)
      error = "compute-sanitizer reported errors in the candidate (its "
              "report is in the log)";
    else if (WIFSIGNALED(status))
      error = llvm::formatv("the candidate's process died at exit: signal {0}",
                            WTERMSIG(status))
                  .str();
    else
      error = llvm::formatv("the candidate's process exited with code {0}",
                            WEXITSTATUS(status))
                  .str();
    return failure();
  }

  LogicalResult run(const ArgumentRecipe &recipe, RunOutcome &outcome,
                    std::string &error) override {
    SmallVector<ArrayRef<uint8_t>> blobs;
    for (const auto &[i, buffer] : recipe.given)
      blobs.push_back(buffer.bytes);
    RunnerMessage reply;
    if (failed(
            call(json::Object{{"op", "run"}, {"recipe", writeRecipe(recipe)}},
                 blobs, reply, error)))
      return failure();
    const json::Object *h = reply.header.getAsObject();
    if (!h || !h->getBoolean("ok").value_or(false)) {
      error = h ? h->getString("error").value_or("").str() : "bad reply";
      return failure();
    }
    outcome.guardDamage = h->getString("guard_damage").value_or("").str();
    addStepTimesFromJSON(h->get("steps"), outcome.steps);
    json::Path::Root root("run reply");
    if (!h->get("input_checksums") ||
        !json::fromJSON(*h->get("input_checksums"), outcome.inputChecksums,
                        json::Path(root))) {
      error = "malformed reply to a run request";
      return failure();
    }
    size_t next = 0;
    return takeOutputs(specs, reply.blobs, next, outcome.args, error);
  }

  LogicalResult time(uint64_t seed, const TimedRunsRequest &request,
                     TimedRunsOutcome &outcome, std::string &error) override {
    RunnerMessage reply;
    json::Object header{
        {"op", "time"}, {"seed", seed}, {"request", toJSON(request)}};
    if (failed(call(std::move(header), {}, reply, error)))
      return failure();
    const json::Object *h = reply.header.getAsObject();
    if (!h) {
      error = "bad reply to a timing request";
      return failure();
    }
    json::Path::Root root("timing reply");
    json::ObjectMapper o(reply.header, root);
    std::vector<unsigned> sampledRuns, sampledSets, pairSets, pairPrevious;
    std::vector<std::vector<uint64_t>> pairChecksums;
    if (!o || !o.map("baseline_samples", outcome.baselineSamples) ||
        !o.map("candidate_samples", outcome.candidateSamples) ||
        !o.map("rounds", outcome.rounds) ||
        !o.map("budget_exhausted", outcome.budgetExhausted) ||
        !o.map("failed_kernel", outcome.failedKernel) ||
        !o.map("error", outcome.error) ||
        !o.map("run_input_set", outcome.runInputSet) ||
        !o.map("input_checksums", outcome.inputChecksums) ||
        !o.map("guard_damage", outcome.guardDamage) ||
        !o.map("guard_damage_run", outcome.guardDamageRun) ||
        !o.map("sampled_runs", sampledRuns) ||
        !o.map("sampled_sets", sampledSets) ||
        !o.map("back_to_back_sets", pairSets) ||
        !o.map("back_to_back_previous", pairPrevious) ||
        !o.map("back_to_back_checksums", pairChecksums) ||
        sampledRuns.size() != sampledSets.size() ||
        pairSets.size() != pairPrevious.size() ||
        pairSets.size() != pairChecksums.size()) {
      error = "malformed reply to a timing request: " +
              llvm::toString(root.getError());
      return failure();
    }
    addStepTimesFromJSON(h->get("steps"), outcome.steps);
    size_t next = 0;
    for (auto [run, set] : llvm::zip(sampledRuns, sampledSets)) {
      SampledRun s;
      s.run = run;
      s.inputSet = set;
      if (failed(takeOutputs(specs, reply.blobs, next, s.args, error)))
        return failure();
      outcome.sampled.push_back(std::move(s));
    }
    for (auto [set, previous, sums] :
         llvm::zip(pairSets, pairPrevious, pairChecksums)) {
      BackToBackRun pair;
      pair.inputSet = set;
      pair.previousSet = previous;
      pair.inputChecksums = std::move(sums);
      if (failed(takeOutputs(specs, reply.blobs, next, pair.args, error)))
        return failure();
      outcome.backToBack.push_back(std::move(pair));
    }
    return success();
  }

private:
  std::string describeDeath(const std::string &why) {
    // A runner that closed its pipe is usually on its way out: give it a
    // moment to be reaped before calling it a protocol breaker.
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < 200 && done == 0; ++i) {
      done = ::waitpid(pid, &status, WNOHANG);
      if (done == 0)
        ::usleep(10000);
    }
    if (done == 0) {
      // Alive, but its reply was not a message: it is not to be trusted
      // with another request.
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
      pid = -1;
      return "the candidate's runner broke the protocol: " + why;
    }
    if (done != pid)
      return "lost the candidate's runner: " + why;
    pid = -1;
    if (WIFSIGNALED(status))
      return llvm::formatv("the candidate's process died: signal {0} ({1})",
                           WTERMSIG(status), strsignal(WTERMSIG(status)))
          .str();
    return llvm::formatv("the candidate's process exited with code {0} "
                         "mid-request",
                         WIFEXITED(status) ? WEXITSTATUS(status) : -1)
        .str();
  }

  pid_t pid;
  int toChild, fromChild;
  SmallVector<ArgSpec> specs;
};

} // namespace

FailureOr<std::unique_ptr<CandidateRunner>>
mlir::stark::startRunnerProcess(StringRef runnerPath, const RunnerStart &start,
                                EvalStatus &status, std::string &error) {
  status = EvalStatus::Error;
  // A runner that dies must not take the judge with it through SIGPIPE.
  ::signal(SIGPIPE, SIG_IGN);
  int down[2], up[2];
  if (::pipe2(down, O_CLOEXEC) != 0) {
    error = std::string("cannot make a pipe: ") + std::strerror(errno);
    return failure();
  }
  if (::pipe2(up, O_CLOEXEC) != 0) {
    error = std::string("cannot make a pipe: ") + std::strerror(errno);
    ::close(down[0]);
    ::close(down[1]);
    return failure();
  }
  // Outputs of tens of megabytes come back through `up`: a pipe of the
  // default 64 KiB took a context switch each 64 KiB. Best effort: a
  // system whose limit is lower keeps the default.
  for (int fd : {down[1], up[1]})
    (void)::fcntl(fd, F_SETPIPE_SZ, kPipeBytes);
  // Built before the fork: the child only execs.
  std::vector<std::string> words = start.launcher;
  words.push_back(runnerPath.str());
  words.push_back("--run-candidate");
  std::vector<const char *> argv;
  for (const std::string &w : words)
    argv.push_back(w.c_str());
  argv.push_back(nullptr);
  pid_t judge = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) {
    error = std::string("cannot start the runner: ") + std::strerror(errno);
    for (int fd : {down[0], down[1], up[0], up[1]})
      ::close(fd);
    return failure();
  }
  if (pid == 0) {
    // Only async-signal-safe calls until exec. The runner dies with the
    // judge, reads stdin, replies on 3, and prints to the judge's log.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != judge)
      ::_exit(127);
    ::dup2(down[0], 0);
    ::dup2(up[1], 3);
    ::dup2(2, 1);
    for (int fd = 4; fd < 1024; ++fd)
      ::close(fd);
    if (::chdir("/") != 0)
      ::_exit(127);
    ::execvp(argv[0], const_cast<char *const *>(argv.data()));
    ::_exit(127);
  }
  ::close(down[0]);
  ::close(up[1]);
  auto runner = std::make_unique<RemoteRunner>(pid, down[1], up[0]);
  auto forked = std::chrono::steady_clock::now();

  json::Object request{
      {"op", "start"},
      {"target", start.targetName},
      {"problem", start.problemSource},
      {"problem_name", start.problemName},
      {"candidate", start.candidateSource},
      {"candidate_name", start.candidateName},
      {"entry", start.entry},
      {"synthesize_elided_weights", start.synthesizeElidedWeights},
  };
  RunnerMessage reply;
  if (failed(runner->call(std::move(request), {}, reply, error))) {
    status = EvalStatus::Crash;
    error = "while compiling the candidate: " + error;
    return failure();
  }
  const json::Object *h = reply.header.getAsObject();
  if (!h) {
    error = "bad reply to the start request";
    return failure();
  }
  if (!h->getBoolean("ok").value_or(false)) {
    std::optional<EvalStatus> s =
        symbolizeEvalStatus(h->getString("status").value_or("error"));
    status = s.value_or(EvalStatus::Error);
    error = h->getString("message").value_or("").str();
    return failure();
  }
  std::vector<ArgSpec> specs;
  for (const json::Value &v : *h->getArray("args")) {
    const json::Object *a = v.getAsObject();
    ArgSpec spec;
    for (const json::Value &d : *a->getArray("shape"))
      spec.shape.push_back(*d.getAsInteger());
    spec.kind = *symbolizeElementKind(*a->getString("kind"));
    spec.isOutput = *a->getBoolean("output");
    specs.push_back(spec);
  }
  runner->setSpecs(specs);
  runner->setStartSteps(
      h->get("steps"),
      std::chrono::duration<double>(std::chrono::steady_clock::now() - forked)
          .count());
  return std::unique_ptr<CandidateRunner>(std::move(runner));
}

FailureOr<std::vector<std::string>>
mlir::stark::getSanitizerLauncher(StringRef tool, std::string &error) {
  if (!llvm::is_contained({"memcheck", "racecheck", "initcheck", "synccheck"},
                          tool)) {
    error = ("unknown compute-sanitizer tool '" + tool +
             "' (memcheck, racecheck, initcheck, synccheck)")
                .str();
    return failure();
  }
  llvm::ErrorOr<std::string> program =
      llvm::sys::findProgramByName("compute-sanitizer");
  if (!program)
    program = llvm::sys::findProgramByName("compute-sanitizer",
                                           {"/usr/local/cuda/bin"});
  if (!program) {
    error = "compute-sanitizer is not installed (looked on PATH and in "
            "/usr/local/cuda/bin)";
    return failure();
  }
  return std::vector<std::string>{*program,
                                  "--tool",
                                  tool.str(),
                                  "--error-exitcode",
                                  std::to_string(kSanitizerExitCode),
                                  "--print-limit",
                                  "20"};
}

//===----------------------------------------------------------------------===//
// The runner's side
//===----------------------------------------------------------------------===//

namespace {

/// The runner's state between requests.
struct RunnerState {
  std::unique_ptr<MLIRContext> context;
  OwningOpRef<ModuleOp> problem, candidate;
  SmallVector<OwningOpRef<ModuleOp>> lowered; // compiled clones, kept alive
  std::unique_ptr<Target> target;
  KernelSignature signature;
  SmallVector<bool> outputIsRead;
  std::unique_ptr<CompiledKernel> candidateKernel, baselineKernel;
  std::unique_ptr<ArgBuffers> candidateArgs, baselineArgs;
  std::string baselineError;
  /// The arguments last drawn, by distribution and seed: a trial's two runs
  /// share their inputs, drawn once. A run's recipe changes the outputs of
  /// `drawn` in place (copying the inputs for each run cost as much as the
  /// run for a model's weights); `drawnOutputs` keeps the outputs as drawn.
  std::optional<std::pair<Distribution, uint64_t>> drawnFor;
  std::vector<HostBuffer> drawn;
  std::vector<std::pair<size_t, HostBuffer>> drawnOutputs;
  /// getInputChecksums(drawn): the recipes change outputs only.
  std::vector<uint64_t> drawnSums;

  json::Object start(const json::Object &request);
  bool ensureBaseline();
  const std::vector<HostBuffer> &argumentsFor(const ArgumentRecipe &recipe);
};

} // namespace

static json::Object startFailure(EvalStatus status, StringRef message) {
  // json::Value keeps a StringRef as a reference: copy the message.
  return json::Object{{"ok", false},
                      {"status", stringifyEvalStatus(status)},
                      {"message", message.str()}};
}

const std::vector<HostBuffer> &
RunnerState::argumentsFor(const ArgumentRecipe &recipe) {
  std::pair<Distribution, uint64_t> key(recipe.dist, recipe.seed);
  if (drawnFor != key) {
    drawn =
        generateArguments(signature, outputIsRead, recipe.dist, recipe.seed);
    drawnFor = key;
    drawnSums = getInputChecksums(drawn);
    drawnOutputs.clear();
    for (auto [i, b] : llvm::enumerate(drawn))
      if (b.spec.isOutput)
        drawnOutputs.emplace_back(i, b);
  } else {
    for (const auto &[i, b] : drawnOutputs)
      drawn[i] = b;
  }
  drawn = applyRecipe(std::move(drawn), signature, outputIsRead, recipe);
  return drawn;
}

json::Object RunnerState::start(const json::Object &request) {
  DialectRegistry registry;
  registerEvalDialects(registry);
  context = std::make_unique<MLIRContext>(registry);
  context->disableMultithreading();
  auto str = [&](StringRef key) {
    return request.getString(key).value_or("").str();
  };
  StepTimes steps;
  StepTimer parsing(steps, "parsing the sources");
  EvalResult parsed;
  if (failed(parseEvalSources(
          str("problem"), str("problem_name"), str("candidate"),
          str("candidate_name"), str("entry"),
          request.getBoolean("synthesize_elided_weights").value_or(false),
          *context, problem, candidate, parsed)))
    return startFailure(parsed.status, parsed.message);
  std::string error;
  FailureOr<ProblemAnalysis> analysis = analyzeProblem(*problem, error);
  if (failed(analysis))
    return startFailure(EvalStatus::Error, error);
  signature = analysis->signature;
  outputIsRead = analysis->outputIsRead;
  parsing.stop();
  StepTimer creating(steps, "creating the target");
  target = createTarget(str("target"), *context, error);
  if (!target)
    return startFailure(EvalStatus::Error,
                        "target '" + str("target") + "': " + error);
  creating.stop();
  StepTimer compiling(steps, "compiling the candidate");
  lowered.push_back(OwningOpRef<ModuleOp>(candidate->clone()));
  FailureOr<std::unique_ptr<CompiledKernel>> k =
      target->compile(*lowered.back(), signature, error);
  if (failed(k))
    return startFailure(EvalStatus::CompileError, error);
  candidateKernel = std::move(*k);
  compiling.stop();
  StepTimer allocating(steps, "allocating the arguments");
  FailureOr<std::unique_ptr<ArgBuffers>> args =
      target->allocate(signature, error);
  if (failed(args))
    return startFailure(EvalStatus::Error,
                        "cannot allocate the arguments: " + error);
  candidateArgs = std::move(*args);
  allocating.stop();
  json::Array specs;
  for (const ArgSpec &spec : signature.args)
    specs.push_back(json::Object{{"shape", json::Array(spec.shape)},
                                 {"kind", stringifyElementKind(spec.kind)},
                                 {"output", spec.isOutput}});
  return json::Object{{"ok", true},
                      {"args", std::move(specs)},
                      {"steps", stepTimesToJSON(steps)}};
}

/// The baseline is compiled here only to be timed beside the candidate.
bool RunnerState::ensureBaseline() {
  if (baselineKernel)
    return true;
  if (!baselineError.empty())
    return false;
  lowered.push_back(OwningOpRef<ModuleOp>(problem->clone()));
  FailureOr<std::unique_ptr<CompiledKernel>> k =
      target->compile(*lowered.back(), signature, baselineError);
  if (failed(k))
    return false;
  FailureOr<std::unique_ptr<ArgBuffers>> args =
      target->allocate(signature, baselineError);
  if (failed(args))
    return false;
  baselineKernel = std::move(*k);
  baselineArgs = std::move(*args);
  return true;
}

int mlir::stark::serveCandidateRunner() {
  constexpr int in = 0, out = 3;
  RunnerState state;
  std::string error;
  while (true) {
    RunnerMessage request;
    if (failed(readRunnerMessage(in, request, error)))
      return 0; // the judge is done (or gone)
    const json::Object *h = request.header.getAsObject();
    StringRef op = h ? h->getString("op").value_or("") : "";
    json::Object reply;
    std::vector<HostBuffer> replyArgs;
    SmallVector<ArrayRef<uint8_t>> blobs;
    TimedRunsOutcome timed;
    if (op == "start") {
      reply = state.start(*h);
    } else if (!state.candidateKernel) {
      reply = json::Object{{"ok", false}, {"error", "not started"}};
    } else if (op == "run") {
      ArgumentRecipe recipe;
      RunOutcome outcome;
      const std::vector<HostBuffer> *args = nullptr;
      if (succeeded(readRecipe(h->get("recipe"), state.signature.args,
                               request.blobs, recipe, error))) {
        StepTimer step(outcome.steps, "making the arguments");
        args = &state.argumentsFor(recipe);
      }
      if (!args || failed(runOnce(*state.target, *state.candidateKernel,
                                  *state.candidateArgs, *args, state.drawnSums,
                                  recipe.schedule, outcome, error))) {
        reply = json::Object{{"ok", false}, {"error", error}};
      } else {
        reply = json::Object{
            {"ok", true},
            {"guard_damage", outcome.guardDamage},
            {"input_checksums", json::Array(outcome.inputChecksums)},
            {"steps", stepTimesToJSON(outcome.steps)}};
        replyArgs = std::move(outcome.args);
        appendOutputBlobs(replyArgs, blobs);
      }
    } else if (op == "time") {
      TimedRunsRequest timing;
      json::Path::Root root("request");
      std::optional<uint64_t> seed =
          h->get("seed") ? h->get("seed")->getAsUINT64() : std::nullopt;
      bool ok = seed && h->get("request") &&
                fromJSON(*h->get("request"), timing, json::Path(root));
      std::vector<std::vector<HostBuffer>> sets;
      StepTimes making;
      if (ok)
        sets = makeTimingArguments(state.signature, state.outputIsRead, *seed,
                                   making);
      if (!ok) {
        timed.failedKernel = 1;
        timed.error = "malformed timing request";
      } else if (!state.ensureBaseline()) {
        timed.failedKernel = 0;
        timed.error = "the baseline does not compile: " + state.baselineError;
      } else {
        timed = timeBaselineAndCandidate(
            *state.target, *state.baselineKernel, *state.baselineArgs,
            *state.candidateKernel, *state.candidateArgs, sets, timing);
      }
      addStepTimes(making, timed.steps);
      json::Array runs, setsOf;
      for (const SampledRun &s : timed.sampled) {
        runs.push_back(s.run);
        setsOf.push_back(s.inputSet);
        appendOutputBlobs(s.args, blobs);
      }
      json::Array pairSets, pairPrevious, pairChecksums;
      for (const BackToBackRun &pair : timed.backToBack) {
        pairSets.push_back(pair.inputSet);
        pairPrevious.push_back(pair.previousSet);
        pairChecksums.push_back(json::Array(pair.inputChecksums));
        appendOutputBlobs(pair.args, blobs);
      }
      json::Array checksums;
      for (const std::vector<uint64_t> &c : timed.inputChecksums)
        checksums.push_back(json::Array(c));
      reply = json::Object{
          {"baseline_samples", json::Array(timed.baselineSamples)},
          {"candidate_samples", json::Array(timed.candidateSamples)},
          {"rounds", timed.rounds},
          {"budget_exhausted", timed.budgetExhausted},
          {"failed_kernel", timed.failedKernel},
          {"error", timed.error},
          {"run_input_set", json::Array(timed.runInputSet)},
          {"input_checksums", std::move(checksums)},
          {"guard_damage", timed.guardDamage},
          {"guard_damage_run", timed.guardDamageRun},
          {"sampled_runs", std::move(runs)},
          {"sampled_sets", std::move(setsOf)},
          {"back_to_back_sets", std::move(pairSets)},
          {"back_to_back_previous", std::move(pairPrevious)},
          {"back_to_back_checksums", std::move(pairChecksums)},
          {"steps", stepTimesToJSON(making)},
      };
    } else {
      reply = json::Object{{"ok", false}, {"error", "unknown request"}};
    }
    if (failed(writeRunnerMessage(out, json::Value(std::move(reply)), blobs,
                                  error)))
      return 1;
  }
}

//===- stark-eval.cpp - Verify and time one candidate against a problem ---===//
//
// stark-eval --problem P.mlir --candidate C.mlir --target cpu|cuda [--json]
//
// The problem is a kernel problem (stark.problem) or a whole program on
// tensors (a model, checked against what stark-opt made of it).
//
// Runs the evaluation in a worker process (this same binary with --worker)
// so a crashing or hanging candidate becomes a reported failure. Exits 0
// only for a verified candidate.
//
//===----------------------------------------------------------------------===//

#include "stark/Eval/Evaluator.h"
#include "stark/Eval/MpiEval.h"
#include "stark/Eval/RunnerProcess.h"
#include "stark/Eval/Worker.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <climits>
#include <malloc.h>
#include <optional>

using namespace mlir;
using namespace mlir::stark;
namespace cl = llvm::cl;

static cl::OptionCategory category("stark-eval options");

static cl::opt<std::string> problemPath("problem", cl::desc("Problem module"),
                                        cl::value_desc("file"),
                                        cl::cat(category));
static cl::opt<std::string> candidatePath("candidate",
                                          cl::desc("Candidate module"),
                                          cl::value_desc("file"),
                                          cl::cat(category));
static cl::opt<std::string>
    entryName("entry",
              cl::desc("Entry function of a whole program on tensors given "
                       "as problem and candidate (default: its only public "
                       "function)"),
              cl::value_desc("name"), cl::cat(category));
static cl::opt<bool> synthesizeElidedWeights(
    "synthesize-elided-weights",
    cl::desc("Give the weights a whole program has no data for "
             "(dense_resource<__elided__>, a blob the file lacks) "
             "deterministic synthesised ones, for timing and verification "
             "(the same as --stark-pipeline's synthesize-elided-weights)"),
    cl::cat(category));
static cl::opt<std::string> targetName("target", cl::desc("cpu or cuda"),
                                       cl::init("cpu"), cl::cat(category));
static cl::opt<bool> printJson("json", cl::desc("Print the result as JSON"),
                               cl::cat(category));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of the generated inputs"),
                              cl::init(0), cl::cat(category));
static cl::opt<unsigned>
    correctnessTrials("correctness-trials",
                      cl::desc("Correctness trials (fresh inputs each; the "
                               "distribution cycles uniform, normal, large, "
                               "tiny, negative)"),
                      cl::init(EvalOptions().correctnessTrials),
                      cl::cat(category));
static cl::opt<unsigned>
    extraTrials("extra-trials",
                cl::desc("Extra correctness trials when the speedup is "
                         "suspicious"),
                cl::init(EvalOptions().extraTrials), cl::cat(category));
static cl::opt<double> suspiciousSpeedup(
    "suspicious-speedup",
    cl::desc("Speedup above which the extra trials run and a flag is set"),
    cl::init(EvalOptions().suspiciousSpeedup), cl::cat(category));
static cl::opt<double> screenBelowSpeedup(
    "screen-below-speedup",
    cl::desc("Time the candidate after its first correctness trial; below "
             "this speedup over the baseline stop there with the status "
             "'slower' (not verified further). 0: every trial"),
    cl::init(EvalOptions().screenBelowSpeedup), cl::cat(category));
static cl::opt<uint64_t> maxHighPrecisionIterations(
    "max-high-precision-iterations",
    cl::desc("Largest f16/bf16 problem (loop iterations) that also gets the "
             "f32 reference on the host"),
    cl::init(EvalOptions().maxHighPrecisionIterations), cl::cat(category));
static cl::opt<bool> noF64Reference(
    "no-f64-reference",
    cl::desc("Judge f32 problems by their baseline alone (no f64 "
             "reference run on the target)"),
    cl::cat(category));
static cl::opt<bool>
    allowTf32("allow-tf32",
              cl::desc("Hold the f32 outputs of a reduction to the tf32 bound "
                       "(stark-search's allow-tf32)"),
              cl::cat(category));
static cl::opt<unsigned> trials("trials",
                                cl::desc("Minimum number of timed trials"),
                                cl::init(TimingOptions().minTrials),
                                cl::cat(category));
static cl::opt<unsigned> maxTrials("max-trials",
                                   cl::desc("Maximum number of timed trials"),
                                   cl::init(TimingOptions().maxTrials),
                                   cl::cat(category));
static cl::opt<unsigned> warmup("warmup", cl::desc("Untimed warm-up runs"),
                                cl::init(TimingOptions().warmupRuns),
                                cl::cat(category));
static cl::opt<double> timeBudget(
    "time-budget",
    cl::desc("Seconds of timing after which to stop once --trials are done"),
    cl::init(TimingOptions().budgetSeconds), cl::cat(category));
static cl::opt<double>
    targetSpread("target-spread",
                 cl::desc("Stop timing early once IQR/median is at most this"),
                 cl::init(TimingOptions().targetRelativeSpread),
                 cl::cat(category));
static cl::opt<double> spreadFloor(
    "spread-floor",
    cl::desc("Stop timing early also once the IQR is at most this many "
             "seconds (CUDA events resolve about half a microsecond)"),
    cl::init(TimingOptions().spreadFloorSeconds), cl::cat(category));
static cl::opt<double> targetMedianError(
    "target-median-error",
    cl::desc("Stop timing a kernel also once its median's estimated "
             "standard error is at most this share of the median (0: off)"),
    cl::init(TimingOptions().targetMedianError), cl::cat(category));
static cl::opt<std::string> referenceDir(
    "references",
    cl::desc("Reference store: read the baseline's and the high-precision "
             "reference's outputs of each trial input from DIR where they "
             "are stored (see --write-references)"),
    cl::value_desc("dir"), cl::cat(category));
static cl::opt<bool> writeReferences(
    "write-references",
    cl::desc("Compute the reference outputs and store them in --references "
             "(evaluate the problem against itself to fill a store)"),
    cl::cat(category));
static cl::opt<bool> noTiming("no-timing", cl::desc("Verify only, do not time"),
                              cl::cat(category));
static cl::opt<bool> noFlush("no-cache-flush",
                             cl::desc("Do not flush the cache before timed "
                                      "runs"),
                             cl::cat(category));
static cl::opt<bool> gateHostPrograms(
    "gate-host-programs",
    cl::desc("cuda: time a lowered host program (an MLIR candidate, the "
             "baseline, a whole program) with its kernels queued before the "
             "device starts them, as a CUDA graph runs them, instead of with "
             "the host's gaps between launches"),
    cl::cat(category));
static cl::opt<bool> graphHostPrograms(
    "graph-host-programs",
    cl::desc("cuda: time a lowered host program (an MLIR candidate, the "
             "baseline, a whole program) as a CUDA graph: its launches are "
             "captured once and the graph's replays are timed, as a runtime "
             "with CUDA graphs runs the program (the verdict still comes "
             "from running the host code)"),
    cl::cat(category));
static cl::opt<double> timeout("timeout",
                               cl::desc("Seconds the worker may take in all"),
                               cl::init(WorkerOptions().timeoutSeconds),
                               cl::cat(category));
static cl::opt<bool>
    inProcess("in-process",
              cl::desc("Evaluate in this process (no isolation; debugging)"),
              cl::cat(category));
static cl::opt<bool>
    keepWorkerFiles("keep-worker-files",
                    cl::desc("Keep the worker's request directory (debugging)"),
                    cl::cat(category));
static cl::opt<std::string>
    workerDir("worker", cl::desc("Internal: run as the worker on DIR"),
              cl::value_desc("dir"), cl::Hidden, cl::cat(category));
static cl::opt<bool> runCandidate(
    "run-candidate",
    cl::desc("Internal: run as a worker's candidate runner (on stdin and "
             "descriptor 3)"),
    cl::Hidden, cl::cat(category));
static cl::opt<std::string> sanitizer(
    "sanitize",
    cl::desc("Run the candidate under compute-sanitizer with this tool "
             "(memcheck, racecheck, initcheck, synccheck); a finding makes it "
             "wrong"),
    cl::value_desc("tool"), cl::cat(category));
static cl::opt<bool> noSpecialValues(
    "no-special-values",
    cl::desc("Skip the trial with NaN, infinities, -0, denormals and -inf "
             "masks in the inputs"),
    cl::cat(category));

static cl::opt<bool> serveMpi(
    "serve-mpi",
    cl::desc("Run as an evaluation server on an MPI rank other than 0: "
             "evaluate what rank 0 (stark-opt ... mpi=1) sends until it says "
             "stop (docs/distributed.md)"),
    cl::cat(category));
static cl::opt<std::string>
    serveDevice("device",
                cl::desc("With --serve-mpi: CUDA_VISIBLE_DEVICES of this "
                         "server's workers (default: as inherited)"),
                cl::cat(category));
static cl::opt<int> mpiExitAfter(
    "mpi-exit-after",
    cl::desc("Testing, with --serve-mpi: answer this many jobs, then exit "
             "without answering the next, as a rank that dies mid-search"),
    cl::init(-1), cl::Hidden, cl::cat(category));

static std::optional<std::string> readSource(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (!buffer) {
    llvm::errs() << "stark-eval: cannot read '" << path
                 << "': " << buffer.getError().message() << "\n";
    return std::nullopt;
  }
  return (*buffer)->getBuffer().str();
}

int main(int argc, char **argv) {
  // An evaluation makes and drops buffers of the problem's size for every
  // trial. glibc maps each large one afresh and unmaps it when freed, so
  // every trial faulted its pages in again (half of a run's time for a
  // 25 MB problem); from the heap, kept, they are reused.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);

  // The worker runs untrusted code: its crashes are expected, reported by
  // the parent, and need no stack dump of the worker.
  bool isWorker = false;
  for (int i = 1; i < argc; ++i)
    if (StringRef(argv[i]).starts_with("--worker") ||
        StringRef(argv[i]) == "--run-candidate")
      isWorker = true;
  std::optional<llvm::InitLLVM> init;
  if (!isWorker)
    init.emplace(argc, argv);

  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "stark-eval: verify a candidate against a kernel problem and time "
      "both\n");

  if (!workerDir.empty())
    return runEvalWorker(workerDir);
  if (runCandidate)
    return serveCandidateRunner();
  if (serveMpi) {
    MpiServeOptions serve;
    serve.cudaDevice = serveDevice;
    serve.exitAfter = mpiExitAfter;
    return serveMpiEvaluations(serve);
  }

  if (problemPath.empty() || candidatePath.empty()) {
    llvm::errs() << "stark-eval: --problem and --candidate are required\n";
    return 2;
  }
  if (!sanitizer.empty() && (targetName != "cuda" || inProcess)) {
    llvm::errs() << "stark-eval: --sanitize runs a cuda candidate in its own "
                    "process: it needs --target cuda and no --in-process\n";
    return 2;
  }
  if (!(screenBelowSpeedup >= 0)) {
    llvm::errs() << "stark-eval: --screen-below-speedup must be at least 0\n";
    return 2;
  }
  if (gateHostPrograms && graphHostPrograms) {
    llvm::errs() << "stark-eval: --gate-host-programs and "
                    "--graph-host-programs are two ways to time a host "
                    "program: choose one\n";
    return 2;
  }
  if (writeReferences && referenceDir.empty()) {
    llvm::errs() << "stark-eval: --write-references needs --references\n";
    return 2;
  }
  std::optional<std::string> problem = readSource(problemPath);
  std::optional<std::string> candidate = readSource(candidatePath);
  if (!problem || !candidate)
    return 2;

  EvalOptions options;
  options.seed = seed;
  options.correctnessTrials = correctnessTrials;
  options.extraTrials = extraTrials;
  options.suspiciousSpeedup = suspiciousSpeedup;
  options.maxHighPrecisionIterations = maxHighPrecisionIterations;
  options.f64Reference = !noF64Reference;
  options.allowTf32 = allowTf32;
  options.measureTime = !noTiming;
  options.screenBelowSpeedup = screenBelowSpeedup;
  options.specialValues = !noSpecialValues;
  options.sanitizer = sanitizer;
  options.entry = entryName;
  options.synthesizeElidedWeights = synthesizeElidedWeights;
  options.referenceDir = referenceDir;
  options.writeReferences = writeReferences;
  options.timing.minTrials = trials;
  options.timing.maxTrials = maxTrials;
  options.timing.warmupRuns = warmup;
  options.timing.budgetSeconds = timeBudget;
  options.timing.targetRelativeSpread = targetSpread;
  options.timing.spreadFloorSeconds = spreadFloor;
  options.timing.targetMedianError = targetMedianError;
  options.timing.flushCache = !noFlush;
  options.timing.gateHostPrograms = gateHostPrograms;
  options.timing.graphHostPrograms = graphHostPrograms;

  EvalResult result;
  if (inProcess) {
    result = evaluateSources(*problem, problemPath, *candidate, candidatePath,
                             targetName, options);
  } else {
    WorkerOptions worker;
    worker.targetName = targetName;
    worker.timeoutSeconds = timeout;
    worker.keepFiles = keepWorkerFiles;
    result = evaluateInWorker(*problem, problemPath, *candidate, candidatePath,
                              options, worker);
  }

  if (printJson)
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(toJSON(result)))
                 << "\n";
  else
    llvm::outs() << formatEvalResult(result);
  llvm::outs().flush();
  return result.isOk() ? 0 : 1;
}

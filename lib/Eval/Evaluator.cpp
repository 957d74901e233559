//===- Evaluator.cpp - Verify and time a candidate against a problem ------===//

#include "stark/Eval/Evaluator.h"
#include "stark/Dialect/StarkAttrs.h"
#include "stark/Dialect/StarkDialect.h"
#include "stark/Eval/CandidateRunner.h"
#include "stark/Eval/Inputs.h"
#include "stark/Eval/ProblemAnalysis.h"
#include "stark/Eval/References.h"
#include "stark/Eval/TensorProgram.h"
#include "stark/Target/CpuTarget.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <random>

using namespace mlir;
using namespace mlir::stark;

bool EvalResult::hasFlag(StringRef flag) const {
  return llvm::is_contained(flags, flag);
}

//===----------------------------------------------------------------------===//
// The protocol
//===----------------------------------------------------------------------===//

/// `buffers` with every float element kind narrower than `wide` converted
/// to `wide` (exactly: every narrower float is representable).
static std::vector<HostBuffer> widenFloats(ArrayRef<HostBuffer> buffers,
                                           ElementKind wide) {
  std::vector<HostBuffer> widened;
  for (const HostBuffer &b : buffers) {
    ArgSpec spec = widenSpec(b.spec, wide);
    widened.emplace_back(spec);
    if (spec.kind == b.spec.kind) {
      widened.back().bytes = b.bytes;
      continue;
    }
    HostBuffer &w = widened.back();
    forEachChunk(spec.numElements(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        w.setFromDouble(i, b.getAsDouble(i));
    });
  }
  return widened;
}

namespace {

/// A kernel together with the argument storage it runs on.
struct Runner {
  std::unique_ptr<CompiledKernel> kernel;
  std::unique_ptr<ArgBuffers> args;

  /// Uploads `in`, runs once, downloads every argument into `out`.
  LogicalResult run(ArrayRef<HostBuffer> in, std::vector<HostBuffer> &out,
                    std::string &error) {
    if (failed(args->upload(in, error)) || failed(kernel->run(*args, error)))
      return failure();
    out.clear();
    for (const HostBuffer &b : in)
      out.emplace_back(b.spec);
    return args->download(out, error);
  }
};

class Evaluation {
public:
  Evaluation(Target &target, ModuleOp problem, ModuleOp candidate,
             const EvalOptions &options, const RunnerFactory &startRunner,
             EvalResult &result)
      : target(target), problem(problem), candidate(candidate),
        options(options), startRunner(startRunner), result(result) {}

  void run();
  /// Adds the time since the current phase began to its kind's total.
  void notePhaseEnd();

private:
  void phase(const std::string &text) {
    notePhaseEnd();
    result.phase = text;
    StringRef kind = StringRef(text).split(':').first.rtrim();
    auto it = llvm::find_if(result.phaseSeconds,
                            [&](const auto &p) { return p.first == kind; });
    currentPhase = it - result.phaseSeconds.begin();
    if (it == result.phaseSeconds.end())
      result.phaseSeconds.emplace_back(kind.str(), 0.0);
    if (options.onPhase)
      options.onPhase(text);
  }

  void finish(EvalStatus status, std::string message) {
    result.status = status;
    result.message = std::move(message);
  }
  void addFlag(StringRef flag) {
    if (!result.hasFlag(flag))
      result.flags.push_back(flag.str());
  }

  bool prepare();
  bool ensureBaseline();
  bool prepareCandidate();
  bool getReferences(ArrayRef<HostBuffer> host, Distribution dist,
                     uint64_t seed, StringRef where,
                     std::vector<HostBuffer> &expected,
                     std::vector<HostBuffer> &highOut);
  bool computeReferences(ArrayRef<HostBuffer> host, Distribution dist,
                         uint64_t seed, StringRef where,
                         std::vector<HostBuffer> &expected,
                         std::vector<HostBuffer> &highOut);
  bool runCandidate(ArrayRef<HostBuffer> host, ArrayRef<HostBuffer> expected,
                    const std::vector<HostBuffer> *highOut, Distribution dist,
                    uint64_t seed, bool garbagePrefill, StringRef where);
  /// Compares the checksums of the inputs the candidate was given with
  /// those after its run.
  bool checkInputsKept(ArrayRef<uint64_t> sent, ArrayRef<uint64_t> got,
                       StringRef where);
  bool isTf32Bound(ElementKind kind, int64_t reductionLength) const {
    return options.allowTf32 && kind == ElementKind::F32 && reductionLength > 1;
  }
  Tolerance getOutputTolerance(ElementKind kind, unsigned argIndex) const;
  /// f16/bf16 candidates are held to the high-precision reference alone;
  /// the problem itself, evaluated as its own candidate, to itself.
  bool isJudgedByHighPrecision() const {
    return analysis.isLowPrecision && !isProblemItself;
  }
  void prepareHigh();
  bool compileHigh(std::string &error);
  bool ensureHigh();
  void openStore();
  bool isReading() const { return store && !store->isWritable(); }
  bool isWriting() const { return store && store->isWritable(); }
  void saveReferences(uint64_t seed, Distribution dist,
                      const std::vector<HostBuffer> *expected,
                      const std::vector<HostBuffer> *highOut);
  bool runHigh(ArrayRef<HostBuffer> host, std::vector<HostBuffer> &highOut,
               StringRef where);
  bool runTrial(unsigned trial);
  bool runTrial(Distribution dist, uint64_t seed, std::string where);
  bool storeExtraReferences(unsigned first);
  bool timeAndCheck();
  bool checkOutputs(ArrayRef<HostBuffer> host, ArrayRef<HostBuffer> expected,
                    ArrayRef<HostBuffer> got,
                    const std::vector<HostBuffer> *highOut, Distribution dist,
                    uint64_t seed, StringRef where);
  bool measureConditioning(ArrayRef<HostBuffer> host,
                           ArrayRef<HostBuffer> highOut, uint64_t seed,
                           StringRef where,
                           std::vector<HostBuffer> &conditioning);

  Target &target;
  ModuleOp problem, candidate;
  const EvalOptions &options;
  const RunnerFactory &startRunner;
  EvalResult &result;
  size_t currentPhase = ~size_t(0);
  std::chrono::steady_clock::time_point phaseStart =
      std::chrono::steady_clock::now();

  ProblemAnalysis analysis;
  SmallVector<OwningOpRef<ModuleOp>> modules; // lowered clones, kept alive
  Runner baseline, high;
  /// The candidate, compiled here only without a runner factory.
  Runner local;
  /// Where the candidate runs: never decides anything.
  std::unique_ptr<CandidateRunner> runner;
  /// The candidate is the problem (the baseline's own evaluation, which
  /// writes the reference store and times the baseline).
  bool isProblemItself = false;
  /// The candidate's second run of a trial is being checked: its notes
  /// would repeat the first run's.
  bool isSecondRun = false;
  std::unique_ptr<Target> hostTarget; // for the high-precision reference
  /// There is a high-precision reference: compiled here, or stored.
  bool haveHigh = false;
  /// The element kind the high-precision reference computes in.
  ElementKind highKind = ElementKind::F32;
  /// Where reference outputs are read from or written to; null: nowhere.
  std::unique_ptr<ReferenceStore> store;
};

} // namespace

static std::string printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().assumeVerified());
  return text;
}

bool Evaluation::prepare() {
  result.target = target.getName().str();
  std::string reason = target.getUnavailableReason();
  if (!reason.empty()) {
    finish(EvalStatus::Error, llvm::formatv("target '{0}' cannot run here: {1}",
                                            target.getName(), reason)
                                  .str());
    return false;
  }

  std::string error;
  FailureOr<ProblemAnalysis> a = analyzeProblem(problem, error);
  if (failed(a)) {
    finish(EvalStatus::Error, error);
    return false;
  }
  analysis = std::move(*a);
  result.reductionLength = analysis.reductionLength;
  for (auto [i, spec] : llvm::enumerate(analysis.signature.args)) {
    if (!spec.isOutput)
      continue;
    result.tolerance = getOutputTolerance(spec.kind, i);
    result.toleranceKind = stringifyElementKind(spec.kind).str();
    if (isTf32Bound(spec.kind, analysis.reductionLength)) {
      Tolerance f32 = getTolerance(spec.kind, analysis.reductionLength);
      addFlag("tf32_tolerance");
      result.notes.push_back(
          llvm::formatv("allow-tf32: the f32 outputs are held to the tf32 "
                        "bound (atol {0:e2}, rtol {1:e2}) instead of the f32 "
                        "one (atol {2:e2}, rtol {3:e2}): tf32 tensor cores "
                        "round the inputs to 10 mantissa bits",
                        result.tolerance.atol, result.tolerance.rtol, f32.atol,
                        f32.rtol)
              .str());
    }
    break;
  }

  FailureOr<KernelSignature> candSig =
      getKernelSignature(candidate, analysis.entry, analysis.numOutputs, error);
  if (failed(candSig)) {
    finish(EvalStatus::CompileError, "candidate: " + error);
    return false;
  }
  if (failed(checkSameSignature(analysis.signature, *candSig, error))) {
    finish(EvalStatus::CompileError, error);
    return false;
  }

  isProblemItself = printModule(problem) == printModule(candidate);
  if (!prepareCandidate())
    return false;
  openStore();
  prepareHigh();
  return true;
}

/// The judge compiles the baseline only to compute references the store
/// does not hold (and, in-process, to time it beside the candidate).
bool Evaluation::ensureBaseline() {
  if (baseline.kernel)
    return true;
  phase("compiling the baseline");
  std::string error;
  modules.push_back(OwningOpRef<ModuleOp>(problem.clone()));
  FailureOr<std::unique_ptr<CompiledKernel>> k =
      target.compile(*modules.back(), analysis.signature, error);
  if (failed(k)) {
    finish(EvalStatus::Error,
           "the baseline (the problem itself) does not compile: " + error);
    return false;
  }
  auto args = target.allocate(analysis.signature, error);
  if (failed(args)) {
    finish(EvalStatus::Error, "cannot allocate the arguments: " + error);
    return false;
  }
  baseline.kernel = std::move(*k);
  baseline.args = std::move(*args);
  return true;
}

/// Starts the candidate's runner: a process of its own when there is a
/// factory, else this one (tests, --in-process).
bool Evaluation::prepareCandidate() {
  std::string error;
  if (startRunner) {
    phase("compiling the candidate");
    EvalStatus status = EvalStatus::Error;
    FailureOr<std::unique_ptr<CandidateRunner>> r = startRunner(status, error);
    if (failed(r)) {
      finish(status, error);
      return false;
    }
    runner = std::move(*r);
    return true;
  }
  if (!ensureBaseline())
    return false;
  phase("compiling the candidate");
  modules.push_back(OwningOpRef<ModuleOp>(candidate.clone()));
  FailureOr<std::unique_ptr<CompiledKernel>> k =
      target.compile(*modules.back(), analysis.signature, error);
  if (failed(k)) {
    finish(EvalStatus::CompileError, error);
    return false;
  }
  local.kernel = std::move(*k);
  auto args = target.allocate(analysis.signature, error);
  if (failed(args)) {
    finish(EvalStatus::Error, "cannot allocate the arguments: " + error);
    return false;
  }
  local.args = std::move(*args);
  runner = createInProcessRunner(target, analysis.signature,
                                 analysis.outputIsRead, *baseline.kernel,
                                 *baseline.args, *local.kernel, *local.args);
  return true;
}

/// The bound of output `argIndex`, of `kind`, from the reduction length of
/// what computes that output: the tf32 one for the f32 outputs of a
/// reduction when the user allows tf32, else the element type's own.
Tolerance Evaluation::getOutputTolerance(ElementKind kind,
                                         unsigned argIndex) const {
  int64_t k = analysis.getReductionLength(argIndex);
  if (isTf32Bound(kind, k))
    return getTf32Tolerance(k);
  return getTolerance(kind, k);
}

/// The key of the reference store: everything the reference outputs of a
/// trial input depend on besides the trial itself.
static std::string getReferenceKey(ModuleOp problem, StringRef target,
                                   const EvalOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  problem->print(os);
  return llvm::formatv("problem {0:x16}; target {1}; seed {2}; f64 reference "
                       "{3}; max high-precision iterations {4}",
                       llvm::xxh3_64bits(text), target, options.seed,
                       options.f64Reference, options.maxHighPrecisionIterations)
      .str();
}

void Evaluation::openStore() {
  if (options.referenceDir.empty())
    return;
  if (options.writeReferences) {
    if (std::error_code ec =
            llvm::sys::fs::create_directories(options.referenceDir)) {
      result.notes.push_back("the references are not stored: cannot create '" +
                             options.referenceDir + "': " + ec.message());
      return;
    }
  }
  store = std::make_unique<ReferenceStore>(options.referenceDir,
                                           options.writeReferences,
                                           options.maxStoredReferenceBytes);
}

void Evaluation::prepareHigh() {
  std::string key;
  if (store)
    key = getReferenceKey(problem, target.getName(), options);
  // A reading evaluation takes the decision of the one that stored the
  // references: whether there is a high-precision reference, and why not.
  // It compiles that reference only when a trial input is not stored.
  if (isReading()) {
    if (std::optional<ReferenceManifest> m = store->readManifest(key)) {
      haveHigh = m->highKind.has_value();
      if (haveHigh)
        highKind = *m->highKind;
      for (const std::string &flag : m->flags)
        addFlag(flag);
      llvm::append_range(result.notes, m->notes);
      result.highPrecisionReference = haveHigh;
      return;
    }
    store.reset(); // nothing stored for this problem
  }
  size_t flagsBefore = result.flags.size();
  size_t notesBefore = result.notes.size();

  // f16/bf16: the problem in f32 on the host (naive loops, so capped).
  // f32 with a reduction: the problem in f64 on the same target, as costly
  // as the baseline. A blocked or split reduction is often more accurate
  // than the baseline's sequential one and may then differ from it by more
  // than the f32 bound while being closer to the exact result.
  bool f64Reference = options.f64Reference && analysis.isSinglePrecision &&
                      analysis.reductionLength > 1;
  // On the cpu target the f32 reference is the host's; elsewhere a large
  // problem's runs on the target itself (compileHigh), uncapped.
  if (analysis.isLowPrecision && target.getName() == "cpu" &&
      uint64_t(analysis.iterations) > options.maxHighPrecisionIterations) {
    addFlag("no_high_precision_reference");
    result.notes.push_back(
        llvm::formatv("no high-precision reference: the problem runs {0} "
                      "loop iterations, more than the host reference may "
                      "take ({1}); judged by the baseline alone",
                      analysis.iterations, options.maxHighPrecisionIterations)
            .str());
  } else if (analysis.isLowPrecision || f64Reference) {
    highKind = f64Reference ? ElementKind::F64 : ElementKind::F32;
    phase(f64Reference ? "compiling the high-precision reference (f64)"
                       : "compiling the high-precision reference (f32)");
    std::string error;
    haveHigh = compileHigh(error);
    result.highPrecisionReference = haveHigh;
    if (!haveHigh) {
      addFlag("no_high_precision_reference");
      result.notes.push_back("no high-precision reference: " + error);
    }
  }

  if (isWriting()) {
    ReferenceManifest m;
    m.key = key;
    if (haveHigh)
      m.highKind = highKind;
    m.flags.assign(result.flags.begin() + flagsBefore, result.flags.end());
    m.notes.assign(result.notes.begin() + notesBefore, result.notes.end());
    std::string error;
    if (failed(store->writeManifest(m, error))) {
      result.notes.push_back("the references are not stored: " + error);
      store.reset();
    }
  }
}

/// Up to this many loop iterations, the high-precision reference of a
/// problem on another target than the cpu runs on the host (the plain
/// lowering's loops: about a tenth of a second).
static constexpr uint64_t kIndependentIterations = uint64_t(1) << 24;

bool Evaluation::compileHigh(std::string &error) {
  MLIRContext *ctx = problem->getContext();
  Target *where = &target;
  FloatType wide = highKind == ElementKind::F64
                       ? FloatType(Float64Type::get(ctx))
                       : FloatType(Float32Type::get(ctx));
  // On another target than the cpu, the reference of a small problem runs
  // on the host: there it goes through another lowering than the baseline,
  // so a fault of the target's lowering does not show in both references
  // alike. A large one runs on the target, as fast as the baseline.
  bool onHost = uint64_t(analysis.iterations) <= kIndependentIterations;
  if (onHost && target.getName() != "cpu") {
    hostTarget = createCpuTarget(*ctx);
    where = hostTarget.get();
  }
  FailureOr<OwningOpRef<ModuleOp>> wideModule =
      promoteFloats(problem, wide, error);
  if (failed(wideModule))
    return false;
  modules.push_back(std::move(*wideModule));
  FailureOr<KernelSignature> wideSig = getKernelSignature(
      *modules.back(), analysis.entry, analysis.numOutputs, error);
  if (failed(wideSig))
    return false;
  FailureOr<std::unique_ptr<CompiledKernel>> k =
      where->compile(*modules.back(), *wideSig, error);
  if (failed(k))
    return false;
  auto args = where->allocate(*wideSig, error);
  if (failed(args))
    return false;
  high.kernel = std::move(*k);
  high.args = std::move(*args);
  return true;
}

/// A reading evaluation compiles the high-precision reference only for a
/// trial input that is not stored. Should it fail here although it
/// compiled where the references were stored, the evaluation goes on as
/// one without it would.
bool Evaluation::ensureHigh() {
  if (!haveHigh || high.kernel)
    return haveHigh;
  phase("compiling the high-precision reference");
  std::string error;
  if (compileHigh(error))
    return true;
  haveHigh = false;
  addFlag("no_high_precision_reference");
  result.notes.push_back("no high-precision reference: " + error);
  return false;
}

bool Evaluation::runHigh(ArrayRef<HostBuffer> host,
                         std::vector<HostBuffer> &highOut, StringRef where) {
  phase(("running the high-precision reference: " + where).str());
  std::string error;
  if (failed(high.run(widenFloats(host, highKind), highOut, error))) {
    finish(EvalStatus::Error,
           "the high-precision reference failed to run: " + error);
    return false;
  }
  ++result.referenceRuns;
  return true;
}

void Evaluation::saveReferences(uint64_t seed, Distribution dist,
                                const std::vector<HostBuffer> *expected,
                                const std::vector<HostBuffer> *highOut) {
  if (!isWriting())
    return;
  std::string error;
  FailureOr<bool> saved = store->save(
      seed, dist, analysis.signature, expected,
      highOut ? std::optional(highKind) : std::nullopt, highOut, error);
  if (failed(saved))
    result.notes.push_back("the references are not all stored: " + error);
  else if (!*saved)
    result.notes.push_back(
        llvm::formatv("the references of the {0} input with seed {1} are "
                      "not stored: the store holds at most {2} bytes",
                      stringifyDistribution(dist), seed,
                      options.maxStoredReferenceBytes)
            .str());
  if (failed(saved) || !*saved)
    store.reset();
}

bool Evaluation::runTrial(unsigned trial) {
  ArrayRef<Distribution> all = getAllDistributions();
  Distribution dist = all[trial % all.size()];
  uint64_t seed = mixSeed(options.seed, trial);
  std::string where = llvm::formatv("trial {0} ({1}, seed {2})", trial,
                                    stringifyDistribution(dist), seed)
                          .str();
  return runTrial(dist, seed, std::move(where));
}

/// The reference outputs of one input: from the store, or run here.
bool Evaluation::getReferences(ArrayRef<HostBuffer> host, Distribution dist,
                               uint64_t seed, StringRef where,
                               std::vector<HostBuffer> &expected,
                               std::vector<HostBuffer> &highOut) {
  const KernelSignature &sig = analysis.signature;
  if (isReading() &&
      store->load(seed, dist, sig, &expected,
                  haveHigh ? std::optional(highKind) : std::nullopt,
                  haveHigh ? &highOut : nullptr)) {
    ++result.referencesReused;
    return true;
  }
  return computeReferences(host, dist, seed, where, expected, highOut);
}

/// Runs the baseline and the high-precision reference on one input and
/// stores their outputs when the store is written.
bool Evaluation::computeReferences(ArrayRef<HostBuffer> host, Distribution dist,
                                   uint64_t seed, StringRef where,
                                   std::vector<HostBuffer> &expected,
                                   std::vector<HostBuffer> &highOut) {
  if (!ensureBaseline())
    return false;
  phase(("running the baseline: " + where).str());
  std::string error;
  if (failed(baseline.run(host, expected, error))) {
    finish(EvalStatus::Error, "the baseline failed to run: " + error);
    return false;
  }
  ++result.referenceRuns;
  if (ensureHigh() && !runHigh(host, highOut, where))
    return false;
  saveReferences(seed, dist, &expected, haveHigh ? &highOut : nullptr);
  return true;
}

bool Evaluation::runTrial(Distribution dist, uint64_t seed, std::string where) {
  result.seeds.push_back(seed);
  result.distributions.push_back(stringifyDistribution(dist).str());
  ++result.correctnessTrials;

  const KernelSignature &sig = analysis.signature;
  std::vector<HostBuffer> host =
      generateArguments(sig, analysis.outputIsRead, dist, seed);
  std::vector<HostBuffer> expected, highOut;
  if (!getReferences(host, dist, seed, where, expected, highOut))
    return false;
  const std::vector<HostBuffer> *high = haveHigh ? &highOut : nullptr;

  // Twice: with the write-only outputs prefilled with NaN, then (the
  // "second run") with finite values and under another schedule
  // (Target::runRescheduled: on cuda beside a load that keeps part of the
  // device busy, on cpu its thread shards in reverse order). The second
  // run also shows a kernel whose result changes from run to run (a race,
  // or state kept between calls). Under compute-sanitizer the cuda load
  // would only be serialised with it.
  return runCandidate(host, expected, high, dist, seed,
                      /*garbagePrefill=*/false, where) &&
         runCandidate(host, expected, high, dist, seed,
                      /*garbagePrefill=*/true,
                      where + ", second run, rescheduled");
}

bool Evaluation::checkInputsKept(ArrayRef<uint64_t> sent,
                                 ArrayRef<uint64_t> got, StringRef where) {
  unsigned input = 0;
  for (auto [i, spec] : llvm::enumerate(analysis.signature.args)) {
    if (spec.isOutput)
      continue;
    if (input < sent.size() && input < got.size() &&
        sent[input] == got[input]) {
      ++input;
      continue;
    }
    finish(EvalStatus::Wrong,
           llvm::formatv("the candidate wrote to input argument #{0} ({1})", i,
                         where)
               .str());
    return false;
  }
  return true;
}

bool Evaluation::runCandidate(ArrayRef<HostBuffer> host,
                              ArrayRef<HostBuffer> expected,
                              const std::vector<HostBuffer> *highOut,
                              Distribution dist, uint64_t seed,
                              bool garbagePrefill, StringRef where) {
  const KernelSignature &sig = analysis.signature;
  // The runner makes the same arguments from the recipe. Integers have no
  // NaN: the candidate gets a prefill that differs from the reference
  // everywhere, so an unwritten element always shows; that one travels.
  ArgumentRecipe recipe;
  recipe.dist = dist;
  recipe.seed = seed;
  recipe.finitePrefill = garbagePrefill;
  if (garbagePrefill && options.sanitizer.empty())
    recipe.schedule = 1 + unsigned(seed % 251);
  for (auto [i, spec] : llvm::enumerate(sig.args)) {
    if (!spec.isOutput || analysis.outputIsRead[i] || isFloatKind(spec.kind))
      continue;
    HostBuffer prefill(spec);
    fillDifferentFrom(prefill, expected[i]);
    recipe.given.emplace_back(unsigned(i), std::move(prefill));
  }
  // The recipe changes outputs only: the inputs are those of `host`.
  std::vector<uint64_t> sent = getInputChecksums(host);

  phase(("running the candidate: " + where).str());
  RunOutcome outcome;
  std::string error;
  if (failed(runner->run(recipe, outcome, error))) {
    finish(EvalStatus::Crash,
           ("the candidate failed to run (" + where + "): " + error).str());
    return false;
  }
  if (outcome.args.size() != sig.args.size()) {
    finish(EvalStatus::Crash, "the candidate's runner returned the wrong "
                              "number of arguments");
    return false;
  }
  if (!outcome.guardDamage.empty()) {
    finish(EvalStatus::Wrong, ("the candidate wrote outside its arguments (" +
                               where + "): " + outcome.guardDamage)
                                  .str());
    return false;
  }
  if (!checkInputsKept(sent, outcome.inputChecksums, where))
    return false;
  isSecondRun = garbagePrefill;
  bool ok =
      checkOutputs(host, expected, outcome.args, highOut, dist, seed, where);
  isSecondRun = false;
  return ok;
}

/// A writing evaluation also stores the references of the extra trials a
/// suspicious speedup triggers: a candidate far faster than a slow upstream
/// baseline would otherwise run both references on that many more inputs.
bool Evaluation::storeExtraReferences(unsigned first) {
  ArrayRef<Distribution> all = getAllDistributions();
  for (unsigned e = 0; e < options.extraTrials && isWriting(); ++e) {
    unsigned trial = first + e;
    Distribution dist = all[trial % all.size()];
    uint64_t seed = mixSeed(options.seed, trial);
    std::string where = llvm::formatv("extra trial {0} ({1}, seed {2})", trial,
                                      stringifyDistribution(dist), seed)
                            .str();
    std::vector<HostBuffer> host = generateArguments(
        analysis.signature, analysis.outputIsRead, dist, seed);
    std::vector<HostBuffer> expected, highOut;
    if (!computeReferences(host, dist, seed, where, expected, highOut))
      return false;
  }
  return true;
}

/// The relative move of every float input, in units of f32's epsilon
/// times sqrt(reduction length): the statistical rounding error of a
/// correct f32 implementation, with room for a different summation order.
static constexpr double kConditioningUlps = 4;

/// Twice, per element, how far the high-precision result moves when every
/// float input (and every output the problem reads) moves by the rounding
/// error a correct implementation may make; the largest of two draws.
bool Evaluation::measureConditioning(ArrayRef<HostBuffer> host,
                                     ArrayRef<HostBuffer> highOut,
                                     uint64_t seed, StringRef where,
                                     std::vector<HostBuffer> &conditioning) {
  if (!ensureHigh())
    return false;
  const KernelSignature &sig = analysis.signature;
  double relative =
      kConditioningUlps * getMachineEpsilon(ElementKind::F32) *
      std::sqrt(double(std::max<int64_t>(analysis.reductionLength, 1)));
  conditioning.clear();
  for (const HostBuffer &out : highOut)
    conditioning.emplace_back(out.spec);
  for (uint64_t draw = 0; draw < 2; ++draw) {
    std::vector<HostBuffer> moved = widenFloats(host, highKind);
    for (auto [i, spec] : llvm::enumerate(sig.args))
      if (!spec.isOutput || analysis.outputIsRead[i])
        perturbRelative(moved[i], relative,
                        mixSeed(seed, 0xc0d + 31 * draw + i));
    phase(("measuring the conditioning of the result: " + where).str());
    std::vector<HostBuffer> movedOut;
    std::string error;
    if (failed(high.run(moved, movedOut, error))) {
      finish(EvalStatus::Error,
             "the high-precision reference failed to run: " + error);
      return false;
    }
    ++result.referenceRuns;
    for (auto [i, spec] : llvm::enumerate(sig.args))
      if (spec.isOutput && isFloatKind(spec.kind))
        raiseToTwiceTheMove(conditioning[i], movedOut[i], highOut[i]);
  }
  return true;
}

bool Evaluation::checkOutputs(ArrayRef<HostBuffer> host,
                              ArrayRef<HostBuffer> expected,
                              ArrayRef<HostBuffer> got,
                              const std::vector<HostBuffer> *highOut,
                              Distribution dist, uint64_t seed,
                              StringRef where) {
  std::vector<HostBuffer> conditioning;
  for (auto [i, spec] : llvm::enumerate(analysis.signature.args)) {
    if (!spec.isOutput)
      continue;
    // An f16/bf16 problem is judged by its high-precision reference alone,
    // rounded to the output's type (an exact value beyond the type's range
    // is that infinity): a baseline that accumulates in low precision is
    // no measure of a candidate's accuracy. Only the baseline itself is
    // held to the baseline.
    bool highOnly = isJudgedByHighPrecision() && highOut;
    std::optional<HostBuffer> rounded;
    if (highOnly) {
      rounded.emplace(spec);
      const HostBuffer &h = (*highOut)[i];
      forEachChunk(spec.numElements(), [&](int64_t begin, int64_t end) {
        for (int64_t e = begin; e < end; ++e)
          rounded->setFromDouble(e, h.getAsDouble(e));
      });
      if (!result.hasFlag("bound_from_high_precision")) {
        addFlag("bound_from_high_precision");
        result.notes.push_back(
            "low precision: every output is compared with the high-precision "
            "reference rounded to its type, never with the baseline's own "
            "result");
      }
    }
    const HostBuffer &reference = highOnly ? *rounded : expected[i];

    CompareOptions compare;
    compare.tolerance = getOutputTolerance(spec.kind, i);
    // The absolute bound is counted in units of the output's own size: at
    // a 1e3 input scale a unit-scale bound only measures rounding, and on
    // an output of size 1e-3 (a softmax over a thousand columns) it would
    // hide any error.
    double rms = getRootMeanSquare(reference);
    if (getDistributionScale(dist, spec.kind) > 1)
      compare.atolScale = std::max(1.0, rms);
    else if (isFloatKind(spec.kind))
      compare.atolScale =
          std::clamp(rms, double(std::numeric_limits<float>::min()), 1.0);
    // Where an f32 baseline itself is further from the high-precision
    // result than the bound (long reductions with cancellation), a
    // candidate may be as far as twice the baseline's worst error: no more
    // accuracy is asked of it than the reference implementation has.
    if (highOut && !highOnly && !analysis.isLowPrecision) {
      double baselineError = getMaxAbsDifference(expected[i], (*highOut)[i]);
      compare.atolFloor = 2 * baselineError;
      if (compare.atolFloor > compare.tolerance.atol * compare.atolScale &&
          !result.hasFlag("bound_from_baseline_error")) {
        addFlag("bound_from_baseline_error");
        result.notes.push_back(
            llvm::formatv("the baseline is up to {0} away from the "
                          "high-precision reference in argument #{1} ({2}); "
                          "the absolute bound is raised to twice that",
                          baselineError, i, where)
                .str());
      }
    }
    CompareResult cmp = compareOutput(
        i, got[i], reference, highOut ? &(*highOut)[i] : nullptr, compare);
    // Elements that failed may be ones whose exact value no f32
    // computation determines: judge them again with the room their
    // conditioning gives. A failure is reported with the plain bound.
    // Non-finite values and failures in more than one element in a thousand
    // are not a question of conditioning: those are judged as they are.
    if (!cmp.passed && highOut && isFloatKind(spec.kind) &&
        std::isfinite(cmp.worst->ratio) &&
        cmp.numMismatches * 1000 <= std::max<int64_t>(cmp.numElements, 1000)) {
      if (conditioning.empty() &&
          !measureConditioning(host, *highOut, seed, where, conditioning))
        return false;
      compare.conditioning = &conditioning[i];
      CompareResult again =
          compareOutput(i, got[i], reference, &(*highOut)[i], compare);
      if (again.passed) {
        addFlag("bound_from_conditioning");
        result.notes.push_back(
            llvm::formatv("argument #{1} has {0} ill-conditioned "
                          "element(s) ({2}): their exact value moves by more "
                          "than the bound when the inputs move by their "
                          "rounding error; the bound there is raised to "
                          "twice that move",
                          cmp.numMismatches, i, where)
                .str());
        cmp = std::move(again);
      }
    }
    // The special-values trial has non-finite references by design.
    if (cmp.numReferenceNonFinite > 0 && !isSecondRun &&
        dist != Distribution::Special) {
      addFlag("reference_non_finite");
      result.notes.push_back(
          llvm::formatv("the reference has {0} non-finite elements in "
                        "argument #{1} ({2}); the candidate must match them",
                        cmp.numReferenceNonFinite, i, where)
              .str());
    }
    bool worse = cmp.worst && (!result.worst || !cmp.passed ||
                               cmp.worst->ratio > result.worst->ratio);
    if (worse) {
      result.worst = cmp.worst;
      result.worstDistribution = stringifyDistribution(dist).str();
      result.worstSeed = seed;
    }
    if (!cmp.passed) {
      result.mismatches = cmp.numMismatches;
      finish(EvalStatus::Wrong,
             llvm::formatv("argument #{0} differs from the reference in {1} "
                           "of {2} elements ({3}); worst: {4}",
                           i, cmp.numMismatches, cmp.numElements, where,
                           describeWorstElement(*cmp.worst))
                 .str());
      return false;
    }
  }
  return true;
}

/// Timed runs read back for the judge beyond the first on each set and the
/// last: chosen at random in every evaluation, so that no candidate can
/// know which of its runs are looked at.
static constexpr unsigned kRandomlySampledRuns = 3;

bool Evaluation::timeAndCheck() {
  const KernelSignature &sig = analysis.signature;
  std::vector<TimingSet> sets =
      makeTimingSets(sig, analysis.outputIsRead, options.seed);
  size_t numSets = sets.size();
  std::vector<std::vector<HostBuffer>> expected(numSets), highOut(numSets);
  for (auto [k, set] : llvm::enumerate(sets))
    if (!getReferences(set.args, set.dist, set.seed,
                       "timing input " + std::to_string(k), expected[k],
                       highOut[k]))
      return false;

  TimedRunsRequest request;
  request.timing = options.timing;
  unsigned first = unsigned(numSets);
  unsigned span = std::max(options.timing.minTrials, first + 1) - first;
  std::random_device entropy;
  for (unsigned i = 0; i < kRandomlySampledRuns; ++i)
    request.sampledRuns.push_back(first + entropy() % span);

  phase("timing baseline and candidate");
  TimedRunsOutcome timing;
  std::string error;
  if (failed(runner->time(options.seed, request, timing, error))) {
    finish(EvalStatus::Crash, "the candidate failed while timing: " + error);
    return false;
  }
  if (timing.failedKernel == 0) {
    finish(EvalStatus::Error,
           "the baseline failed while timing: " + timing.error);
    return false;
  }
  if (timing.failedKernel == 1) {
    finish(EvalStatus::Crash,
           "the candidate failed while timing: " + timing.error);
    return false;
  }
  size_t runs = timing.candidateSamples.size();
  if (timing.runInputSet.size() != runs ||
      timing.inputChecksums.size() != runs ||
      timing.baselineSamples.size() != runs) {
    finish(EvalStatus::Crash,
           "the candidate's runner gave an inconsistent account of its "
           "timed runs");
    return false;
  }
  // The statistics are the judge's, from the raw samples.
  result.baselineTime = computeTimingStats(timing.baselineSamples);
  result.candidateTime = computeTimingStats(timing.candidateSamples);
  if (result.candidateTime->median > 0)
    result.speedup = result.baselineTime->median / result.candidateTime->median;
  if (timing.budgetExhausted)
    addFlag("timing_budget_exhausted");

  auto runName = [&](unsigned run) {
    unsigned set = timing.runInputSet[run] % numSets;
    return llvm::formatv("timed run {0} ({1})", run, sets[set].name).str();
  };
  if (!timing.guardDamage.empty()) {
    finish(EvalStatus::Wrong,
           "the candidate wrote outside its arguments (" +
               (timing.guardDamageRun < runs ? runName(timing.guardDamageRun)
                                             : std::string("timing")) +
               "): " + timing.guardDamage);
    return false;
  }
  std::vector<std::vector<uint64_t>> sums;
  for (const TimingSet &set : sets)
    sums.push_back(getInputChecksums(set.args));
  for (size_t run = 0; run < runs; ++run) {
    unsigned set = timing.runInputSet[run];
    if (set >= numSets) {
      finish(EvalStatus::Crash, "the candidate's runner named an input set "
                                "that does not exist");
      return false;
    }
    if (timing.inputChecksums[run] == sums[set])
      continue;
    unsigned input = 0;
    for (auto [i, spec] : llvm::enumerate(sig.args)) {
      if (spec.isOutput)
        continue;
      if (input >= timing.inputChecksums[run].size() ||
          timing.inputChecksums[run][input] != sums[set][input]) {
        finish(EvalStatus::Wrong,
               llvm::formatv("the candidate wrote to input argument #{0} ({1})",
                             i, runName(run))
                   .str());
        return false;
      }
      ++input;
    }
  }

  // The timed runs must compute the answer too, not only the verified ones.
  phase("checking the outputs of the timed runs");
  for (const SampledRun &sample : timing.sampled) {
    unsigned set = sample.inputSet;
    if (set >= numSets || sample.run >= runs ||
        timing.runInputSet[sample.run] != set ||
        sample.args.size() != sig.args.size()) {
      finish(EvalStatus::Crash, "the candidate's runner returned a timed run "
                                "that did not happen");
      return false;
    }
    std::string where = runName(sample.run);
    if (!checkOutputs(sets[set].args, expected[set], sample.args,
                      haveHigh ? &highOut[set] : nullptr, sets[set].dist,
                      sets[set].seed, where))
      return false;
  }
  return true;
}

/// The seed of the special-values trial: NaN, infinities, -0, denormals
/// and -inf masks (Inputs.h), compared by IEEE rules (Compare.h).
static constexpr uint64_t kSpecialSeedSalt = 0x5bec;

void Evaluation::notePhaseEnd() {
  auto now = std::chrono::steady_clock::now();
  if (currentPhase < result.phaseSeconds.size())
    result.phaseSeconds[currentPhase].second +=
        std::chrono::duration<double>(now - phaseStart).count();
  phaseStart = now;
}

void Evaluation::run() {
  if (!prepare())
    return;
  unsigned trials = std::max(1u, options.correctnessTrials);
  for (unsigned t = 0; t < trials; ++t)
    if (!runTrial(t))
      return;
  if (options.specialValues) {
    uint64_t seed = mixSeed(options.seed, kSpecialSeedSalt);
    if (!runTrial(Distribution::Special, seed,
                  llvm::formatv("the special-values trial (seed {0})", seed)))
      return;
  }

  if (options.measureTime) {
    if (!timeAndCheck())
      return;
    if (result.speedup > options.suspiciousSpeedup) {
      addFlag("speedup_above_threshold");
      for (unsigned e = 0; e < options.extraTrials; ++e) {
        if (!runTrial(trials + e)) {
          result.message =
              llvm::formatv("a speedup of {0:f1}x triggered {1} "
                            "extra trials, and one failed: {2}",
                            result.speedup, options.extraTrials, result.message)
                  .str();
          return;
        }
      }
      addFlag("extra_trials_passed");
    } else if (!storeExtraReferences(trials)) {
      return;
    }
  }

  // The runner's own end: under compute-sanitizer, its report.
  phase("ending the candidate's runner");
  std::string error;
  if (failed(runner->finish(error))) {
    finish(options.sanitizer.empty() ? EvalStatus::Crash : EvalStatus::Wrong,
           error);
    return;
  }
  if (!options.sanitizer.empty())
    addFlag("sanitizer_" + options.sanitizer + "_clean");

  std::string message =
      llvm::formatv("verified on {0} trials", result.correctnessTrials).str();
  if (options.measureTime)
    message += llvm::formatv("; {0:f2}x the baseline", result.speedup).str();
  finish(EvalStatus::Ok, message);
  result.phase.clear();
}

EvalResult mlir::stark::evaluateCandidate(Target &target, ModuleOp problem,
                                          ModuleOp candidate,
                                          const EvalOptions &options,
                                          const RunnerFactory &startRunner) {
  EvalResult result;
  Evaluation evaluation(target, problem, candidate, options, startRunner,
                        result);
  evaluation.run();
  evaluation.notePhaseEnd();
  return result;
}

//===----------------------------------------------------------------------===//
// Parsing sources
//===----------------------------------------------------------------------===//

void mlir::stark::registerEvalDialects(DialectRegistry &registry) {
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect,
                  index::IndexDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect, nvgpu::NVGPUDialect,
                  NVVM::NVVMDialect, scf::SCFDialect, ub::UBDialect,
                  vector::VectorDialect>();
  registerTensorProgramDialects(registry);
  registerStarkDialect(registry);
}

/// Parses `source`; on failure returns null and the diagnostics, formatted
/// with file, line and column, in `diagnostics`.
static OwningOpRef<ModuleOp> parseModule(StringRef source, StringRef name,
                                         MLIRContext &context,
                                         std::string &diagnostics) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, name), llvm::SMLoc());
  llvm::raw_string_ostream os(diagnostics);
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, os);
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}

LogicalResult mlir::stark::parseEvalSources(
    StringRef problemSource, StringRef problemName, StringRef candidateSource,
    StringRef candidateName, StringRef entry, bool synthesizeElidedWeights,
    MLIRContext &context, OwningOpRef<ModuleOp> &problem,
    OwningOpRef<ModuleOp> &candidate, EvalResult &result) {
  std::string diagnostics;
  problem = parseModule(problemSource, problemName, context, diagnostics);
  if (!problem) {
    result.status = EvalStatus::Error;
    result.message = "cannot parse the problem:\n" + diagnostics;
    return failure();
  }
  diagnostics.clear();
  candidate = parseModule(candidateSource, candidateName, context, diagnostics);
  if (!candidate) {
    result.status = EvalStatus::CompileError;
    result.message = "cannot parse the candidate:\n" + diagnostics;
    return failure();
  }

  // A whole program on tensors (a model against what stark-opt made of
  // it): both become problems, bufferized the same way.
  if (!isProgramWithoutProblem(*problem))
    return success();
  std::string error;
  if (failed(prepareTensorProgram(*problem, entry, synthesizeElidedWeights,
                                  error))) {
    result.status = EvalStatus::Error;
    result.message = "problem: " + error;
    return failure();
  }
  StringRef problemEntry =
      cast<ProblemAttr>(problem->getOperation()->getAttr(kProblemAttrName))
          .getEntry();
  if (isProgramWithoutProblem(*candidate) &&
      failed(prepareTensorProgram(*candidate, problemEntry,
                                  synthesizeElidedWeights, error))) {
    result.status = EvalStatus::CompileError;
    result.message = "candidate: " + error;
    return failure();
  }
  return success();
}

EvalResult
mlir::stark::evaluateSources(StringRef problemSource, StringRef problemName,
                             StringRef candidateSource, StringRef candidateName,
                             StringRef targetName, const EvalOptions &options,
                             const RunnerFactory &startRunner) {
  EvalResult result;
  result.target = targetName.str();
  DialectRegistry registry;
  registerEvalDialects(registry);
  MLIRContext context(registry);
  context.disableMultithreading();

  if (options.onPhase)
    options.onPhase("parsing the problem and the candidate");
  OwningOpRef<ModuleOp> problem, candidate;
  if (failed(parseEvalSources(problemSource, problemName, candidateSource,
                              candidateName, options.entry,
                              options.synthesizeElidedWeights, context, problem,
                              candidate, result)))
    return result;

  if (options.onPhase)
    options.onPhase("creating target " + targetName.str());
  std::string error;
  std::unique_ptr<Target> target = createTarget(targetName, context, error);
  if (!target) {
    result.status = EvalStatus::Error;
    result.message =
        llvm::formatv("target '{0}' cannot run here: {1}", targetName,
                      error.empty() ? "it is not available in this build"
                                    : error)
            .str();
    return result;
  }
  EvalResult evaluated =
      evaluateCandidate(*target, *problem, *candidate, options, startRunner);
  noteSynthesizedWeights(*problem, *candidate, evaluated);
  return evaluated;
}

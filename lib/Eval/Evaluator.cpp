//===- Evaluator.cpp - Verify and time a candidate against a problem ------===//

#include "stark/Eval/Evaluator.h"
#include "Evaluation.h"
#include "stark/Dialect/StarkAttrs.h"
#include "stark/Dialect/StarkDialect.h"
#include "stark/Eval/CandidateRunner.h"
#include "stark/Eval/Inputs.h"
#include "stark/Eval/ProblemAnalysis.h"
#include "stark/Eval/References.h"
#include "stark/Eval/TensorProgram.h"
#include "stark/Target/CpuTarget.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::detail;

bool EvalResult::hasFlag(StringRef flag) const {
  return llvm::is_contained(flags, flag);
}

//===----------------------------------------------------------------------===//
// The protocol
//===----------------------------------------------------------------------===//

static std::string printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().assumeVerified());
  return text;
}

/// Why an evaluation on target `name` cannot run here.
static std::string describeUnusableTarget(StringRef name, StringRef reason) {
  return llvm::formatv("target '{0}' cannot run here: {1}", name,
                       reason.empty() ? "it is not available in this build"
                                      : reason)
      .str();
}

bool Evaluation::prepare() {
  result.target = target.getName().str();
  std::string reason = target.getUnavailableReason();
  if (!reason.empty()) {
    finish(EvalStatus::Error, describeUnusableTarget(target.getName(), reason));
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
  std::string error;
  if (!ensureJudgeTarget(error)) {
    finish(EvalStatus::Error, error);
    return false;
  }
  phase("compiling the baseline");
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

bool Evaluation::ensureJudgeTarget(std::string &error) {
  if (!deferred || deferred->isCreated())
    return true;
  std::string during = result.phase;
  phase("creating the judge's target");
  bool created = deferred->create(error);
  if (!during.empty())
    phase(during);
  if (!created)
    error = describeUnusableTarget(target.getName(), error);
  return created;
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
    addStepTimes(result.runnerSeconds, runner->getStartSteps());
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

bool Evaluation::runTrial(unsigned trial) {
  ArrayRef<Distribution> all = getAllDistributions();
  Distribution dist = all[trial % all.size()];
  uint64_t seed = mixSeed(options.seed, trial);
  std::string where = llvm::formatv("trial {0} ({1}, seed {2})", trial,
                                    stringifyDistribution(dist), seed)
                          .str();
  return runTrial(dist, seed, std::move(where));
}
bool Evaluation::runTrial(Distribution dist, uint64_t seed, std::string where) {
  result.seeds.push_back(seed);
  result.distributions.push_back(stringifyDistribution(dist).str());
  ++result.correctnessTrials;

  const KernelSignature &sig = analysis.signature;
  phase("generating the trial's inputs: " + where);
  std::vector<HostBuffer> host =
      generateArguments(sig, analysis.outputIsRead, dist, seed);
  std::vector<HostBuffer> expected, highOut;
  if (!getReferences(host, dist, seed, where, expected, highOut))
    return false;
  const std::vector<HostBuffer> *high = haveHigh ? &highOut : nullptr;
  // Both runs are checked against what this trial's references give.
  trialBasis.assign(sig.args.size(), std::nullopt);
  trialInputSums.reset();
  auto dropBasis = llvm::make_scope_exit([&] {
    trialBasis.clear();
    trialInputSums.reset();
  });

  // Twice: with the write-only outputs prefilled with NaN, then (the
  // "second run") with finite values and under another schedule
  // (Target::runRescheduled: on cuda beside a load that keeps part of the
  // device busy, on cpu its thread shards in reverse order). The second
  // run also shows a kernel whose result changes from run to run (a race,
  // or state kept between calls). Under compute-sanitizer, which runs only
  // winners that passed both, one run gives the tool its launches (the
  // accesses it checks do not depend on the prefill) and the cuda load
  // would only be serialised with a second: at LLaMA's sizes each run
  // under racecheck takes seconds.
  if (!runCandidate(host, expected, high, dist, seed,
                    /*garbagePrefill=*/false, where))
    return false;
  if (!options.sanitizer.empty())
    return true;
  return runCandidate(host, expected, high, dist, seed,
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
  if (!trialInputSums)
    trialInputSums = getInputChecksums(host);
  const std::vector<uint64_t> &sent = *trialInputSums;

  phase(("running the candidate: " + where).str());
  ++result.candidateRuns;
  RunOutcome outcome;
  std::string error;
  LogicalResult ran = runner->run(recipe, outcome, error);
  addStepTimes(result.runnerSeconds, outcome.steps);
  if (failed(ran)) {
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
  phase(("checking the candidate's outputs: " + where).str());
  isSecondRun = garbagePrefill;
  bool ok =
      checkOutputs(host, expected, outcome.args, highOut, dist, seed, where);
  isSecondRun = false;
  return ok;
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

bool Evaluation::runTrials(unsigned begin, unsigned end) {
  for (unsigned t = begin; t < end; ++t)
    if (!runTrial(t))
      return false;
  return true;
}

bool Evaluation::runSpecialTrial() {
  if (!options.specialValues)
    return true;
  uint64_t seed = mixSeed(options.seed, kSpecialSeedSalt);
  return runTrial(Distribution::Special, seed,
                  llvm::formatv("the special-values trial (seed {0})", seed));
}

bool Evaluation::checkSuspiciousSpeedup(unsigned trials) {
  if (result.speedup <= options.suspiciousSpeedup)
    return storeExtraReferences(trials);
  addFlag("speedup_above_threshold");
  for (unsigned e = 0; e < options.extraTrials; ++e) {
    if (!runTrial(trials + e)) {
      result.message =
          llvm::formatv("a speedup of {0:f1}x triggered {1} "
                        "extra trials, and one failed: {2}",
                        result.speedup, options.extraTrials, result.message)
              .str();
      return false;
    }
  }
  addFlag("extra_trials_passed");
  return true;
}

bool Evaluation::endRunner() {
  // The runner's own end: under compute-sanitizer, its report.
  phase("ending the candidate's runner");
  std::string error;
  if (succeeded(runner->finish(error)))
    return true;
  finish(options.sanitizer.empty() ? EvalStatus::Crash : EvalStatus::Wrong,
         error);
  return false;
}

void Evaluation::run() {
  if (!prepare())
    return;
  unsigned trials = std::max(1u, options.correctnessTrials);
  // Screening times the candidate after its first trial: one that cannot
  // win is not worth the other trials, and one that can gets all of them.
  bool screening = options.measureTime && options.screenBelowSpeedup > 0;
  unsigned beforeTiming = screening ? 1 : trials;
  if (!runTrials(0, beforeTiming))
    return;
  if (screening) {
    if (!timeAndCheck())
      return;
    if (result.speedup < options.screenBelowSpeedup) {
      if (!endRunner())
        return;
      finish(EvalStatus::Slower,
             llvm::formatv("{0:f2}x the baseline after {1} trial and the "
                           "timed runs, below the {2:f2}x it had to reach; "
                           "not verified further",
                           result.speedup, result.correctnessTrials,
                           options.screenBelowSpeedup)
                 .str());
      result.phase.clear();
      return;
    }
  }
  if (!runTrials(beforeTiming, trials) || !runSpecialTrial())
    return;
  if (options.measureTime) {
    if (!screening && !timeAndCheck())
      return;
    if (!checkSuspiciousSpeedup(trials))
      return;
  }
  if (!endRunner())
    return;
  if (!options.sanitizer.empty())
    addFlag("sanitizer_" + options.sanitizer + "_clean");

  std::string message =
      llvm::formatv("verified on {0} trials", result.correctnessTrials).str();
  if (options.measureTime)
    message += llvm::formatv("; {0:f2}x the baseline", result.speedup).str();
  finish(EvalStatus::Ok, message);
  result.phase.clear();
}

static EvalResult runEvaluation(Target &target, ModuleOp problem,
                                ModuleOp candidate, const EvalOptions &options,
                                const RunnerFactory &startRunner,
                                DeferredTarget *deferred) {
  EvalResult result;
  Evaluation evaluation(target, problem, candidate, options, startRunner,
                        result, deferred);
  evaluation.run();
  evaluation.notePhaseEnd();
  return result;
}

EvalResult mlir::stark::evaluateCandidate(Target &target, ModuleOp problem,
                                          ModuleOp candidate,
                                          const EvalOptions &options,
                                          const RunnerFactory &startRunner) {
  return runEvaluation(target, problem, candidate, options, startRunner,
                       /*deferred=*/nullptr);
}

//===----------------------------------------------------------------------===//
// Parsing sources
//===----------------------------------------------------------------------===//

void mlir::stark::registerEvalDialects(DialectRegistry &registry) {
  registerCandidateDialects(registry);
  registerTensorProgramDialects(registry);
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

  static constexpr StringLiteral kParsing =
      "parsing the problem and the candidate";
  if (options.onPhase)
    options.onPhase(kParsing.str());
  auto parseStart = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> problem, candidate;
  if (failed(parseEvalSources(problemSource, problemName, candidateSource,
                              candidateName, options.entry,
                              options.synthesizeElidedWeights, context, problem,
                              candidate, result)))
    return result;
  double parseSeconds = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - parseStart)
                            .count();

  // With the candidate in a runner process of its own, the judge needs a
  // device only for the references its store does not hold: the target is
  // created then (DeferredTarget.h), not here.
  std::unique_ptr<DeferredTarget> deferred;
  std::unique_ptr<Target> target;
  std::string error;
  if (startRunner) {
    deferred = std::make_unique<DeferredTarget>(targetName, context);
  } else {
    if (options.onPhase)
      options.onPhase("creating target " + targetName.str());
    target = createTarget(targetName, context, error);
    if (!target) {
      result.status = EvalStatus::Error;
      result.message = describeUnusableTarget(targetName, error);
      return result;
    }
  }
  EvalResult evaluated =
      runEvaluation(deferred ? *deferred : *target, *problem, *candidate,
                    options, startRunner, deferred.get());
  // The judge's first phase, before the evaluation's clock started.
  evaluated.phaseSeconds.insert(evaluated.phaseSeconds.begin(),
                                {kParsing.str(), parseSeconds});
  noteSynthesizedWeights(*problem, *candidate, evaluated);
  return evaluated;
}

//===- EvaluationChecks.cpp - An evaluation's output and timing checks ----===//

#include "Evaluation.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>
#include <random>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::detail;

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

/// The room per element, in units of the rounding move's root mean square
/// over the element's row: a faithful program rounds its ops' results at
/// other points than the rounded reference does, so its own move is of that
/// size, not that value; 6 of them leave about one element in 5e8 outside.
static constexpr double kRoundingRoomRms = 6;

bool Evaluation::roundsIntermediates() {
  if (numRoundedResults < 0) {
    numRoundedResults = 0;
    if (analysis.isLowPrecision && ensureHigh()) {
      phase("compiling the high-precision reference with rounded results");
      std::string error;
      if (!compileWide(roundedHigh, /*roundResults=*/true, error)) {
        numRoundedResults = 0;
        result.notes.push_back(
            "no reference with the program's rounding of its results: " +
            error);
      }
    }
  }
  // The output's own rounding is in every bound; only more than one
  // rounded result moves the value.
  return numRoundedResults > 1 && roundedHigh.kernel;
}

bool Evaluation::measureRoundingRoom(ArrayRef<HostBuffer> host,
                                     ArrayRef<HostBuffer> highOut,
                                     StringRef where,
                                     std::vector<HostBuffer> &room) {
  phase(("running the high-precision reference with rounded results: " + where)
            .str());
  std::vector<HostBuffer> roundedOut;
  std::string error;
  if (failed(roundedHigh.run(widenFloats(host, highKind), roundedOut, error))) {
    finish(EvalStatus::Error,
           "the high-precision reference with rounded results failed to "
           "run: " +
               error);
    return false;
  }
  ++result.referenceRuns;
  room.clear();
  for (auto [i, spec] : llvm::enumerate(analysis.signature.args)) {
    room.emplace_back(highOut[i].spec);
    if (spec.isOutput && isFloatKind(spec.kind))
      setRoundingRoom(room.back(), roundedOut[i], highOut[i], kRoundingRoomRms);
  }
  return true;
}

/// The high-precision result rounded to the output's type (an exact value
/// beyond the type's range is that infinity): what a low-precision output
/// is judged against.
static HostBuffer roundToOutputType(const ArgSpec &spec,
                                    const HostBuffer &high) {
  HostBuffer rounded(spec);
  forEachChunk(spec.numElements(), [&](int64_t begin, int64_t end) {
    for (int64_t e = begin; e < end; ++e)
      rounded.setFromDouble(e, high.getAsDouble(e));
  });
  return rounded;
}

/// The absolute bound is counted in units of the output's own size: at a
/// 1e3 input scale a unit-scale bound only measures rounding, and on an
/// output of size 1e-3 (a softmax over a thousand columns) it would hide any
/// error. Returns the unit, or nullopt to keep the default.
static std::optional<double> getAtolScale(const HostBuffer &reference,
                                          Distribution dist, ElementKind kind) {
  double rms = getRootMeanSquare(reference);
  if (getDistributionScale(dist, kind) > 1)
    return std::max(1.0, rms);
  if (isFloatKind(kind))
    return std::clamp(rms, double(std::numeric_limits<float>::min()), 1.0);
  return std::nullopt;
}

/// Whether a failed comparison may be a question of conditioning: elements
/// whose exact value no f32 computation determines. Non-finite values and
/// failures in more than one element in a thousand are not.
static bool mayBeIllConditioned(const CompareResult &cmp, ElementKind kind) {
  return !cmp.passed && isFloatKind(kind) && std::isfinite(cmp.worst->ratio) &&
         cmp.numMismatches * 1000 <= std::max<int64_t>(cmp.numElements, 1000);
}

bool Evaluation::checkOutputs(ArrayRef<HostBuffer> host,
                              ArrayRef<HostBuffer> expected,
                              ArrayRef<HostBuffer> got,
                              const std::vector<HostBuffer> *highOut,
                              Distribution dist, uint64_t seed,
                              StringRef where) {
  // Measured at most once per call, for every output: the conditioning
  // and the room of the program's own rounding.
  std::vector<HostBuffer> conditioning, room;
  for (auto [i, spec] : llvm::enumerate(analysis.signature.args)) {
    if (!spec.isOutput)
      continue;
    // Within a trial both runs share this output's basis (runTrial).
    OutputBasis local;
    OutputBasis *basisOf = &local;
    bool haveBasis = false;
    if (i < trialBasis.size()) {
      haveBasis = trialBasis[i].has_value();
      if (!haveBasis)
        trialBasis[i].emplace();
      basisOf = &*trialBasis[i];
    }
    OutputBasis &basis = *basisOf;
    // An f16/bf16 problem is judged by its high-precision reference alone,
    // rounded to the output's type: a baseline that accumulates in low
    // precision is no measure of a candidate's accuracy. Only the baseline
    // itself is held to the baseline.
    bool highOnly = isJudgedByHighPrecision() && highOut;
    if (highOnly) {
      if (!haveBasis)
        basis.rounded.emplace(roundToOutputType(spec, (*highOut)[i]));
      if (!result.hasFlag("bound_from_high_precision")) {
        addFlag("bound_from_high_precision");
        result.notes.push_back(
            "low precision: every output is compared with the high-precision "
            "reference rounded to its type, never with the baseline's own "
            "result");
      }
    }
    const HostBuffer &reference = highOnly ? *basis.rounded : expected[i];

    CompareOptions compare;
    compare.tolerance = getOutputTolerance(spec.kind, i);
    if (!haveBasis)
      basis.atolScale = getAtolScale(reference, dist, spec.kind);
    if (basis.atolScale)
      compare.atolScale = *basis.atolScale;
    // Where an f32 baseline itself is further from the high-precision
    // result than the bound (long reductions with cancellation), a
    // candidate may be as far as twice the baseline's worst error: no more
    // accuracy is asked of it than the reference implementation has.
    if (highOut && !highOnly && !analysis.isLowPrecision) {
      if (!haveBasis)
        basis.atolFloor = 2 * getMaxAbsDifference(expected[i], (*highOut)[i]);
      double baselineError = basis.atolFloor / 2;
      compare.atolFloor = basis.atolFloor;
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
    if (highOut && !rejudgeWithRoom(i, spec.kind, highOnly, host, got[i],
                                    reference, *highOut, seed, where, compare,
                                    conditioning, room, cmp))
      return false;
    if (!recordOutputVerdict(i, cmp, dist, seed, where))
      return false;
  }
  return true;
}

bool Evaluation::rejudgeWithRoom(
    unsigned i, ElementKind kind, bool highOnly, ArrayRef<HostBuffer> host,
    const HostBuffer &got, const HostBuffer &reference,
    ArrayRef<HostBuffer> highOut, uint64_t seed, StringRef where,
    CompareOptions &compare, std::vector<HostBuffer> &conditioning,
    std::vector<HostBuffer> &room, CompareResult &cmp) {
  // Elements that failed may be ones whose exact value no f32
  // computation determines: judge them again with the room their
  // conditioning gives. A failure is reported with the plain bound.
  if (mayBeIllConditioned(cmp, kind)) {
    if (conditioning.empty() &&
        !measureConditioning(host, highOut, seed, where, conditioning))
      return false;
    compare.conditioning = &conditioning[i];
    CompareResult again =
        compareOutput(i, got, reference, &highOut[i], compare);
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
  // A whole low-precision program rounds each op's result to its type;
  // the high-precision reference does not. Judge again with the room that
  // rounding gives (the conditioning's, where measured, kept).
  if (!cmp.passed && highOnly && isFloatKind(kind) && roundsIntermediates()) {
    if (room.empty() && !measureRoundingRoom(host, highOut, where, room))
      return false;
    if (compare.conditioning)
      raiseToAtLeast(room[i], *compare.conditioning);
    compare.conditioning = &room[i];
    CompareResult again =
        compareOutput(i, got, reference, &highOut[i], compare);
    if (again.passed && !result.hasFlag("bound_from_intermediate_rounding")) {
      addFlag("bound_from_intermediate_rounding");
      result.notes.push_back(
          llvm::formatv("argument #{1}: {0} element(s) ({2}) are further "
                        "from the high-precision reference than the bound, "
                        "within the room the program's own rounding of its "
                        "{3} op results to their types gives (the first "
                        "trial that needed it)",
                        cmp.numMismatches, i, where, numRoundedResults)
              .str());
    }
    if (again.passed)
      cmp = std::move(again);
  }
  return true;
}

bool Evaluation::recordOutputVerdict(unsigned i, const CompareResult &cmp,
                                     Distribution dist, uint64_t seed,
                                     StringRef where) {
  DEBUG_WITH_TYPE("stark-eval", {
    llvm::dbgs() << llvm::formatv(
        "output #{0} ({1}{2}): {3} of {4} elements outside the bound", i, where,
        isSecondRun ? ", second run" : "", cmp.numMismatches, cmp.numElements);
    if (cmp.worst)
      llvm::dbgs() << "; worst: " << describeWorstElement(*cmp.worst);
    llvm::dbgs() << "\n";
  });
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
  if (cmp.passed)
    return true;
  result.mismatches = cmp.numMismatches;
  finish(EvalStatus::Wrong,
         llvm::formatv("argument #{0} differs from the reference in {1} "
                       "of {2} elements ({3}); worst: {4}",
                       i, cmp.numMismatches, cmp.numElements, where,
                       describeWorstElement(*cmp.worst))
             .str());
  return false;
}

/// Timed runs read back for the judge beyond the first on each set and the
/// last: chosen at random in every evaluation, so that no candidate can
/// know which of its runs are looked at.
static constexpr unsigned kRandomlySampledRuns = 3;

bool Evaluation::timeAndCheck() {
  TimedRunReferences refs;
  refs.sets =
      makeTimingSets(analysis.signature, analysis.outputIsRead, options.seed);
  size_t numSets = refs.sets.size();
  refs.expected.resize(numSets);
  refs.highOut.resize(numSets);
  for (auto [k, set] : llvm::enumerate(refs.sets)) {
    if (!getReferences(set.args, set.dist, set.seed,
                       "timing input " + std::to_string(k), refs.expected[k],
                       refs.highOut[k]))
      return false;
    refs.inputSums.push_back(getInputChecksums(set.args));
  }

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
  LogicalResult timed = runner->time(options.seed, request, timing, error);
  addStepTimes(result.runnerSeconds, timing.steps);
  if (failed(timed)) {
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
  // Each kernel has a sample per round until it settled (Timing.h): the
  // counts may differ, but neither is empty.
  size_t runs = timing.candidateSamples.size();
  if (runs == 0 || timing.baselineSamples.empty() ||
      timing.runInputSet.size() != runs ||
      timing.inputChecksums.size() != runs) {
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

  // The timed runs must compute the answer too, not only the verified ones.
  return checkTimedInputs(refs, timing) && checkTimedOutputs(refs, timing) &&
         checkBackToBackRuns(refs, timing);
}

std::string Evaluation::describeTimedRun(const TimedRunReferences &refs,
                                         const TimedRunsOutcome &timing,
                                         unsigned run) const {
  unsigned set = timing.runInputSet[run] % refs.sets.size();
  return llvm::formatv("timed run {0} ({1})", run, refs.sets[set].name).str();
}

bool Evaluation::checkInputChecksums(ArrayRef<uint64_t> got,
                                     ArrayRef<uint64_t> made, StringRef where) {
  if (got == made)
    return true;
  unsigned input = 0, changed = 0;
  for (auto [i, spec] : llvm::enumerate(analysis.signature.args)) {
    if (spec.isOutput)
      continue;
    if (input >= got.size() || input >= made.size() ||
        got[input] != made[input]) {
      changed = unsigned(i);
      break;
    }
    ++input;
  }
  finish(EvalStatus::Wrong,
         llvm::formatv("the candidate wrote to input argument #{0} ({1})",
                       changed, where)
             .str());
  return false;
}

bool Evaluation::checkTimedInputs(const TimedRunReferences &refs,
                                  const TimedRunsOutcome &timing) {
  size_t runs = timing.candidateSamples.size();
  if (!timing.guardDamage.empty()) {
    finish(EvalStatus::Wrong,
           "the candidate wrote outside its arguments (" +
               (timing.guardDamageRun < runs
                    ? describeTimedRun(refs, timing, timing.guardDamageRun)
                    : std::string("timing")) +
               "): " + timing.guardDamage);
    return false;
  }
  for (size_t run = 0; run < runs; ++run) {
    unsigned set = timing.runInputSet[run];
    if (set >= refs.sets.size()) {
      finish(EvalStatus::Crash, "the candidate's runner named an input set "
                                "that does not exist");
      return false;
    }
    if (timing.inputChecksums[run] != refs.inputSums[set] &&
        !checkInputChecksums(timing.inputChecksums[run], refs.inputSums[set],
                             describeTimedRun(refs, timing, run)))
      return false;
  }
  return true;
}

bool Evaluation::checkTimedOutputs(const TimedRunReferences &refs,
                                   const TimedRunsOutcome &timing) {
  phase("checking the outputs of the timed runs");
  for (const SampledRun &sample : timing.sampled) {
    unsigned set = sample.inputSet;
    if (set >= refs.sets.size() ||
        sample.run >= timing.candidateSamples.size() ||
        timing.runInputSet[sample.run] != set ||
        sample.args.size() != analysis.signature.args.size()) {
      finish(EvalStatus::Crash, "the candidate's runner returned a timed run "
                                "that did not happen");
      return false;
    }
    if (!checkOutputs(refs.sets[set].args, refs.expected[set], sample.args,
                      haveHigh ? &refs.highOut[set] : nullptr,
                      refs.sets[set].dist, refs.sets[set].seed,
                      describeTimedRun(refs, timing, sample.run)))
      return false;
  }
  return true;
}

bool Evaluation::checkBackToBackRuns(const TimedRunReferences &refs,
                                     const TimedRunsOutcome &timing) {
  // Launched soon after itself, the candidate must compute as it does when
  // spaced out by the timing's flushes and checks.
  size_t numSets = refs.sets.size();
  if (timing.backToBack.size() != numSets) {
    finish(EvalStatus::Crash, "the candidate's runner did not make the "
                              "back-to-back runs");
    return false;
  }
  for (const BackToBackRun &pair : timing.backToBack) {
    unsigned set = pair.inputSet;
    if (set >= numSets || pair.previousSet >= numSets ||
        pair.args.size() != analysis.signature.args.size()) {
      finish(EvalStatus::Crash, "the candidate's runner returned a "
                                "back-to-back run that did not happen");
      return false;
    }
    const TimingSet &made = refs.sets[set];
    std::string where =
        llvm::formatv("a run on {0} right after one on {1}", made.name,
                      refs.sets[pair.previousSet].name)
            .str();
    if (!checkInputChecksums(pair.inputChecksums, refs.inputSums[set], where) ||
        !checkOutputs(made.args, refs.expected[set], pair.args,
                      haveHigh ? &refs.highOut[set] : nullptr, made.dist,
                      made.seed, where))
      return false;
  }
  return true;
}

//===- EvaluationReferences.cpp - An evaluation's reference outputs -------===//

#include "Evaluation.h"
#include "stark/Target/CpuTarget.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::detail;

/// `buffers` with every float element kind narrower than `wide` converted
/// to `wide` (exactly: every narrower float is representable).
std::vector<HostBuffer>
mlir::stark::detail::widenFloats(ArrayRef<HostBuffer> buffers,
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
    // f32 into f64 and bf16 into f32, the common cases, without the
    // per-element dispatch (both exact).
    if (b.spec.kind == ElementKind::F32 && spec.kind == ElementKind::F64) {
      const float *from = reinterpret_cast<const float *>(b.bytes.data());
      double *to = reinterpret_cast<double *>(w.bytes.data());
      forEachChunk(spec.numElements(), [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
          to[i] = from[i];
      });
      continue;
    }
    if (b.spec.kind == ElementKind::BF16 && spec.kind == ElementKind::F32) {
      const uint16_t *from = reinterpret_cast<const uint16_t *>(b.bytes.data());
      uint32_t *to = reinterpret_cast<uint32_t *>(w.bytes.data());
      forEachChunk(spec.numElements(), [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
          to[i] = uint32_t(from[i]) << 16;
      });
      continue;
    }
    forEachChunk(spec.numElements(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        w.setFromDouble(i, b.getAsDouble(i));
    });
  }
  return widened;
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
  return compileWide(high, /*roundResults=*/false, error);
}

bool Evaluation::compileWide(Runner &into, bool roundResults,
                             std::string &error) {
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
    if (!hostTarget)
      hostTarget = createCpuTarget(*ctx);
    where = hostTarget.get();
  }
  if (where == &target && !ensureJudgeTarget(error))
    return false;
  int64_t rounded = 0;
  FailureOr<OwningOpRef<ModuleOp>> wideModule =
      promoteFloats(problem, wide, error, roundResults, &rounded);
  if (failed(wideModule))
    return false;
  if (roundResults)
    numRoundedResults = rounded;
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
  into.kernel = std::move(*k);
  into.args = std::move(*args);
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

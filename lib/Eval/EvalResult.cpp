//===- EvalResult.cpp - JSON and text forms of options and results --------===//
//
// JSON has no NaN or infinity; such numbers travel as the strings "nan",
// "inf" and "-inf" (a candidate's worst element is often exactly that).
//
//===----------------------------------------------------------------------===//

#include "stark/Eval/CandidateRunner.h"
#include "stark/Eval/Evaluator.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::stark;
namespace json = llvm::json;

static json::Value number(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  return v;
}

static bool readNumber(const json::Object &o, StringRef key, double &out) {
  const json::Value *v = o.get(key);
  if (!v)
    return false;
  if (std::optional<double> d = v->getAsNumber()) {
    out = *d;
    return true;
  }
  if (std::optional<StringRef> s = v->getAsString()) {
    if (*s == "nan")
      out = std::numeric_limits<double>::quiet_NaN();
    else if (*s == "inf")
      out = std::numeric_limits<double>::infinity();
    else if (*s == "-inf")
      out = -std::numeric_limits<double>::infinity();
    else
      return false;
    return true;
  }
  return false;
}

template <typename T>
static void readInt(const json::Object &o, StringRef key, T &out) {
  if (const json::Value *v = o.get(key))
    if (std::optional<int64_t> i = v->getAsInteger())
      out = T(*i);
}

static void readUInt64(const json::Object &o, StringRef key, uint64_t &out) {
  if (const json::Value *v = o.get(key))
    if (std::optional<uint64_t> n = v->getAsUINT64())
      out = *n;
}

static void readBool(const json::Object &o, StringRef key, bool &out) {
  if (std::optional<bool> b = o.getBoolean(key))
    out = *b;
}

static void readString(const json::Object &o, StringRef key, std::string &out) {
  if (std::optional<StringRef> s = o.getString(key))
    out = s->str();
}

static void readStrings(const json::Object &o, StringRef key,
                        std::vector<std::string> &out) {
  if (const json::Array *a = o.getArray(key))
    for (const json::Value &v : *a)
      if (std::optional<StringRef> s = v.getAsString())
        out.push_back(s->str());
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

json::Value mlir::stark::toJSON(const EvalOptions &o) {
  return json::Object{
      {"seed", o.seed},
      {"correctness_trials", o.correctnessTrials},
      {"suspicious_speedup", o.suspiciousSpeedup},
      {"extra_trials", o.extraTrials},
      {"max_high_precision_iterations", o.maxHighPrecisionIterations},
      {"f64_reference", o.f64Reference},
      {"allow_tf32", o.allowTf32},
      {"measure_time", o.measureTime},
      {"screen_below_speedup", o.screenBelowSpeedup},
      {"special_values", o.specialValues},
      {"sanitizer", o.sanitizer},
      {"entry", o.entry},
      {"synthesize_elided_weights", o.synthesizeElidedWeights},
      {"reference_dir", o.referenceDir},
      {"write_references", o.writeReferences},
      {"max_stored_reference_bytes", o.maxStoredReferenceBytes},
      {"timing", timingOptionsToJSON(o.timing)},
  };
}

bool mlir::stark::fromJSON(const json::Value &value, EvalOptions &o,
                           json::Path path) {
  json::ObjectMapper m(value, path);
  if (!m)
    return false;
  const json::Object *obj = value.getAsObject();
  if (const json::Value *seed = obj->get("seed")) {
    std::optional<uint64_t> s = seed->getAsUINT64();
    if (!s) {
      path.field("seed").report("expected an unsigned 64-bit integer");
      return false;
    }
    o.seed = *s;
  }
  readInt(*obj, "correctness_trials", o.correctnessTrials);
  readNumber(*obj, "suspicious_speedup", o.suspiciousSpeedup);
  readInt(*obj, "extra_trials", o.extraTrials);
  readUInt64(*obj, "max_high_precision_iterations",
             o.maxHighPrecisionIterations);
  readBool(*obj, "f64_reference", o.f64Reference);
  readBool(*obj, "allow_tf32", o.allowTf32);
  readBool(*obj, "measure_time", o.measureTime);
  readNumber(*obj, "screen_below_speedup", o.screenBelowSpeedup);
  readBool(*obj, "special_values", o.specialValues);
  readString(*obj, "sanitizer", o.sanitizer);
  readString(*obj, "entry", o.entry);
  readBool(*obj, "synthesize_elided_weights", o.synthesizeElidedWeights);
  readString(*obj, "reference_dir", o.referenceDir);
  readBool(*obj, "write_references", o.writeReferences);
  readUInt64(*obj, "max_stored_reference_bytes", o.maxStoredReferenceBytes);
  // The timing options as the timed-runs request carries them.
  if (const json::Value *t = obj->get("timing"))
    return timingOptionsFromJSON(*t, o.timing, path.field("timing"));
  return true;
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

static json::Value timingToJSON(const TimingStats &s) {
  return json::Object{
      {"median_s", number(s.median)},
      {"min_s", number(s.min)},
      {"max_s", number(s.max)},
      {"mean_s", number(s.mean)},
      {"stdev_s", number(s.stdev)},
      {"q1_s", number(s.q1)},
      {"q3_s", number(s.q3)},
      {"iqr_s", number(s.iqr())},
      {"relative_iqr", number(s.relativeSpread())},
      {"trials", s.trials},
  };
}

static TimingStats timingFromJSON(const json::Object &o) {
  TimingStats s;
  readNumber(o, "median_s", s.median);
  readNumber(o, "min_s", s.min);
  readNumber(o, "max_s", s.max);
  readNumber(o, "mean_s", s.mean);
  readNumber(o, "stdev_s", s.stdev);
  readNumber(o, "q1_s", s.q1);
  readNumber(o, "q3_s", s.q3);
  readInt(o, "trials", s.trials);
  return s;
}

static json::Value worstToJSON(const WorstElement &w) {
  json::Array index;
  for (int64_t i : w.index)
    index.push_back(i);
  json::Object o{
      {"argument", w.argIndex},          {"flat_index", w.flatIndex},
      {"index", std::move(index)},       {"got", number(w.got)},
      {"expected", number(w.expected)},  {"reference", w.reference},
      {"abs_error", number(w.absError)}, {"rel_error", number(w.relError)},
      {"allowed", number(w.allowed)},    {"passed", w.passed},
  };
  if (w.expectedHighPrecision)
    o["expected_high_precision"] = number(*w.expectedHighPrecision);
  return o;
}

static WorstElement worstFromJSON(const json::Object &o) {
  WorstElement w;
  readInt(o, "argument", w.argIndex);
  readInt(o, "flat_index", w.flatIndex);
  if (const json::Array *a = o.getArray("index"))
    for (const json::Value &v : *a)
      if (std::optional<int64_t> i = v.getAsInteger())
        w.index.push_back(*i);
  readNumber(o, "got", w.got);
  readNumber(o, "expected", w.expected);
  double high;
  if (readNumber(o, "expected_high_precision", high))
    w.expectedHighPrecision = high;
  readString(o, "reference", w.reference);
  readNumber(o, "abs_error", w.absError);
  readNumber(o, "rel_error", w.relError);
  readNumber(o, "allowed", w.allowed);
  readBool(o, "passed", w.passed);
  w.ratio = w.allowed > 0 ? w.absError / w.allowed : (w.passed ? 0 : INFINITY);
  return w;
}

json::Value mlir::stark::toJSON(const EvalResult &r) {
  json::Object o{
      {"status", stringifyEvalStatus(r.status)},
      {"message", r.message},
      {"target", r.target},
  };
  if (!r.phase.empty())
    o["phase"] = r.phase;
  if (r.worst) {
    json::Value w = worstToJSON(*r.worst);
    w.getAsObject()->insert({"distribution", r.worstDistribution});
    w.getAsObject()->insert({"seed", r.worstSeed});
    o["worst"] = std::move(w);
  }
  o["mismatches"] = r.mismatches;
  o["tolerance"] = json::Object{
      {"element_type", r.toleranceKind},
      {"atol", number(r.tolerance.atol)},
      {"rtol", number(r.tolerance.rtol)},
      {"reduction_length", r.reductionLength},
  };
  json::Array seeds, distributions;
  for (uint64_t s : r.seeds)
    seeds.push_back(s);
  for (const std::string &d : r.distributions)
    distributions.push_back(d);
  o["correctness"] = json::Object{
      {"trials", r.correctnessTrials},
      {"candidate_runs", r.candidateRuns},
      {"seeds", std::move(seeds)},
      {"distributions", std::move(distributions)},
      {"high_precision_reference", r.highPrecisionReference},
  };
  o["references"] = json::Object{
      {"runs", r.referenceRuns},
      {"reused", r.referencesReused},
  };
  if (r.baselineTime && r.candidateTime) {
    o["timing"] = json::Object{
        {"baseline", timingToJSON(*r.baselineTime)},
        {"candidate", timingToJSON(*r.candidateTime)},
        {"speedup", number(r.speedup)},
    };
  }
  o["flags"] = json::Array(r.flags);
  o["notes"] = json::Array(r.notes);
  o["phase_seconds"] = stepTimesToJSON(r.phaseSeconds);
  if (!r.runnerSeconds.empty())
    o["runner_seconds"] = stepTimesToJSON(r.runnerSeconds);
  if (r.wallSeconds > 0)
    o["wall_seconds"] = number(r.wallSeconds);
  if (!r.logTail.empty())
    o["log_tail"] = r.logTail;
  return o;
}

bool mlir::stark::fromJSON(const json::Value &value, EvalResult &r,
                           json::Path path) {
  const json::Object *o = value.getAsObject();
  if (!o) {
    path.report("expected an object");
    return false;
  }
  std::optional<StringRef> status = o->getString("status");
  std::optional<EvalStatus> parsed =
      status ? symbolizeEvalStatus(*status) : std::nullopt;
  if (!parsed) {
    path.field("status").report("expected a known status");
    return false;
  }
  r.status = *parsed;
  readString(*o, "message", r.message);
  readString(*o, "target", r.target);
  readString(*o, "phase", r.phase);
  if (const json::Object *w = o->getObject("worst")) {
    r.worst = worstFromJSON(*w);
    readString(*w, "distribution", r.worstDistribution);
    if (const json::Value *seed = w->get("seed"))
      r.worstSeed = seed->getAsUINT64().value_or(0);
  }
  readInt(*o, "mismatches", r.mismatches);
  if (const json::Object *t = o->getObject("tolerance")) {
    readString(*t, "element_type", r.toleranceKind);
    readNumber(*t, "atol", r.tolerance.atol);
    readNumber(*t, "rtol", r.tolerance.rtol);
    readInt(*t, "reduction_length", r.reductionLength);
  }
  if (const json::Object *c = o->getObject("correctness")) {
    readInt(*c, "trials", r.correctnessTrials);
    readInt(*c, "candidate_runs", r.candidateRuns);
    if (const json::Array *a = c->getArray("seeds"))
      for (const json::Value &v : *a)
        r.seeds.push_back(v.getAsUINT64().value_or(0));
    readStrings(*c, "distributions", r.distributions);
    readBool(*c, "high_precision_reference", r.highPrecisionReference);
  }
  if (const json::Object *refs = o->getObject("references")) {
    readInt(*refs, "runs", r.referenceRuns);
    readInt(*refs, "reused", r.referencesReused);
  }
  if (const json::Object *t = o->getObject("timing")) {
    if (const json::Object *b = t->getObject("baseline"))
      r.baselineTime = timingFromJSON(*b);
    if (const json::Object *c = t->getObject("candidate"))
      r.candidateTime = timingFromJSON(*c);
    readNumber(*t, "speedup", r.speedup);
  }
  readStrings(*o, "flags", r.flags);
  readStrings(*o, "notes", r.notes);
  readString(*o, "log_tail", r.logTail);
  addStepTimesFromJSON(o->get("phase_seconds"), r.phaseSeconds);
  addStepTimesFromJSON(o->get("runner_seconds"), r.runnerSeconds);
  readNumber(*o, "wall_seconds", r.wallSeconds);
  return true;
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

static void printTiming(llvm::raw_ostream &os, StringRef name,
                        const TimingStats &s) {
  os << name << "median " << formatDuration(s.median) << " (min "
     << formatDuration(s.min) << ", max " << formatDuration(s.max) << ", IQR "
     << formatDuration(s.iqr()) << " = "
     << llvm::format("%.1f", 100 * s.relativeSpread()) << "% of the median, "
     << s.trials << " trials)\n";
}

/// " name 1.234 s;" per step.
static void printStepTimes(llvm::raw_ostream &os, const StepTimes &steps) {
  for (const auto &[name, seconds] : steps)
    os << " " << name << " " << llvm::format("%.3f", seconds) << " s;";
}

std::string mlir::stark::formatEvalResult(const EvalResult &r) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "status: " << stringifyEvalStatus(r.status) << "\n";
  os << "message: " << r.message << "\n";
  os << "target: " << r.target << "\n";
  if (!r.phase.empty())
    os << "phase: " << r.phase << "\n";
  if (r.worst)
    os << "worst element: " << describeWorstElement(*r.worst) << " ("
       << r.worstDistribution << ", seed " << r.worstSeed << ")\n";
  if (!r.toleranceKind.empty())
    os << "tolerance: " << r.toleranceKind << " atol "
       << llvm::format("%.3g", r.tolerance.atol) << ", rtol "
       << llvm::format("%.3g", r.tolerance.rtol) << " (reduction length "
       << r.reductionLength << ")\n";
  if (r.correctnessTrials > 0) {
    os << "correctness: " << r.correctnessTrials << " trials (";
    llvm::interleaveComma(r.distributions, os);
    os << "), high-precision reference: "
       << (r.highPrecisionReference ? "yes" : "no") << "\n";
  }
  if (r.baselineTime && r.candidateTime) {
    printTiming(os, "baseline:  ", *r.baselineTime);
    printTiming(os, "candidate: ", *r.candidateTime);
    os << "speedup: " << llvm::format("%.3f", r.speedup) << "x\n";
  }
  os << "flags: ";
  if (r.flags.empty())
    os << "none";
  else
    llvm::interleaveComma(r.flags, os);
  os << "\n";
  if (r.correctnessTrials > 0)
    os << "references: " << r.referenceRuns << " runs, " << r.referencesReused
       << " trial inputs reused\n";
  for (const std::string &note : r.notes)
    os << "note: " << note << "\n";
  if (!r.phaseSeconds.empty()) {
    os << "judge's time:";
    printStepTimes(os, r.phaseSeconds);
    if (r.wallSeconds > 0)
      os << " in all " << llvm::format("%.3f", r.wallSeconds) << " s";
    os << "\n";
  }
  if (!r.runnerSeconds.empty()) {
    os << "runner's time (inside the judge's):";
    printStepTimes(os, r.runnerSeconds);
    os << "\n";
  }
  if (!r.logTail.empty()) {
    os << "worker log (tail):\n";
    for (StringRef line : llvm::split(StringRef(r.logTail).rtrim(), '\n'))
      os << "  | " << line << "\n";
  }
  return text;
}

//===- JudgeTest.cpp - The judge against kernels that keep state ----------===//
//
// The lowered-form guards refuse MLIR candidates with mutable globals, so
// a candidate that keeps state between runs cannot be written in MLIR for
// the cpu target. These tests plant such kernels as C++ behind a target of
// their own, to check the judge's defences directly: timed runs that rotate
// among input sets sharing all arguments but one, checksums of the inputs
// after every timed run, guard regions after every run.
//
//===----------------------------------------------------------------------===//

#include "TestModules.h"

#include "mlir/IR/BuiltinAttributes.h"

#include "gtest/gtest.h"

#include <chrono>
#include <map>
#include <thread>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::test;

namespace {

/// What separates a device's runs as the judge makes them: an upload from
/// the host before a correctness trial, a cache flush before a timed run.
/// Restoring a staged set is a copy where the kernel runs, and quick.
static void waitAsAnUploadOrAFlushDoes() {
  std::this_thread::sleep_for(std::chrono::milliseconds(3));
}

/// Host buffers; no guard regions of their own, but a kernel may report a
/// write outside them through `damage`.
class FakeArgs : public ArgBuffers {
public:
  explicit FakeArgs(const KernelSignature &sig) {
    for (const ArgSpec &spec : sig.args)
      args.emplace_back(spec);
  }
  LogicalResult upload(ArrayRef<HostBuffer> host, std::string &) override {
    waitAsAnUploadOrAFlushDoes();
    args.assign(host.begin(), host.end());
    return success();
  }
  LogicalResult stage(ArrayRef<std::vector<HostBuffer>> sets,
                      std::string &error) override {
    staged.assign(sets.begin(), sets.end());
    return ArgBuffers::stage(sets, error);
  }
  LogicalResult restore(unsigned index, std::string &error) override {
    if (index >= staged.size()) {
      error = "no such staged set";
      return failure();
    }
    args = staged[index];
    return success();
  }
  LogicalResult download(MutableArrayRef<HostBuffer> host,
                         std::string &) override {
    for (auto [i, b] : llvm::enumerate(host))
      b.bytes = args[i].bytes;
    return success();
  }
  LogicalResult downloadArg(unsigned index, HostBuffer &host,
                            std::string &) override {
    host.bytes = args[index].bytes;
    return success();
  }
  FailureOr<std::string> checkGuards(std::string &) override {
    return std::exchange(damage, std::string());
  }
  std::vector<HostBuffer> args;
  std::vector<std::vector<HostBuffer>> staged;
  std::string damage;
};

/// C += A * B on the 5x3 * 3x4 problem, with a planted behaviour.
class FakeKernel : public CompiledKernel {
public:
  explicit FakeKernel(std::string behaviour)
      : behaviour(std::move(behaviour)) {}
  LogicalResult run(ArgBuffers &buffers, std::string &) override {
    auto &a = static_cast<FakeArgs &>(buffers);
    HostBuffer &A = a.args[0], &B = a.args[1], &C = a.args[2];
    ++calls;
    // A cache of the result keyed by the first elements of B: a kernel
    // that "knows" its weight does not change.
    std::vector<uint8_t> key(B.bytes.begin(), B.bytes.begin() + 16);
    if (behaviour == "cache-on-b" && cache.count(key)) {
      C.bytes = cache[key];
      return success();
    }
    // The previous answer again when launched within 2 ms of the previous
    // launch: never when the runs are spaced out.
    auto now = std::chrono::steady_clock::now();
    bool recent = calls > 1 && now - lastLaunch < std::chrono::milliseconds(2);
    lastLaunch = now;
    if (behaviour == "replay-when-recent" && recent) {
      C.bytes = previous;
      return success();
    }
    for (int64_t i = 0; i < 5; ++i)
      for (int64_t j = 0; j < 4; ++j) {
        double s = C.getAsDouble(i * 4 + j);
        for (int64_t k = 0; k < 3; ++k)
          s += A.getAsDouble(i * 3 + k) * B.getAsDouble(k * 4 + j);
        C.setFromDouble(i * 4 + j, float(s));
      }
    if (behaviour == "cache-on-b")
      cache[key] = C.bytes;
    previous = C.bytes;
    // Past the correctness trials (two runs of six), an input changes.
    if (behaviour == "clobber-late" && calls > 12)
      A.setFromDouble(0, 0.5);
    if (behaviour == "write-past-end-late" && calls > 12)
      a.damage = "argument #2: 4 byte(s) after its end were written";
    return success();
  }
  std::string behaviour;
  int calls = 0;
  std::chrono::steady_clock::time_point lastLaunch;
  std::vector<uint8_t> previous;
  std::map<std::vector<uint8_t>, std::vector<uint8_t>> cache;
};

/// Compiles a module to the behaviour its `fake_kernel` attribute names
/// (none: the plain matmul, as the problem itself is).
class FakeTarget : public Target {
public:
  StringRef getName() const override { return "fake"; }
  std::string getUnavailableReason() const override { return ""; }
  FailureOr<std::unique_ptr<ArgBuffers>> allocate(const KernelSignature &sig,
                                                  std::string &) override {
    return std::unique_ptr<ArgBuffers>(std::make_unique<FakeArgs>(sig));
  }
  FailureOr<std::unique_ptr<CompiledKernel>>
  compile(ModuleOp module, const KernelSignature &, std::string &) override {
    auto name = module->getAttrOfType<StringAttr>("fake_kernel");
    return std::unique_ptr<CompiledKernel>(
        std::make_unique<FakeKernel>(name ? name.str() : ""));
  }
  FailureOr<double> timeRun(CompiledKernel &kernel, ArgBuffers &args,
                            const TimingRunOptions &,
                            std::string &error) override {
    waitAsAnUploadOrAFlushDoes();
    if (failed(kernel.run(args, error)))
      return failure();
    return 1e-6;
  }
};

class JudgeTest : public ::testing::Test {
protected:
  EvalResult evaluate(StringRef behaviour, double screenBelowSpeedup = 0) {
    OwningOpRef<ModuleOp> p = parse(*context, kMatmulProblem);
    OwningOpRef<ModuleOp> c = parse(*context, kMatmulProblem);
    EXPECT_TRUE(p && c);
    (*c)->removeAttr("stark.problem");
    (*c)->setAttr("fake_kernel", StringAttr::get(context.get(), behaviour));
    EvalOptions options;
    options.f64Reference = false;
    options.timing.warmupRuns = 1;
    options.timing.minTrials = 6;
    options.timing.maxTrials = 6;
    options.screenBelowSpeedup = screenBelowSpeedup;
    return evaluateCandidate(target, *p, *c, options);
  }
  std::unique_ptr<MLIRContext> context = makeContext();
  FakeTarget target;
};

} // namespace

TEST_F(JudgeTest, AnHonestKernelIsVerified) {
  EvalResult r = evaluate("honest");
  EXPECT_EQ(r.status, EvalStatus::Ok) << r.message;
  ASSERT_TRUE(r.candidateTime);
  EXPECT_EQ(r.candidateTime->trials, 6u);
}

// Every trial's inputs are new, and its second run repeats them: the cache
// is right until the timed set that shares B with set 0 and changes A.
TEST_F(JudgeTest, ACacheKeyedOnOneArgumentMeetsASetWhereOnlyItIsTheSame) {
  EvalResult r = evaluate("cache-on-b");
  EXPECT_EQ(r.status, EvalStatus::Wrong) << r.message;
  EXPECT_NE(r.message.find("(timed run 1 (normal, seed"), std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("argument #0 changed from set 0"), std::string::npos)
      << r.message;
}

TEST_F(JudgeTest, AnInputChangedWhileTimedIsCaught) {
  EvalResult r = evaluate("clobber-late");
  EXPECT_EQ(r.status, EvalStatus::Wrong) << r.message;
  EXPECT_NE(r.message.find("the candidate wrote to input argument #0 (timed "
                           "run"),
            std::string::npos)
      << r.message;
}

TEST_F(JudgeTest, AWriteOutsideTheArgumentsWhileTimedIsCaught) {
  EvalResult r = evaluate("write-past-end-late");
  EXPECT_EQ(r.status, EvalStatus::Wrong) << r.message;
  EXPECT_NE(r.message.find("the candidate wrote outside its arguments"),
            std::string::npos)
      << r.message;
}

// Spaced out by uploads and flushes, every run computes; the back-to-back
// pairs after the timing catch the replay.
TEST_F(JudgeTest, AReplayWhenLaunchedSoonAfterItselfIsCaught) {
  EvalResult r = evaluate("replay-when-recent");
  EXPECT_EQ(r.status, EvalStatus::Wrong) << r.message;
  EXPECT_NE(r.message.find("right after one on"), std::string::npos)
      << r.message;
}

// Screening times a candidate after its first trial instead of after all
// of them, which moves every call count above. A candidate fast enough to
// win still meets every check; one screened out is never verified.
TEST_F(JudgeTest, ScreeningLetsNoPlantedFaultThrough) {
  for (const char *fault : {"cache-on-b", "clobber-late", "write-past-end-late",
                            "replay-when-recent"}) {
    EvalResult canWin = evaluate(fault, /*screenBelowSpeedup=*/1e-9);
    EXPECT_EQ(canWin.status, EvalStatus::Wrong)
        << fault << ": " << canWin.message;
    EvalResult cannotWin = evaluate(fault, /*screenBelowSpeedup=*/1e9);
    EXPECT_FALSE(cannotWin.isOk()) << fault << ": " << cannotWin.message;
  }
  EXPECT_EQ(evaluate("honest", 1e-9).status, EvalStatus::Ok);
  EXPECT_EQ(evaluate("honest", 1e9).status, EvalStatus::Slower);
}

//===- CpuTargetTest.cpp - The host target: buffers, compile, run, time ---===//

#include "stark/Target/CpuTarget.h"
#include "TestModules.h"
#include "mlir/IR/TypeUtilities.h"
#include "stark/Target/DeferredTarget.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::test;

namespace {
class CpuTargetTest : public ::testing::Test {
protected:
  std::unique_ptr<MLIRContext> context = makeContext();
  std::unique_ptr<Target> target = createCpuTarget(*context);
};
} // namespace

// Ranks 0, 1 and 3 in one kernel: the descriptors are built per rank.
static constexpr const char *kRanks = R"mlir(
module {
  func.func @kernel(%s: memref<f32>, %v: memref<5xi32>, %t: memref<2x3x4xf64>, %out: memref<2x3x4xf64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %sv = memref.load %s[] : memref<f32>
    %sd = arith.extf %sv : f32 to f64
    %vi = memref.load %v[%c4] : memref<5xi32>
    %vd = arith.sitofp %vi : i32 to f64
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c3 step %c1 {
        scf.for %k = %c0 to %c4 step %c1 {
          %x = memref.load %t[%i, %j, %k] : memref<2x3x4xf64>
          %y = arith.mulf %x, %sd : f64
          %z = arith.addf %y, %vd : f64
          memref.store %z, %out[%i, %j, %k] : memref<2x3x4xf64>
        }
      }
    }
    return
  }
}
)mlir";

TEST_F(CpuTargetTest, RunsKernelsOfAnyRank) {
  ASSERT_TRUE(target);
  EXPECT_EQ(target->getName(), "cpu");
  EXPECT_EQ(target->getUnavailableReason(), "");
  OwningOpRef<ModuleOp> m = parse(*context, kRanks);
  ASSERT_TRUE(m);
  std::string error;
  FailureOr<KernelSignature> sig = getKernelSignature(*m, "kernel", 1, error);
  ASSERT_TRUE(succeeded(sig)) << error;
  auto kernel = target->compile(*m, *sig, error);
  ASSERT_TRUE(succeeded(kernel)) << error;
  auto args = target->allocate(*sig, error);
  ASSERT_TRUE(succeeded(args)) << error;

  std::vector<HostBuffer> host;
  for (const ArgSpec &spec : sig->args)
    host.emplace_back(spec);
  host[0].setFromDouble(0, 2.0);
  host[1].setFromDouble(4, 7);
  for (int64_t i = 0; i < 24; ++i)
    host[2].setFromDouble(i, double(i));
  ASSERT_TRUE(succeeded((*args)->upload(host, error))) << error;
  ASSERT_TRUE(succeeded((*kernel)->run(**args, error))) << error;
  std::vector<HostBuffer> out;
  for (const ArgSpec &spec : sig->args)
    out.emplace_back(spec);
  ASSERT_TRUE(succeeded((*args)->download(out, error))) << error;
  for (int64_t i = 0; i < 24; ++i)
    EXPECT_EQ(out[3].getAsDouble(i), 2.0 * i + 7) << i;
  EXPECT_EQ(out[2].bytes, host[2].bytes); // inputs come back unchanged

  TimingRunOptions timing;
  timing.flushCache = true;
  FailureOr<double> seconds = target->timeRun(**kernel, **args, timing, error);
  ASSERT_TRUE(succeeded(seconds)) << error;
  EXPECT_GT(*seconds, 0);
  EXPECT_LT(*seconds, 1.0);
}

TEST_F(CpuTargetTest, UploadChecksSizes) {
  KernelSignature sig;
  sig.entry = "kernel";
  ArgSpec a;
  a.shape = {4};
  sig.args = {a};
  std::string error;
  auto args = target->allocate(sig, error);
  ASSERT_TRUE(succeeded(args));
  ArgSpec wrong = a;
  wrong.shape = {5};
  std::vector<HostBuffer> host = {HostBuffer(wrong)};
  EXPECT_TRUE(failed((*args)->upload(host, error)));
  EXPECT_NE(error.find("argument #0 has 20 bytes, expected 16"),
            std::string::npos)
      << error;
  host.clear();
  EXPECT_TRUE(failed((*args)->upload(host, error)));
}

TEST_F(CpuTargetTest, CompileErrorsNameTheProblem) {
  OwningOpRef<ModuleOp> m = parse(*context, R"mlir(
module {
  func.func @kernel(%a: memref<4xf32>) {
    gpu.barrier
    return
  }
}
)mlir");
  ASSERT_TRUE(m);
  std::string error;
  FailureOr<KernelSignature> sig = getKernelSignature(*m, "kernel", 1, error);
  ASSERT_TRUE(succeeded(sig)) << error;
  EXPECT_TRUE(failed(target->compile(*m, *sig, error)));
  EXPECT_NE(error.find("cannot convert 'gpu.barrier'"), std::string::npos)
      << error;

  KernelSignature other = *sig;
  other.entry = "missing";
  EXPECT_TRUE(failed(target->compile(*m, other, error)));
  EXPECT_NE(error.find("no function body named 'missing'"), std::string::npos)
      << error;
}

TEST_F(CpuTargetTest, Bf16ArithmeticNeedsNoRuntimeConversions) {
  OwningOpRef<ModuleOp> m = parse(*context, R"mlir(
module {
  func.func @kernel(%A: memref<4x8xbf16>, %B: memref<8x2xbf16>, %C: memref<4x2xbf16>) {
    linalg.matmul ins(%A, %B : memref<4x8xbf16>, memref<8x2xbf16>) outs(%C : memref<4x2xbf16>)
    %c0 = arith.constant 0 : index
    %x = memref.load %C[%c0, %c0] : memref<4x2xbf16>
    %e = math.exp %x : bf16
    memref.store %e, %C[%c0, %c0] : memref<4x2xbf16>
    return
  }
}
)mlir");
  ASSERT_TRUE(m);
  std::string error;
  ASSERT_TRUE(succeeded(lowerModuleForCpu(*m, "kernel", error))) << error;
  // LLVM would turn any of these on bf16 into a call of __truncsfbf2.
  SmallVector<std::string> offenders;
  m->walk([&](Operation *op) {
    StringRef name = op->getName().getStringRef();
    if (!llvm::is_contained({"llvm.fptrunc", "llvm.fadd", "llvm.fmul",
                             "llvm.fsub", "llvm.fdiv", "llvm.intr.exp"},
                            name))
      return;
    for (Type t :
         llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      if (getElementTypeOrSelf(t).isBF16())
        offenders.push_back(name.str());
  });
  EXPECT_TRUE(offenders.empty()) << (offenders.empty() ? "" : offenders[0]);
  EXPECT_TRUE(m->lookupSymbol("_mlir_ciface_kernel"));
}

// linalg.softmax on buffers (which upstream decomposes only on tensors) runs
// through the decomposition: each row of the output is exp(x - max) / sum,
// checked against a direct computation, including a row of NaN-free large
// values where a missing max subtraction would overflow.
TEST_F(CpuTargetTest, SoftmaxOnBuffersRuns) {
  OwningOpRef<ModuleOp> m = parse(*context, R"mlir(
module {
  func.func @kernel(%x: memref<3x5xf32>, %y: memref<3x5xf32>) {
    linalg.softmax dimension(1) ins(%x : memref<3x5xf32>)
                                outs(%y : memref<3x5xf32>)
    return
  }
}
)mlir");
  ASSERT_TRUE(m);
  std::string error;
  FailureOr<KernelSignature> sig = getKernelSignature(*m, "kernel", 1, error);
  ASSERT_TRUE(succeeded(sig)) << error;
  auto kernel = target->compile(*m, *sig, error);
  ASSERT_TRUE(succeeded(kernel)) << error;
  auto args = target->allocate(*sig, error);
  ASSERT_TRUE(succeeded(args)) << error;
  std::vector<HostBuffer> host;
  for (const ArgSpec &spec : sig->args)
    host.emplace_back(spec);
  const double x[3][5] = {
      {0, 1, 2, 3, 4}, {-1, -1, -1, -1, -1}, {500, 501, 499, 200, 502}};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c)
      host[0].setFromDouble(r * 5 + c, x[r][c]);
  ASSERT_TRUE(succeeded((*args)->upload(host, error))) << error;
  ASSERT_TRUE(succeeded((*kernel)->run(**args, error))) << error;
  std::vector<HostBuffer> out;
  for (const ArgSpec &spec : sig->args)
    out.emplace_back(spec);
  ASSERT_TRUE(succeeded((*args)->download(out, error))) << error;
  for (int r = 0; r < 3; ++r) {
    double max = *std::max_element(x[r], x[r] + 5), sum = 0;
    for (int c = 0; c < 5; ++c)
      sum += std::exp(x[r][c] - max);
    for (int c = 0; c < 5; ++c)
      EXPECT_NEAR(out[1].getAsDouble(r * 5 + c), std::exp(x[r][c] - max) / sum,
                  1e-6)
          << r << "," << c;
  }
}

// One element written past the end of an output, one past the end of an
// input: both guards report it (and are restored), a clean run reports
// nothing. (A view cannot reach before its buffer in MLIR: offsets are
// non-negative; GuardPatternTest covers damage before the start.)
static constexpr const char *kOutOfBounds = R"mlir(
module {
  func.func @kernel(%in: memref<8xf32>, %out: memref<8xf32>) {
    %c8 = arith.constant 8 : index
    %one = arith.constant 1.0 : f32
    %wide = memref.reinterpret_cast %out to offset: [0], sizes: [9], strides: [1] : memref<8xf32> to memref<9xf32>
    memref.store %one, %wide[%c8] : memref<9xf32>
    %wideIn = memref.reinterpret_cast %in to offset: [0], sizes: [9], strides: [1] : memref<8xf32> to memref<9xf32>
    memref.store %one, %wideIn[%c8] : memref<9xf32>
    return
  }
  func.func @clean(%in: memref<8xf32>, %out: memref<8xf32>) {
    memref.copy %in, %out : memref<8xf32> to memref<8xf32>
    return
  }
}
)mlir";

TEST_F(CpuTargetTest, GuardRegionsCatchWritesOutsideTheArguments) {
  OwningOpRef<ModuleOp> m = parse(*context, kOutOfBounds);
  ASSERT_TRUE(m);
  std::string error;
  for (StringRef entry : {"kernel", "clean"}) {
    OwningOpRef<ModuleOp> copy(m->clone());
    FailureOr<KernelSignature> sig = getKernelSignature(*copy, entry, 1, error);
    ASSERT_TRUE(succeeded(sig)) << error;
    auto kernel = target->compile(*copy, *sig, error);
    ASSERT_TRUE(succeeded(kernel)) << error;
    auto args = target->allocate(*sig, error);
    ASSERT_TRUE(succeeded(args)) << error;
    std::vector<HostBuffer> host;
    for (const ArgSpec &spec : sig->args)
      host.emplace_back(spec);
    ASSERT_TRUE(succeeded((*args)->upload(host, error))) << error;
    ASSERT_TRUE(succeeded((*kernel)->run(**args, error))) << error;
    FailureOr<std::string> damage = (*args)->checkGuards(error);
    ASSERT_TRUE(succeeded(damage)) << error;
    if (entry == "clean") {
      EXPECT_EQ(*damage, "");
      continue;
    }
    EXPECT_NE(damage->find("argument #1: 4 byte(s) after its end"),
              std::string::npos)
        << *damage;
    EXPECT_NE(damage->find("argument #0: 4 byte(s) after its end were "
                           "written (nearest at end+0)"),
              std::string::npos)
        << *damage;
    // Damaged guards get their pattern back: the next check is clean.
    damage = (*args)->checkGuards(error);
    ASSERT_TRUE(succeeded(damage)) << error;
    EXPECT_EQ(*damage, "");
  }
}

TEST(GuardPatternTest, DamageIsDescribedFromTheNearestByte) {
  SmallVector<uint8_t> before(64), after(64);
  fillGuardPattern(before, 2, false);
  fillGuardPattern(after, 2, true);
  EXPECT_EQ(describeGuardDamage(before, after, 2), "");
  // The two sides of one argument, and two arguments, differ.
  SmallVector<uint8_t> other(64);
  fillGuardPattern(other, 3, false);
  EXPECT_NE(before, after);
  EXPECT_NE(before, other);
  before[60] ^= 1;
  before[10] ^= 1;
  after[5] ^= 0xff;
  EXPECT_EQ(describeGuardDamage(before, after, 2),
            "argument #2: 2 byte(s) before its start were written (nearest "
            "at start-4); argument #2: 1 byte(s) after its end were written "
            "(nearest at end+5)");
}

TEST_F(CpuTargetTest, StagedSetsRestoreAndShowChangedInputs) {
  KernelSignature sig;
  sig.entry = "f";
  sig.args.push_back(ArgSpec{{5}, ElementKind::F32, false});
  sig.args.push_back(ArgSpec{{3}, ElementKind::I8, false});
  sig.args.push_back(ArgSpec{{4}, ElementKind::F32, true});
  std::string error;
  auto args = target->allocate(sig, error);
  ASSERT_TRUE(succeeded(args)) << error;
  std::vector<std::vector<HostBuffer>> sets(2);
  for (auto [s, set] : llvm::enumerate(sets))
    for (auto [i, spec] : llvm::enumerate(sig.args)) {
      set.emplace_back(spec);
      for (int64_t e = 0; e < spec.numElements(); ++e)
        set.back().setFromDouble(e, double(10 * s + i + e));
    }
  ASSERT_TRUE(succeeded((*args)->stage(sets, error))) << error;
  for (unsigned s : {1u, 0u, 1u}) {
    ASSERT_TRUE(succeeded((*args)->restore(s, error))) << error;
    std::vector<HostBuffer> back;
    for (const ArgSpec &spec : sig.args)
      back.emplace_back(spec);
    ASSERT_TRUE(succeeded((*args)->download(back, error))) << error;
    for (size_t i = 0; i < back.size(); ++i)
      EXPECT_EQ(back[i].bytes, sets[s][i].bytes) << "set " << s << " arg " << i;
    FailureOr<SmallVector<unsigned>> changed =
        (*args)->findChangedInputs(s, error);
    ASSERT_TRUE(succeeded(changed)) << error;
    EXPECT_TRUE(changed->empty());
  }
  // Set 1 is in place; argument #1 now holds set 0's bytes, the output
  // anything: only the input shows, against set 1 alone.
  std::vector<HostBuffer> mixed = sets[1];
  mixed[1] = sets[0][1];
  mixed[2] = sets[0][2];
  ASSERT_TRUE(succeeded((*args)->upload(mixed, error))) << error;
  FailureOr<SmallVector<unsigned>> changed =
      (*args)->findChangedInputs(1, error);
  ASSERT_TRUE(succeeded(changed)) << error;
  EXPECT_EQ(*changed, SmallVector<unsigned>({1}));
  changed = (*args)->findChangedInputs(0, error);
  ASSERT_TRUE(succeeded(changed)) << error;
  EXPECT_EQ(*changed, SmallVector<unsigned>({0}));
  EXPECT_TRUE(failed((*args)->restore(2, error)));
  EXPECT_NE(error.find("no staged input set #2"), std::string::npos) << error;
}

// Four shards of four threads: each marks its slot and writes its index
// into element 0, so element 0 names the shard that ran last.
static constexpr const char *kShardOrder = R"mlir(
module attributes {stark.cpu.threads = 4 : i64} {
  func.func @kernel(%out: memref<5xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
      %v = arith.index_cast %i : index to i64
      %slot = arith.addi %i, %c1 : index
      memref.store %v, %out[%slot] : memref<5xi64>
      memref.store %v, %out[%c0] : memref<5xi64>
      scf.reduce
    }
    return
  }
}
)mlir";

TEST_F(CpuTargetTest, RescheduledRunTakesTheShardsLastFirst) {
  OwningOpRef<ModuleOp> m = parse(*context, kShardOrder);
  ASSERT_TRUE(m);
  std::string error;
  FailureOr<KernelSignature> sig = getKernelSignature(*m, "kernel", 1, error);
  ASSERT_TRUE(succeeded(sig)) << error;
  auto kernel = target->compile(*m, *sig, error);
  ASSERT_TRUE(succeeded(kernel)) << error;
  auto args = target->allocate(*sig, error);
  ASSERT_TRUE(succeeded(args)) << error;
  std::vector<HostBuffer> host;
  host.emplace_back(sig->args[0]);
  for (int64_t e = 0; e < 5; ++e)
    host[0].setFromDouble(e, -1);
  ASSERT_TRUE(succeeded((*args)->upload(host, error))) << error;
  ASSERT_TRUE(succeeded(target->runRescheduled(**kernel, **args, 1, error)))
      << error;
  ASSERT_TRUE(succeeded((*args)->download(host, error))) << error;
  // Every shard ran, and shard 0 ran last.
  EXPECT_EQ(host[0].getAsDouble(0), 0);
  for (int64_t t = 0; t < 4; ++t)
    EXPECT_EQ(host[0].getAsDouble(t + 1), double(t)) << t;
}

TEST_F(CpuTargetTest, ADeferredTargetIsCreatedByItsFirstRealUse) {
  DeferredTarget deferred("cpu", *context);
  // Its name and whether it can run here are known without creating it.
  EXPECT_EQ(deferred.getName(), "cpu");
  EXPECT_EQ(deferred.getUnavailableReason(), "");
  EXPECT_FALSE(deferred.isCreated());
  OwningOpRef<ModuleOp> m = parse(*context, kRanks);
  ASSERT_TRUE(m);
  std::string error;
  FailureOr<KernelSignature> sig = getKernelSignature(*m, "kernel", 1, error);
  ASSERT_TRUE(succeeded(sig)) << error;
  // A compile needs it: created then, and the kernel is the target's own.
  auto kernel = deferred.compile(*m, *sig, error);
  ASSERT_TRUE(succeeded(kernel)) << error;
  EXPECT_TRUE(deferred.isCreated());
  auto args = deferred.allocate(*sig, error);
  ASSERT_TRUE(succeeded(args)) << error;
  EXPECT_TRUE(succeeded((*kernel)->run(**args, error))) << error;

  // One that cannot be created says why, at every use.
  DeferredTarget unknown("tpu", *context);
  EXPECT_EQ(unknown.getName(), "tpu");
  EXPECT_NE(unknown.getUnavailableReason().find("unknown target 'tpu'"),
            std::string::npos);
  EXPECT_FALSE(unknown.isCreated());
  error.clear();
  EXPECT_TRUE(failed(unknown.allocate(*sig, error)));
  EXPECT_NE(error.find("unknown target 'tpu'"), std::string::npos) << error;
}

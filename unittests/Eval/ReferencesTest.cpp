//===- ReferencesTest.cpp - The store of reference outputs ----------------===//

#include "stark/Eval/References.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stark;

namespace {
class ReferencesTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("stark-refs-test", dir));
    for (auto [shape, kind, isOutput] :
         {std::tuple{SmallVector<int64_t>{3, 5}, ElementKind::F32, false},
          std::tuple{SmallVector<int64_t>{5, 2}, ElementKind::F16, false},
          std::tuple{SmallVector<int64_t>{3, 2}, ElementKind::F16, true},
          std::tuple{SmallVector<int64_t>{7}, ElementKind::I32, true}}) {
      ArgSpec spec;
      spec.shape = shape;
      spec.kind = kind;
      spec.isOutput = isOutput;
      sig.args.push_back(spec);
    }
    sig.entry = "kernel";
  }
  void TearDown() override {
    llvm::sys::fs::remove_directories(dir, /*IgnoreErrors=*/true);
  }

  /// Full argument vectors: the baseline's in the signature's kinds, the
  /// high-precision one widened to f32.
  std::vector<HostBuffer> outputs(uint64_t seed, bool wide) {
    std::vector<HostBuffer> args;
    for (const ArgSpec &spec : sig.args) {
      args.emplace_back(wide ? widenSpec(spec, ElementKind::F32) : spec);
      fillRandom(args.back(), Distribution::Normal, seed + args.size());
    }
    return args;
  }

  SmallString<128> dir;
  KernelSignature sig;
};
} // namespace

TEST_F(ReferencesTest, WidenSpecWidensNarrowFloatsOnly) {
  EXPECT_EQ(widenSpec(sig.args[1], ElementKind::F32).kind, ElementKind::F32);
  EXPECT_EQ(widenSpec(sig.args[0], ElementKind::F64).kind, ElementKind::F64);
  EXPECT_EQ(widenSpec(sig.args[3], ElementKind::F64).kind, ElementKind::I32);
}

TEST_F(ReferencesTest, StoredOutputsComeBackBitForBit) {
  ReferenceStore writer(dir, /*writable=*/true, /*maxBytes=*/1 << 20);
  std::vector<HostBuffer> baseline = outputs(1, false), high = outputs(2, true);
  std::string error;
  FailureOr<bool> saved = writer.save(77, Distribution::Large, sig, &baseline,
                                      ElementKind::F32, &high, error);
  ASSERT_TRUE(succeeded(saved)) << error;
  EXPECT_TRUE(*saved);

  ReferenceStore reader(dir, /*writable=*/false, 0);
  std::vector<HostBuffer> b, h;
  ASSERT_TRUE(
      reader.load(77, Distribution::Large, sig, &b, ElementKind::F32, &h));
  ASSERT_EQ(b.size(), sig.args.size());
  ASSERT_EQ(h.size(), sig.args.size());
  for (auto [i, spec] : llvm::enumerate(sig.args)) {
    if (!spec.isOutput) {
      EXPECT_TRUE(b[i].bytes.empty()); // inputs are placeholders
      continue;
    }
    EXPECT_EQ(b[i].spec.kind, spec.kind);
    EXPECT_EQ(b[i].bytes, baseline[i].bytes);
    EXPECT_EQ(h[i].bytes, high[i].bytes);
  }
  // The baseline alone is there too.
  EXPECT_TRUE(
      reader.load(77, Distribution::Large, sig, &b, std::nullopt, nullptr));

  // Another seed, distribution or reference kind is not stored.
  EXPECT_FALSE(
      reader.load(78, Distribution::Large, sig, &b, ElementKind::F32, &h));
  EXPECT_FALSE(
      reader.load(77, Distribution::Tiny, sig, &b, ElementKind::F32, &h));
  EXPECT_FALSE(
      reader.load(77, Distribution::Large, sig, &b, ElementKind::F64, &h));
  // A reader never writes.
  EXPECT_TRUE(failed(reader.save(79, Distribution::Large, sig, &baseline,
                                 std::nullopt, nullptr, error)));
}

TEST_F(ReferencesTest, AFileOfTheWrongSizeIsNotUsed) {
  ReferenceStore writer(dir, true, 1 << 20);
  std::vector<HostBuffer> baseline = outputs(1, false);
  std::string error;
  ASSERT_TRUE(succeeded(writer.save(5, Distribution::Uniform, sig, &baseline,
                                    std::nullopt, nullptr, error)));
  SmallString<128> path(dir);
  llvm::sys::path::append(path, "5-uniform.baseline.3");
  llvm::sys::fs::setPermissions(path, llvm::sys::fs::all_all);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << "short";
  }
  std::vector<HostBuffer> b;
  EXPECT_FALSE(
      ReferenceStore(dir, false, 0)
          .load(5, Distribution::Uniform, sig, &b, std::nullopt, nullptr));
  EXPECT_TRUE(b.empty());
}

TEST_F(ReferencesTest, TheByteLimitLeavesTrialsOut) {
  // One trial's baseline outputs: 3x2 f16 + 7 i32 = 40 bytes.
  ReferenceStore writer(dir, true, 60);
  std::vector<HostBuffer> baseline = outputs(1, false);
  std::string error;
  FailureOr<bool> first = writer.save(1, Distribution::Uniform, sig, &baseline,
                                      std::nullopt, nullptr, error);
  FailureOr<bool> second = writer.save(2, Distribution::Uniform, sig, &baseline,
                                       std::nullopt, nullptr, error);
  ASSERT_TRUE(succeeded(first) && succeeded(second));
  EXPECT_TRUE(*first);
  EXPECT_FALSE(*second);
  std::vector<HostBuffer> b;
  ReferenceStore reader(dir, false, 0);
  EXPECT_TRUE(
      reader.load(1, Distribution::Uniform, sig, &b, std::nullopt, nullptr));
  EXPECT_FALSE(
      reader.load(2, Distribution::Uniform, sig, &b, std::nullopt, nullptr));
}

TEST_F(ReferencesTest, TheManifestBelongsToOneKey) {
  ReferenceStore writer(dir, true, 1 << 20);
  ReferenceManifest m;
  m.key = "problem 1; target cpu; seed 0";
  m.flags = {"no_high_precision_reference"};
  m.notes = {"why not"};
  std::string error;
  ASSERT_TRUE(succeeded(writer.writeManifest(m, error))) << error;
  ReferenceStore reader(dir, false, 0);
  std::optional<ReferenceManifest> back = reader.readManifest(m.key);
  ASSERT_TRUE(back);
  EXPECT_FALSE(back->highKind);
  EXPECT_EQ(back->flags, m.flags);
  EXPECT_EQ(back->notes, m.notes);
  EXPECT_FALSE(reader.readManifest("problem 1; target cpu; seed 1"));

  m.highKind = ElementKind::F64;
  ASSERT_TRUE(succeeded(writer.writeManifest(m, error))) << error;
  back = reader.readManifest(m.key);
  ASSERT_TRUE(back && back->highKind);
  EXPECT_EQ(*back->highKind, ElementKind::F64);
}

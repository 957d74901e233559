//===- CudaUtilityKernelsTest.cpp - The cuda target's own kernels ---------===//
//
// The comparison kernel of staged input sets and the device load beside a
// run are hand-written PTX: both must assemble for sm_90a (ptxas, no GPU),
// the load's shapes must stay in their bounds, and with a GPU the staged
// sets must restore and compare as the interface says.
//
//===----------------------------------------------------------------------===//

#include "stark/Target/CudaBufferCompare.h"
#include "stark/Target/CudaDeviceLoad.h"
#include "stark/Target/CudaTarget.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <set>

using namespace mlir;
using namespace mlir::stark;

namespace {

std::string findPtxas() {
  if (llvm::sys::fs::can_execute("/usr/local/cuda/bin/ptxas"))
    return "/usr/local/cuda/bin/ptxas";
  if (auto found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  return "";
}

/// Assembles `ptx` for sm_90a; empty on success, else ptxas's complaint.
std::string assemble(StringRef ptx, StringRef ptxas) {
  SmallString<128> in, out, log;
  llvm::sys::fs::createTemporaryFile("stark-utility", "ptx", in);
  llvm::sys::fs::createTemporaryFile("stark-utility", "cubin", out);
  llvm::sys::fs::createTemporaryFile("stark-utility", "log", log);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(in, ec);
    os << ptx;
  }
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  int rc = llvm::sys::ExecuteAndWait(
      ptxas, {ptxas, "-arch=sm_90a", "-o", out, in}, std::nullopt, redirects);
  std::string result;
  if (rc != 0) {
    auto text = llvm::MemoryBuffer::getFile(log);
    result = "ptxas failed (" + std::to_string(rc) + ")" +
             (text ? ": " + (*text)->getBuffer().str() : "");
  }
  for (StringRef p : {StringRef(in), StringRef(out), StringRef(log)})
    llvm::sys::fs::remove(p);
  return result;
}

TEST(CudaUtilityKernelsTest, PtxAssemblesForSm90a) {
  std::string ptxas = findPtxas();
  if (ptxas.empty())
    GTEST_SKIP() << "no ptxas";
  EXPECT_EQ(assemble(getBufferComparePtx(), ptxas), "");
  EXPECT_EQ(assemble(getDeviceLoadPtx(), ptxas), "");
}

TEST(CudaUtilityKernelsTest, LoadShapesStayInTheirBounds) {
  for (unsigned sms : {1u, 8u, 132u}) {
    std::set<unsigned> blockCounts;
    std::set<uint64_t> holds;
    for (unsigned variant = 1; variant <= 64; ++variant) {
      DeviceLoadShape shape = getDeviceLoadShape(variant, sms);
      // Two 1024-thread blocks fill an SM; never the whole device.
      EXPECT_GE(shape.blocks, 2 * std::max(1u, sms / 4)) << sms;
      EXPECT_LE(shape.blocks, 2 * std::max(1u, sms * 9 / 10)) << sms;
      EXPECT_GE(shape.holdNanoseconds, 50'000u);
      EXPECT_LE(shape.holdNanoseconds, 400'000u);
      blockCounts.insert(shape.blocks);
      holds.insert(shape.holdNanoseconds);
    }
    // The variants differ from each other where the device allows it.
    if (sms >= 8)
      EXPECT_GT(blockCounts.size(), 3u) << sms;
    EXPECT_EQ(holds.size(), 8u);
  }
}

TEST(CudaUtilityKernelsTest, StagedSetsRestoreAndCompareOnTheDevice) {
  MLIRContext context;
  std::unique_ptr<Target> target = createCudaTarget(context);
  if (std::string why = target->getUnavailableReason(); !why.empty())
    GTEST_SKIP() << why;
  KernelSignature sig;
  sig.entry = "f";
  // 4099 bytes: a tail the word loop does not cover.
  sig.args.push_back(ArgSpec{{4099}, ElementKind::I8, false});
  sig.args.push_back(ArgSpec{{1 << 20}, ElementKind::F32, false});
  sig.args.push_back(ArgSpec{{16}, ElementKind::F32, true});
  std::string error;
  auto args = target->allocate(sig, error);
  ASSERT_TRUE(succeeded(args)) << error;
  std::vector<std::vector<HostBuffer>> sets(2);
  for (auto [s, set] : llvm::enumerate(sets))
    for (const ArgSpec &spec : sig.args) {
      set.emplace_back(spec);
      for (auto [e, byte] : llvm::enumerate(set.back().bytes))
        byte = uint8_t(e * 7 + s);
    }
  ASSERT_TRUE(succeeded((*args)->stage(sets, error))) << error;
  for (unsigned s : {1u, 0u}) {
    ASSERT_TRUE(succeeded((*args)->restore(s, error))) << error;
    std::vector<HostBuffer> back;
    for (const ArgSpec &spec : sig.args)
      back.emplace_back(spec);
    ASSERT_TRUE(succeeded((*args)->download(back, error))) << error;
    for (size_t i = 0; i < back.size(); ++i)
      EXPECT_EQ(back[i].bytes, sets[s][i].bytes) << "set " << s << " arg " << i;
    auto changed = (*args)->findChangedInputs(s, error);
    ASSERT_TRUE(succeeded(changed)) << error;
    EXPECT_TRUE(changed->empty());
  }
  // One byte in the tail of argument #0, one word in argument #1.
  for (unsigned arg : {0u, 1u}) {
    std::vector<HostBuffer> changedSet = sets[0];
    changedSet[arg].bytes.back() ^= 0x40;
    ASSERT_TRUE(succeeded((*args)->upload(changedSet, error))) << error;
    auto changed = (*args)->findChangedInputs(0, error);
    ASSERT_TRUE(succeeded(changed)) << error;
    EXPECT_EQ(*changed, SmallVector<unsigned>({arg}));
  }
}

} // namespace

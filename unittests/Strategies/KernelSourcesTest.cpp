//===- KernelSourcesTest.cpp - Embedded kernel sources are the .cuh files -===//

#include "stark/Strategies/KernelSources.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <set>

using namespace mlir;
using namespace mlir::stark;

namespace {

std::string kernelsDir() {
  llvm::SmallString<256> dir(STARK_SOURCE_DIR);
  llvm::sys::path::append(dir, "lib", "Strategies", "Kernels");
  return std::string(dir);
}

TEST(KernelSourcesTest, EveryCuhFileIsEmbeddedByteForByte) {
  std::set<std::string> onDisk;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(kernelsDir(), ec), end;
       it != end && !ec; it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".cuh")
      onDisk.insert(llvm::sys::path::filename(it->path()).str());
  ASSERT_FALSE(ec) << ec.message();
  ASSERT_FALSE(onDisk.empty());

  std::set<std::string> embedded;
  for (const KernelSource &source : getKernelSources()) {
    embedded.insert(source.fileName.str());
    llvm::SmallString<256> path(kernelsDir());
    llvm::sys::path::append(path, source.fileName);
    auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    ASSERT_TRUE(file) << path.str().str();
    EXPECT_EQ(source.text, (*file)->getBuffer()) << source.fileName.str();
  }
  EXPECT_EQ(embedded, onDisk);
}

TEST(KernelSourcesTest, LookupByFileName) {
  ASSERT_FALSE(getKernelSources().empty());
  const KernelSource &first = getKernelSources().front();
  std::optional<StringRef> text = getKernelSource(first.fileName);
  ASSERT_TRUE(text);
  EXPECT_EQ(text->data(), first.text.data());
  EXPECT_FALSE(getKernelSource("NoSuchKernel.cuh"));
}

} // namespace

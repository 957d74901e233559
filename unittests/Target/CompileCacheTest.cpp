//===- CompileCacheTest.cpp - Compiled candidates kept on disk ------------===//

#include "stark/Target/CompileCache.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <thread>

using namespace mlir;
using namespace mlir::stark;

namespace {
class CompileCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("stark-cache", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }
  SmallString<128> dir;
};
} // namespace

TEST_F(CompileCacheTest, StoredBlobsComeBackWhole) {
  CompileCache cache(std::string(dir.str()));
  std::string key = CompileCache::makeKey({"source", "sm_90a"});
  EXPECT_FALSE(cache.lookup("nvrtc", key));
  std::string binary("\0\n12\nbytes\n", 11);
  cache.store("nvrtc", key, {"ptx text\n", binary, "", "name"});
  auto blobs = cache.lookup("nvrtc", key);
  ASSERT_TRUE(blobs);
  ASSERT_EQ(blobs->size(), 4u);
  EXPECT_EQ((*blobs)[0], "ptx text\n");
  EXPECT_EQ((*blobs)[1], binary);
  EXPECT_EQ((*blobs)[2], "");
  EXPECT_EQ((*blobs)[3], "name");
  EXPECT_EQ(cache.getHits(), 1u);
  EXPECT_EQ(cache.getMisses(), 1u);
  // Kinds are kept apart.
  EXPECT_FALSE(cache.lookup("other", key));
}

TEST_F(CompileCacheTest, KeysDependOnEveryPartAndItsBoundaries) {
  std::string k = CompileCache::makeKey({"ab", "c"});
  EXPECT_EQ(k, CompileCache::makeKey({"ab", "c"}));
  EXPECT_NE(k, CompileCache::makeKey({"a", "bc"}));
  EXPECT_NE(k, CompileCache::makeKey({"ab", "c", ""}));
  EXPECT_NE(k, CompileCache::makeKey({"ab", "d"}));
  EXPECT_EQ(k.size(), 64u);
}

TEST_F(CompileCacheTest, MalformedEntriesMiss) {
  CompileCache cache(std::string(dir.str()));
  std::string key = CompileCache::makeKey({"x"});
  cache.store("nvrtc", key, {"0123456789"});
  SmallString<128> path(dir);
  llvm::sys::path::append(path, "nvrtc", key);
  for (StringRef text : {"stark-compile-cache 1\n10\n01234",
                         "not a cache entry", "stark-compile-cache 1\nx\n"}) {
    {
      std::error_code ec;
      llvm::raw_fd_ostream os(path, ec);
      ASSERT_FALSE(ec);
      os << text;
    }
    EXPECT_FALSE(cache.lookup("nvrtc", key)) << text.str();
  }
}

TEST_F(CompileCacheTest, OffCacheNeitherStoresNorFinds) {
  CompileCache off("");
  EXPECT_FALSE(off.isEnabled());
  off.store("nvrtc", "k", {"v"});
  EXPECT_FALSE(off.lookup("nvrtc", "k"));
}

// Writers of one entry race; readers see a whole entry or none.
TEST_F(CompileCacheTest, ConcurrentWritersLeaveAWholeEntry) {
  CompileCache cache(std::string(dir.str()));
  std::string key = CompileCache::makeKey({"race"});
  std::string big(1 << 20, 'x');
  std::vector<std::thread> threads;
  std::atomic<int> torn{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 10; ++i) {
        cache.store("nvrtc", key, {big, "end"});
        if (auto blobs = cache.lookup("nvrtc", key))
          if (blobs->size() != 2 || (*blobs)[0] != big || (*blobs)[1] != "end")
            ++torn;
      }
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(torn.load(), 0);
  std::error_code ec;
  unsigned files = 0;
  SmallString<128> kindDir(dir);
  llvm::sys::path::append(kindDir, "nvrtc");
  for (llvm::sys::fs::directory_iterator it(kindDir, ec), end; it != end && !ec;
       it.increment(ec))
    ++files;
  EXPECT_EQ(files, 1u) << "temporary files left behind";
}

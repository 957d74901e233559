//===- RunnerProcessTest.cpp - The runner protocol's frames ---------------===//

#include "stark/Eval/RunnerProcess.h"

#include "gtest/gtest.h"

#include <unistd.h>

using namespace mlir;
using namespace mlir::stark;
namespace json = llvm::json;

namespace {
/// A pipe whose two ends close with the test.
struct Pipe {
  int fds[2] = {-1, -1};
  Pipe() { EXPECT_EQ(::pipe(fds), 0); }
  ~Pipe() {
    for (int fd : fds)
      if (fd >= 0)
        ::close(fd);
  }
  void closeWriter() {
    ::close(fds[1]);
    fds[1] = -1;
  }
};
} // namespace

TEST(RunnerProtocolTest, MessagesRoundTrip) {
  Pipe p;
  std::vector<uint8_t> a = {1, 2, 3}, empty;
  SmallVector<ArrayRef<uint8_t>> blobs = {a, empty};
  std::string error;
  ASSERT_TRUE(succeeded(writeRunnerMessage(
      p.fds[1], json::Object{{"op", "run"}, {"n", 2}}, blobs, error)))
      << error;
  RunnerMessage m;
  ASSERT_TRUE(succeeded(readRunnerMessage(p.fds[0], m, error))) << error;
  EXPECT_EQ(m.header.getAsObject()->getString("op"), "run");
  ASSERT_EQ(m.blobs.size(), 2u);
  EXPECT_EQ(m.blobs[0], a);
  EXPECT_TRUE(m.blobs[1].empty());
}

// A blob altered on the way fails its checksum; a reply cut short is an end
// of file, not data.
TEST(RunnerProtocolTest, AlteredOrCutMessagesAreErrors) {
  std::vector<uint8_t> a = {1, 2, 3, 4};
  SmallVector<ArrayRef<uint8_t>> blobs = {a};
  std::string error;
  std::string frame;
  {
    Pipe p;
    ASSERT_TRUE(
        succeeded(writeRunnerMessage(p.fds[1], json::Object{}, blobs, error)));
    p.closeWriter();
    char buffer[256];
    ssize_t n;
    while ((n = ::read(p.fds[0], buffer, sizeof(buffer))) > 0)
      frame.append(buffer, size_t(n));
  }
  // The blob's bytes sit just before its 8-byte checksum at the end.
  std::string altered = frame;
  altered[altered.size() - 9] ^= 1;
  for (auto [bytes, expected] :
       {std::pair{altered, "does not match its checksum"},
        std::pair{frame.substr(0, frame.size() - 3), "closed"},
        std::pair{std::string("garbage!garbage!"), "something other"}}) {
    Pipe p;
    ASSERT_EQ(::write(p.fds[1], bytes.data(), bytes.size()),
              ssize_t(bytes.size()));
    p.closeWriter();
    RunnerMessage m;
    error.clear();
    EXPECT_TRUE(failed(readRunnerMessage(p.fds[0], m, error)));
    EXPECT_NE(error.find(expected), std::string::npos) << error;
  }
}

TEST(RunnerProtocolTest, SanitizerToolsAreChecked) {
  std::string error;
  EXPECT_TRUE(failed(getSanitizerLauncher("memchek", error)));
  EXPECT_NE(error.find("unknown compute-sanitizer tool 'memchek'"),
            std::string::npos)
      << error;
}

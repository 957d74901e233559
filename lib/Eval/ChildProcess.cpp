//===- ChildProcess.cpp - Run a program with a deadline, thread-safely ----===//

#include "stark/Eval/ChildProcess.h"

#include "llvm/Support/Program.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <sys/wait.h>
#include <thread>

using namespace mlir;
using namespace mlir::stark;

namespace {
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void describeStatus(int status, ChildOutcome &outcome) {
  if (WIFSIGNALED(status)) {
    outcome.kind = ChildOutcome::Kind::Signalled;
    outcome.signal = WTERMSIG(status);
    outcome.message = strsignal(outcome.signal);
    return;
  }
  outcome.kind = ChildOutcome::Kind::Exited;
  outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
} // namespace

ChildOutcome
mlir::stark::runChildProcess(StringRef program, ArrayRef<StringRef> args,
                             std::optional<ArrayRef<StringRef>> env,
                             ArrayRef<std::optional<StringRef>> redirects,
                             double timeoutSeconds) {
  ChildOutcome outcome;
  auto start = Clock::now();
  std::string message;
  bool failedToStart = false;
  llvm::sys::ProcessInfo child =
      llvm::sys::ExecuteNoWait(program, args, env, redirects,
                               /*MemoryLimit=*/0, &message, &failedToStart);
  if (failedToStart || child.Pid <= 0) {
    outcome.message = message.empty() ? "cannot start the process" : message;
    return outcome;
  }
  pid_t pid = child.Pid;
  // Short jobs end within milliseconds; long ones are polled less often.
  auto pause = std::chrono::microseconds(500);
  const auto longest = std::chrono::milliseconds(10);
  while (true) {
    int status = 0;
    pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      describeStatus(status, outcome);
      break;
    }
    if (done < 0 && errno != EINTR) {
      outcome.kind = ChildOutcome::Kind::NotStarted;
      outcome.message =
          std::string("lost the child process: ") + std::strerror(errno);
      break;
    }
    if (timeoutSeconds > 0 && secondsSince(start) >= timeoutSeconds) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      outcome.kind = ChildOutcome::Kind::TimedOut;
      outcome.message = "timed out";
      break;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min<std::chrono::microseconds>(pause * 2, longest);
  }
  outcome.seconds = secondsSince(start);
  return outcome;
}

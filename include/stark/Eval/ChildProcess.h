//===- ChildProcess.h - A program run with a deadline ---------*- C++ -*-===//
//
// Evaluation workers are started from several threads at once (one per
// executor of an EvalPool). llvm::sys::ExecuteAndWait's deadline is a
// process-wide SIGALRM and alarm(), which threads that wait at the same time
// cancel and overwrite for each other. runChildProcess waits on its own child
// only: it polls waitpid and kills the child when its deadline passes.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_CHILDPROCESS_H
#define STARK_EVAL_CHILDPROCESS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::stark {

/// How a child process ended.
struct ChildOutcome {
  enum class Kind {
    /// It could not be started; `message` says why.
    NotStarted,
    /// It exited with `exitCode`.
    Exited,
    /// A signal (`signal`) ended it.
    Signalled,
    /// It was still running at the deadline and was killed.
    TimedOut,
  };
  Kind kind = Kind::NotStarted;
  int exitCode = -1;
  int signal = 0;
  std::string message;
  /// Wall seconds from the start to the end (or the kill).
  double seconds = 0;
};

/// Runs `program` with `args` (args[0] is the program's name), the
/// environment `env` (nullopt: this process's) and the redirections of
/// stdin, stdout and stderr in `redirects` (as llvm::sys::ExecuteNoWait
/// takes them), and waits for it at most `timeoutSeconds` (0: no limit).
/// Safe to call from several threads at once.
ChildOutcome runChildProcess(StringRef program, ArrayRef<StringRef> args,
                             std::optional<ArrayRef<StringRef>> env,
                             ArrayRef<std::optional<StringRef>> redirects,
                             double timeoutSeconds);

} // namespace mlir::stark

#endif // STARK_EVAL_CHILDPROCESS_H

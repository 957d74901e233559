//===- RunnerProcess.h - A candidate's runner in a process of its own -*-===//
//
// The judge of an evaluation (the worker of Worker.h) never loads the
// candidate's code. It starts `stark-eval --run-candidate`, a child that
// compiles the candidate (and the baseline, for interleaved timing), and
// talks to it over two pipes: requests on the child's stdin, replies on its
// file descriptor 3. Each message is a JSON header and binary blobs, every
// blob followed by its xxh3 checksum, so a reply that was cut short or
// altered in transit is a protocol error, never data. The child knows
// neither the judge's directory nor where results are kept; its stdout
// goes to the worker's log; it dies with the judge.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_RUNNERPROCESS_H
#define STARK_EVAL_RUNNERPROCESS_H

#include "stark/Eval/CandidateRunner.h"
#include "stark/Eval/EvalEnums.h"

#include "llvm/Support/JSON.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::stark {

/// One message of the runner protocol.
struct RunnerMessage {
  llvm::json::Value header = nullptr;
  std::vector<std::vector<uint8_t>> blobs;
};

/// Writes a message to `fd`; fails when the other end is gone.
LogicalResult writeRunnerMessage(int fd, const llvm::json::Value &header,
                                 ArrayRef<ArrayRef<uint8_t>> blobs,
                                 std::string &error);

/// Reads one message from `fd`: fails at end of file, on a malformed frame
/// or a checksum that does not match.
LogicalResult readRunnerMessage(int fd, RunnerMessage &message,
                                std::string &error);

/// What the judge tells the runner to start with.
struct RunnerStart {
  std::string targetName;
  std::string problemSource, problemName;
  std::string candidateSource, candidateName;
  /// EvalOptions::entry and synthesizeElidedWeights (whole programs).
  std::string entry;
  bool synthesizeElidedWeights = false;
  /// A command the runner is started under (compute-sanitizer and its
  /// options); empty: none.
  std::vector<std::string> launcher;
};

/// The exit code a runner under compute-sanitizer gives on a finding.
inline constexpr int kSanitizerExitCode = 86;

/// The launcher of RunnerStart for compute-sanitizer's `tool` ("memcheck",
/// "racecheck", "initcheck", "synccheck"); fails when the tool is unknown or
/// compute-sanitizer is not installed ($PATH, /usr/local/cuda/bin).
FailureOr<std::vector<std::string>> getSanitizerLauncher(StringRef tool,
                                                         std::string &error);

/// Starts the runner process and has it compile the candidate. On failure
/// `status` says whose fault it is: CompileError (the candidate), Crash
/// (the runner died while compiling it) or Error (no runner could start).
/// `runnerPath` is the stark-eval binary.
FailureOr<std::unique_ptr<CandidateRunner>>
startRunnerProcess(StringRef runnerPath, const RunnerStart &start,
                   EvalStatus &status, std::string &error);

/// The runner side (`stark-eval --run-candidate`): serves requests on
/// stdin, replies on descriptor 3, until stdin closes. Returns the exit
/// code.
int serveCandidateRunner();

} // namespace mlir::stark

#endif // STARK_EVAL_RUNNERPROCESS_H

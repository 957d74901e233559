//===- MpiEval.h - Evaluation servers on MPI ranks --------------*- C++ -*-===//
//
// Across hosts, MPI ranks evaluate: rank 0 runs the passes and the search,
// every other rank is an evaluation server (`stark-eval --serve-mpi`) that
// receives a problem and a candidate, evaluates them in a worker process of
// its host and sends the result back. On rank 0 each server is an executor
// of the evaluation pool (EvalPool.h).
//
// Open MPI 4 has no fault tolerance by default (no ULFM): a rank that dies
// is not reported. Rank 0 therefore uses MPI_ERRORS_RETURN, never blocks
// on a server (non-blocking sends, probes with a deadline), and takes a
// server that does not answer within the job's time limit plus a grace, or
// whose communication fails, for lost: its job is re-queued on the others
// and it gets no more. MPI calls are made under one lock, so the library
// only needs MPI_THREAD_SERIALIZED. Built only where CMake finds MPI.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_MPIEVAL_H
#define STARK_EVAL_MPIEVAL_H

#include "stark/Eval/EvalPool.h"

namespace mlir::stark {

/// True when this build has MPI.
bool isMpiAvailable();

struct MpiClientOptions {
  /// Seconds a server may take beyond a job's own time limit before it
  /// is taken for lost.
  double graceSeconds = 10;
};

/// Rank 0: initialises MPI (once per process; finalised at exit) and
/// returns one executor per other rank. Fails, saying why, without MPI in
/// the build, outside an MPI launch of at least two ranks, or on a rank
/// other than 0.
FailureOr<std::vector<std::unique_ptr<EvalExecutor>>>
createMpiExecutors(const MpiClientOptions &options, std::string &error);

struct MpiServeOptions {
  /// CUDA_VISIBLE_DEVICES of this server's workers; empty: inherited.
  std::string cudaDevice;
  /// Testing: answer this many jobs, then exit without answering the next
  /// one, as a rank that dies mid-candidate (negative: never).
  int exitAfter = -1;
};

/// A server rank: evaluates the jobs rank 0 sends until it says stop.
/// Returns the process exit code; prints why to stderr on failure.
int serveMpiEvaluations(const MpiServeOptions &options);

} // namespace mlir::stark

#endif // STARK_EVAL_MPIEVAL_H

//===- TuningDatabase.h - Verified winners by signature and device -*- C++
//-*-===//
//
// The tuning database records every verified winner of a search, keyed by
// what determines it: the problem's signature and the device it was timed
// on ("cpu:znver4", "cuda:sm_90a:NVIDIA H200"), never the search's settings,
// so a later compile with another budget still finds it. The file is JSON
// Lines: a header line naming the format and its version, then one record
// per line, each with a checksum. Writers append one record per write under
// an exclusive lock, so several stark-opt processes may share one file;
// readers take a shared lock and reject a foreign, corrupt or truncated file
// with a message naming the line instead of guessing.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TUNING_TUNINGDATABASE_H
#define STARK_TUNING_TUNINGDATABASE_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::stark {

/// The `format` of a database's header line and the version this build
/// reads and writes.
inline constexpr llvm::StringLiteral kTuningDbFormat = "stark-tuning-db";
inline constexpr int64_t kTuningDbVersion = 1;

/// One verified winner.
struct TuningRecord {
  /// The key: the problem's signature and the device it was timed on.
  std::string signature;
  std::string device;
  /// The problem, for people and for checks when the record is applied.
  std::string target; // cpu or cuda
  std::string op, shapes;
  std::string entry = "kernel";
  int64_t numOutputs = 1;
  int64_t fusedOps = 1;
  /// The winner: what produced it and the module substitution needs.
  std::string strategy;
  std::map<std::string, std::string> params;
  int64_t candidate = 0;
  std::string chip;
  std::string module;
  /// What it was verified and timed against.
  double baselineSeconds = 0;
  double winnerSeconds = 0;
  double speedup = 0;
  /// Verified against the looser tf32 bound: only applied where allowed.
  bool allowTf32 = false;
  /// The search that found it (agent, budget, seconds, seed, profile, ...)
  /// and the stark that ran it.
  llvm::json::Object search;
  std::string starkVersion;
  /// UTC, ISO 8601; for people (merges order by speedup, not by time).
  std::string recordedAt;
};

/// The version of stark that writes records.
StringRef getStarkVersion();

/// The record as one JSON object, with its checksum.
llvm::json::Object tuningRecordToJSON(const TuningRecord &record);

/// Reads a record; fails, saying why in `error`, when a field is missing or
/// of the wrong kind or the checksum does not match.
FailureOr<TuningRecord> tuningRecordFromJSON(const llvm::json::Value &value,
                                             std::string &error);

/// The records of one or more database files, in file order.
struct TuningDatabase {
  std::vector<TuningRecord> records;

  /// The last record of `signature` on `device` (a later record, from a
  /// retune, replaces an earlier one); records verified against the tf32
  /// bound only when `allowTf32`. Null when there is none.
  const TuningRecord *lookup(StringRef signature, StringRef device,
                             bool allowTf32) const;
  /// The last record of `signature` on each device other than `device`, in
  /// order of first appearance: starting points for a search there.
  std::vector<const TuningRecord *> lookupOtherDevices(StringRef signature,
                                                       StringRef device,
                                                       bool allowTf32) const;
};

/// Reads the database at `path`. A file that does not exist is an empty
/// database unless `mustExist`. Fails, with `error` naming the file and
/// line, for a file that is not a stark tuning database, a newer version, a
/// record that does not parse or whose checksum does not match, and a last
/// record without its newline (truncated).
FailureOr<TuningDatabase> readTuningDatabase(StringRef path, std::string &error,
                                             bool mustExist = false);

/// Appends `record` to the database at `path`, creating it with its header
/// when it does not exist. The record is one write under an exclusive lock
/// (O_APPEND), so concurrent writers neither lose nor interleave records.
/// Refuses to append to a file whose header is not a stark tuning database's
/// or that ends in a truncated record.
LogicalResult appendTuningRecord(StringRef path, const TuningRecord &record,
                                 std::string &error);

/// Writes `records` as a whole new database at `path` (a temporary file
/// renamed over it, so readers see the old file or the new one).
LogicalResult writeTuningDatabase(StringRef path,
                                  ArrayRef<TuningRecord> records,
                                  std::string &error);

/// One record per (signature, device, allow_tf32): the one with the highest
/// speedup, the later one on ties; in order of first appearance of each key.
std::vector<TuningRecord> mergeTuningRecords(ArrayRef<TuningRecord> records);

} // namespace mlir::stark

#endif // STARK_TUNING_TUNINGDATABASE_H

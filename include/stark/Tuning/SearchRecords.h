//===- SearchRecords.h - The tuning database as the search's records -*- C++
//-*-===//
//
// The tuning database behind the model search's RecordedWinners: a winner
// recorded for this device is applied without a search, winners recorded
// on other devices seed it, and every new winner is appended.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TUNING_SEARCHRECORDS_H
#define STARK_TUNING_SEARCHRECORDS_H

#include "stark/Search/ModelSearch.h"
#include "stark/Tuning/TuningDatabase.h"

#include <memory>

namespace mlir::stark {

struct SearchRecordsOptions {
  /// The database file (appended to) and the device records are keyed by.
  std::string path, device;
  /// The hardware profile the searches were grounded in.
  std::string profile;
  /// Search even where this device has a record.
  bool retune = false;
};

/// The records of `database` for searches run with `search` (its target,
/// allow-tf32 and settings, kept in every new record).
std::unique_ptr<RecordedWinners>
createSearchRecords(TuningDatabase database, SearchRecordsOptions options,
                    const ProblemSearchOptions &search);

} // namespace mlir::stark

#endif // STARK_TUNING_SEARCHRECORDS_H

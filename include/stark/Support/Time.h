//===- Time.h - Wall-clock stamps for records ------------------*- C++ -*-===//
//
// The one form stark stamps its records with (transcripts, the tuning
// database): UTC, ISO 8601, to the second.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_SUPPORT_TIME_H
#define STARK_SUPPORT_TIME_H

#include <ctime>
#include <string>

namespace mlir::stark {

/// The current UTC time, e.g. "2026-12-06T05:12:38Z".
inline std::string formatUtcNow() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

} // namespace mlir::stark

#endif // STARK_SUPPORT_TIME_H

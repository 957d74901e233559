//===- TuningDatabase.cpp - Verified winners by signature and device ------===//

#include "stark/Tuning/TuningDatabase.h"
#include "stark/Search/Report.h"
#include "stark/Support/Time.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <sys/file.h>
#include <tuple>

using namespace mlir;
using namespace mlir::stark;
namespace fs = llvm::sys::fs;

#ifndef STARK_VERSION
#define STARK_VERSION "unknown"
#endif

StringRef mlir::stark::getStarkVersion() { return STARK_VERSION; }

static std::string headerLine() {
  llvm::json::Object header{{"format", kTuningDbFormat},
                            {"version", kTuningDbVersion}};
  return llvm::formatv("{0}", llvm::json::Value(std::move(header))).str();
}

/// SHA-256 (first 128 bits, hex) of the record's compact JSON without its
/// checksum; llvm::json prints object keys sorted, so the text is canonical.
static std::string checksumOf(const llvm::json::Object &withoutChecksum) {
  std::string text =
      llvm::formatv("{0}",
                    llvm::json::Value(llvm::json::Object(withoutChecksum)))
          .str();
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return llvm::toHex(ArrayRef<uint8_t>(digest).take_front(16),
                     /*LowerCase=*/true);
}

llvm::json::Object mlir::stark::tuningRecordToJSON(const TuningRecord &r) {
  llvm::json::Object o{{"signature", r.signature},
                       {"device", r.device},
                       {"target", r.target},
                       {"op", r.op},
                       {"shapes", r.shapes},
                       {"entry", r.entry},
                       {"num_outputs", r.numOutputs},
                       {"fused_ops", r.fusedOps},
                       {"strategy", r.strategy},
                       {"params", paramsToJSON(r.params)},
                       {"candidate", r.candidate},
                       {"chip", r.chip},
                       {"module", r.module},
                       {"baseline_seconds", r.baselineSeconds},
                       {"winner_seconds", r.winnerSeconds},
                       {"speedup", r.speedup},
                       {"allow_tf32", r.allowTf32},
                       {"search", llvm::json::Object(r.search)},
                       {"stark_version", r.starkVersion},
                       {"recorded_at", r.recordedAt}};
  std::string checksum = checksumOf(o);
  o["checksum"] = checksum;
  return o;
}

FailureOr<TuningRecord>
mlir::stark::tuningRecordFromJSON(const llvm::json::Value &value,
                                  std::string &error) {
  const llvm::json::Object *o = value.getAsObject();
  if (!o) {
    error = "a record must be a JSON object";
    return failure();
  }
  TuningRecord r;
  auto str = [&](StringRef key, std::string &out, bool allowEmpty) {
    std::optional<StringRef> s = o->getString(key);
    if (!s || (!allowEmpty && s->empty())) {
      error = ("field '" + key + "' must be a " +
               (allowEmpty ? "string" : "non-empty string"))
                  .str();
      return false;
    }
    out = s->str();
    return true;
  };
  auto integer = [&](StringRef key, int64_t &out) {
    std::optional<int64_t> i = o->getInteger(key);
    if (!i) {
      error = ("field '" + key + "' must be an integer").str();
      return false;
    }
    out = *i;
    return true;
  };
  auto number = [&](StringRef key, double &out) {
    std::optional<double> d = o->getNumber(key);
    if (!d || !(*d >= 0)) {
      error = ("field '" + key + "' must be a non-negative number").str();
      return false;
    }
    out = *d;
    return true;
  };
  if (!str("signature", r.signature, false) ||
      !str("device", r.device, false) || !str("target", r.target, false) ||
      !str("op", r.op, true) || !str("shapes", r.shapes, true) ||
      !str("entry", r.entry, false) || !integer("num_outputs", r.numOutputs) ||
      !integer("fused_ops", r.fusedOps) ||
      !str("strategy", r.strategy, false) ||
      !integer("candidate", r.candidate) || !str("chip", r.chip, true) ||
      !str("module", r.module, false) ||
      !number("baseline_seconds", r.baselineSeconds) ||
      !number("winner_seconds", r.winnerSeconds) ||
      !number("speedup", r.speedup) ||
      !str("stark_version", r.starkVersion, true) ||
      !str("recorded_at", r.recordedAt, true))
    return failure();
  std::optional<bool> tf32 = o->getBoolean("allow_tf32");
  if (!tf32) {
    error = "field 'allow_tf32' must be a boolean";
    return failure();
  }
  r.allowTf32 = *tf32;
  const llvm::json::Object *params = o->getObject("params");
  if (!params) {
    error = "field 'params' must be an object";
    return failure();
  }
  for (const auto &[k, v] : *params) {
    std::optional<StringRef> s = v.getAsString();
    if (!s) {
      error = "parameter '" + k.str() + "' must be a string";
      return failure();
    }
    r.params[k.str()] = s->str();
  }
  const llvm::json::Object *search = o->getObject("search");
  if (!search) {
    error = "field 'search' must be an object";
    return failure();
  }
  r.search = *search;
  std::optional<StringRef> checksum = o->getString("checksum");
  if (!checksum) {
    error = "field 'checksum' must be a string";
    return failure();
  }
  llvm::json::Object withoutChecksum(*o);
  withoutChecksum.erase("checksum");
  std::string expected = checksumOf(withoutChecksum);
  if (*checksum != expected) {
    error = ("checksum mismatch (the record says " + *checksum +
             ", its contents hash to " + expected + ")")
                .str();
    return failure();
  }
  return r;
}

const TuningRecord *TuningDatabase::lookup(StringRef signature,
                                           StringRef device,
                                           bool allowTf32) const {
  for (const TuningRecord &r : llvm::reverse(records))
    if (r.signature == signature && r.device == device &&
        (allowTf32 || !r.allowTf32))
      return &r;
  return nullptr;
}

std::vector<const TuningRecord *>
TuningDatabase::lookupOtherDevices(StringRef signature, StringRef device,
                                   bool allowTf32) const {
  std::vector<const TuningRecord *> result;
  llvm::StringMap<size_t> slot;
  for (const TuningRecord &r : records) {
    if (r.signature != signature || r.device == device ||
        (!allowTf32 && r.allowTf32))
      continue;
    auto [it, inserted] = slot.try_emplace(r.device, result.size());
    if (inserted)
      result.push_back(&r);
    else
      result[it->second] = &r;
  }
  return result;
}

/// flock(2), not fs::lockFile: LLVM locks with fcntl record locks, which
/// belong to the process (threads of one process do not exclude each other,
/// and closing any descriptor of the file drops them); flock locks belong to
/// the open file, so every open() is excluded from every other.
static std::error_code lockOpenFile(int fd, bool exclusive) {
  while (::flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0)
    if (errno != EINTR)
      return std::error_code(errno, std::generic_category());
  return std::error_code();
}

static void unlockOpenFile(int fd) { (void)::flock(fd, LOCK_UN); }

/// Checks the header line `line` of `path`.
static LogicalResult checkHeader(StringRef path, StringRef line,
                                 std::string &error) {
  auto foreign = [&] {
    error = ("'" + path +
             "' is not a stark tuning database (its first line must be "
             "{\"format\":\"" +
             kTuningDbFormat + "\",\"version\":N})")
                .str();
    return failure();
  };
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(line);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return foreign();
  }
  const llvm::json::Object *o = parsed->getAsObject();
  if (!o || o->getString("format") != std::optional<StringRef>(kTuningDbFormat))
    return foreign();
  std::optional<int64_t> version = o->getInteger("version");
  if (!version)
    return foreign();
  if (*version != kTuningDbVersion) {
    error = llvm::formatv("'{0}' is a stark tuning database of version {1}; "
                          "this stark reads version {2}",
                          path, *version, kTuningDbVersion)
                .str();
    return failure();
  }
  return success();
}

/// Reads all of `fd` from its start.
static LogicalResult readAll(int fd, SmallVectorImpl<char> &buffer,
                             std::string &error) {
  fs::file_t handle = fs::convertFDToNativeFile(fd);
  uint64_t offset = 0;
  char chunk[1 << 16];
  while (true) {
    llvm::Expected<size_t> n = fs::readNativeFileSlice(
        handle, MutableArrayRef<char>(chunk, sizeof(chunk)), offset);
    if (!n) {
      error = llvm::toString(n.takeError());
      return failure();
    }
    if (*n == 0)
      return success();
    buffer.append(chunk, chunk + *n);
    offset += *n;
  }
}

/// Parses the text of a database file.
static FailureOr<TuningDatabase> parseDatabase(StringRef path, StringRef text,
                                               std::string &error) {
  TuningDatabase db;
  if (text.empty())
    return db;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  // After the last newline: empty for a complete file.
  StringRef tail = lines.pop_back_val();
  if (lines.empty()) {
    // No newline at all: a torn header, or something else entirely.
    if (failed(checkHeader(path, tail, error)))
      return failure();
    error = ("'" + path + "': line 1: truncated (no newline)").str();
    return failure();
  }
  if (failed(checkHeader(path, lines.front(), error)))
    return failure();
  for (auto [index, line] : llvm::enumerate(llvm::drop_begin(lines))) {
    size_t lineNo = index + 2;
    if (line.trim().empty())
      continue;
    llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(line);
    std::string why;
    if (!parsed) {
      why = llvm::toString(parsed.takeError());
    } else {
      FailureOr<TuningRecord> record = tuningRecordFromJSON(*parsed, why);
      if (succeeded(record)) {
        db.records.push_back(std::move(*record));
        continue;
      }
    }
    error =
        llvm::formatv("'{0}': line {1}: corrupt record: {2}", path, lineNo, why)
            .str();
    return failure();
  }
  if (!tail.empty()) {
    error = llvm::formatv("'{0}': line {1}: truncated record (the file does "
                          "not end in a newline)",
                          path, lines.size() + 1)
                .str();
    return failure();
  }
  return db;
}

FailureOr<TuningDatabase> mlir::stark::readTuningDatabase(StringRef path,
                                                          std::string &error,
                                                          bool mustExist) {
  if (!fs::exists(path) && !mustExist)
    return TuningDatabase();
  int fd = -1;
  if (std::error_code ec = fs::openFileForRead(path, fd)) {
    error = ("cannot read '" + path + "': " + ec.message()).str();
    return failure();
  }
  // A shared lock: no writer is half-way through a record while we read.
  std::error_code lockError = lockOpenFile(fd, /*exclusive=*/false);
  SmallVector<char> buffer;
  LogicalResult read = readAll(fd, buffer, error);
  if (!lockError)
    unlockOpenFile(fd);
  (void)fs::closeFile(fd);
  if (lockError) {
    error = ("cannot lock '" + path + "': " + lockError.message()).str();
    return failure();
  }
  if (failed(read)) {
    error = ("cannot read '" + path + "': " + error).str();
    return failure();
  }
  return parseDatabase(path, StringRef(buffer.data(), buffer.size()), error);
}

static std::string recordLine(const TuningRecord &record) {
  TuningRecord r = record;
  if (r.starkVersion.empty())
    r.starkVersion = getStarkVersion().str();
  if (r.recordedAt.empty())
    r.recordedAt = formatUtcNow();
  return llvm::formatv("{0}", llvm::json::Value(tuningRecordToJSON(r))).str() +
         "\n";
}

LogicalResult mlir::stark::appendTuningRecord(StringRef path,
                                              const TuningRecord &record,
                                              std::string &error) {
  int fd = -1;
  if (std::error_code ec = fs::openFileForReadWrite(path, fd, fs::CD_OpenAlways,
                                                    fs::OF_Append)) {
    error = ("cannot open '" + path + "' for appending: " + ec.message()).str();
    return failure();
  }
  auto fail = [&](const Twine &why) {
    error = why.str();
    unlockOpenFile(fd);
    (void)fs::closeFile(fd);
    return failure();
  };
  if (std::error_code ec = lockOpenFile(fd, /*exclusive=*/true)) {
    (void)fs::closeFile(fd);
    error = ("cannot lock '" + path + "': " + ec.message()).str();
    return failure();
  }
  // Under the lock the file is complete: check what we append to.
  SmallVector<char> buffer;
  std::string why;
  if (failed(readAll(fd, buffer, why)))
    return fail("cannot read '" + path + "': " + why);
  StringRef text(buffer.data(), buffer.size());
  std::string out;
  if (text.empty()) {
    out = headerLine() + "\n";
  } else {
    if (failed(checkHeader(path, text.split('\n').first, why)))
      return fail(why);
    if (!text.ends_with("\n"))
      return fail("'" + path +
                  "' ends in a truncated record (no newline); repair it "
                  "(e.g. stark-tune merge) before recording more");
  }
  out += recordLine(record);
  // One write of the whole text; O_APPEND puts it at the end.
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/false, /*unbuffered=*/true);
    os.write(out.data(), out.size());
    os.flush();
    if (os.has_error()) {
      std::string message = os.error().message();
      os.clear_error();
      return fail("cannot write '" + path + "': " + message);
    }
  }
  unlockOpenFile(fd);
  if (std::error_code ec = fs::closeFile(fd)) {
    error = ("cannot close '" + path + "': " + ec.message()).str();
    return failure();
  }
  return success();
}

LogicalResult mlir::stark::writeTuningDatabase(StringRef path,
                                               ArrayRef<TuningRecord> records,
                                               std::string &error) {
  std::string text = headerLine() + "\n";
  for (const TuningRecord &r : records)
    text += recordLine(r);
  SmallString<256> model(path);
  model += ".tmp-%%%%%%";
  int fd = -1;
  SmallString<256> temp;
  if (std::error_code ec = fs::createUniqueFile(model, fd, temp)) {
    error = ("cannot create a temporary file next to '" + path +
             "': " + ec.message())
                .str();
    return failure();
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
    os.close();
    if (os.has_error()) {
      error = ("cannot write '" + temp + "': " + os.error().message()).str();
      os.clear_error();
      (void)fs::remove(temp);
      return failure();
    }
  }
  if (std::error_code ec = fs::rename(temp, path)) {
    error = ("cannot rename '" + temp + "' to '" + path + "': " + ec.message())
                .str();
    (void)fs::remove(temp);
    return failure();
  }
  return success();
}

std::vector<TuningRecord>
mlir::stark::mergeTuningRecords(ArrayRef<TuningRecord> records) {
  std::vector<TuningRecord> result;
  std::map<std::tuple<std::string, std::string, bool>, size_t> slot;
  for (const TuningRecord &r : records) {
    auto [it, inserted] =
        slot.try_emplace({r.signature, r.device, r.allowTf32}, result.size());
    if (inserted)
      result.push_back(r);
    else if (r.speedup >= result[it->second].speedup)
      result[it->second] = r;
  }
  return result;
}

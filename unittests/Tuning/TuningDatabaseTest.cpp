//===- TuningDatabaseTest.cpp - The tuning database file ------------------===//

#include "stark/Tuning/TuningDatabase.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <atomic>
#include <thread>

using namespace mlir;
using namespace mlir::stark;

namespace {

TuningRecord makeRecord(StringRef signature, StringRef device, double speedup) {
  TuningRecord r;
  r.signature = signature.str();
  r.device = device.str();
  r.target = "cpu";
  r.op = "linalg.matmul";
  r.shapes = "8x4xf32,4x2xf32->8x2xf32";
  r.strategy = "cpu-tile-vectorize";
  r.params = {{"threads", "1"}};
  r.candidate = 3;
  r.module = "module {\n  func.func @kernel() {\n    return\n  }\n}\n";
  r.baselineSeconds = 2e-3;
  r.winnerSeconds = 2e-3 / speedup;
  r.speedup = speedup;
  r.search = llvm::json::Object{{"agent", "expert"}, {"budget", 4}};
  return r;
}

/// A fresh path in a fresh temporary folder.
std::string tempPath(StringRef name) {
  SmallString<128> dir;
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("stark-tuning", dir));
  return (dir + "/" + name).str();
}

void writeFile(StringRef path, StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec);
  os << text;
}

std::string readFile(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  EXPECT_TRUE(bool(buffer));
  return buffer ? (*buffer)->getBuffer().str() : "";
}

TEST(TuningDatabase, RecordRoundTrip) {
  TuningRecord r = makeRecord("aa", "cpu:x", 2.5);
  llvm::json::Value json(tuningRecordToJSON(r));
  std::string error;
  FailureOr<TuningRecord> back = tuningRecordFromJSON(json, error);
  ASSERT_TRUE(succeeded(back)) << error;
  EXPECT_EQ(back->signature, "aa");
  EXPECT_EQ(back->params.at("threads"), "1");
  EXPECT_EQ(back->module, r.module);
  EXPECT_EQ(back->speedup, 2.5);
  EXPECT_EQ(back->search.getInteger("budget").value_or(-1), 4);
}

TEST(TuningDatabase, ChecksumCatchesAnEditedRecord) {
  llvm::json::Object o = tuningRecordToJSON(makeRecord("aa", "cpu:x", 2.5));
  o["module"] = "module {}";
  std::string error;
  EXPECT_TRUE(
      failed(tuningRecordFromJSON(llvm::json::Value(std::move(o)), error)));
  EXPECT_NE(error.find("checksum mismatch"), std::string::npos) << error;
}

TEST(TuningDatabase, MissingFieldIsAnError) {
  llvm::json::Object o = tuningRecordToJSON(makeRecord("aa", "cpu:x", 2.5));
  o.erase("device");
  std::string error;
  EXPECT_TRUE(
      failed(tuningRecordFromJSON(llvm::json::Value(std::move(o)), error)));
  EXPECT_NE(error.find("'device'"), std::string::npos) << error;
}

TEST(TuningDatabase, AppendThenLookup) {
  std::string path = tempPath("db.jsonl");
  std::string error;
  ASSERT_TRUE(succeeded(
      appendTuningRecord(path, makeRecord("aa", "cpu:x", 2.0), error)))
      << error;
  ASSERT_TRUE(succeeded(
      appendTuningRecord(path, makeRecord("aa", "cpu:y", 3.0), error)));
  ASSERT_TRUE(succeeded(
      appendTuningRecord(path, makeRecord("aa", "cpu:x", 1.5), error)));
  FailureOr<TuningDatabase> db = readTuningDatabase(path, error);
  ASSERT_TRUE(succeeded(db)) << error;
  ASSERT_EQ(db->records.size(), 3u);
  // The header is written once, by the first writer.
  EXPECT_TRUE(StringRef(readFile(path))
                  .starts_with("{\"format\":\"stark-tuning-db\",\"version\":1}"
                               "\n{"));
  // The later record of a key replaces the earlier one.
  const TuningRecord *r = db->lookup("aa", "cpu:x", false);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->speedup, 1.5);
  EXPECT_FALSE(db->lookup("aa", "cpu:z", false));
  EXPECT_FALSE(db->lookup("bb", "cpu:x", false));
  std::vector<const TuningRecord *> others =
      db->lookupOtherDevices("aa", "cpu:x", false);
  ASSERT_EQ(others.size(), 1u);
  EXPECT_EQ(others[0]->device, "cpu:y");
  EXPECT_FALSE(others[0]->starkVersion.empty());
  EXPECT_FALSE(others[0]->recordedAt.empty());
}

TEST(TuningDatabase, Tf32RecordsOnlyWhereAllowed) {
  TuningDatabase db;
  db.records.push_back(makeRecord("aa", "cpu:x", 2.0));
  TuningRecord tf32 = makeRecord("aa", "cpu:x", 4.0);
  tf32.allowTf32 = true;
  db.records.push_back(tf32);
  EXPECT_EQ(db.lookup("aa", "cpu:x", false)->speedup, 2.0);
  EXPECT_EQ(db.lookup("aa", "cpu:x", true)->speedup, 4.0);
  // Merging keeps both: they answer different questions.
  EXPECT_EQ(mergeTuningRecords(db.records).size(), 2u);
}

TEST(TuningDatabase, MissingFileIsEmptyUnlessRequired) {
  std::string path = tempPath("none.jsonl");
  std::string error;
  FailureOr<TuningDatabase> db = readTuningDatabase(path, error);
  ASSERT_TRUE(succeeded(db));
  EXPECT_TRUE(db->records.empty());
  EXPECT_TRUE(failed(readTuningDatabase(path, error, /*mustExist=*/true)));
}

TEST(TuningDatabase, ForeignTruncatedAndNewerFiles) {
  std::string error;
  std::string foreign = tempPath("foreign.txt");
  writeFile(foreign, "name,value\n1,2\n");
  EXPECT_TRUE(failed(readTuningDatabase(foreign, error)));
  EXPECT_NE(error.find("is not a stark tuning database"), std::string::npos)
      << error;
  // Nothing is appended to a foreign file.
  EXPECT_TRUE(failed(
      appendTuningRecord(foreign, makeRecord("aa", "cpu:x", 2.0), error)));
  EXPECT_EQ(readFile(foreign), "name,value\n1,2\n");

  std::string truncated = tempPath("truncated.jsonl");
  ASSERT_TRUE(succeeded(
      appendTuningRecord(truncated, makeRecord("aa", "cpu:x", 2.0), error)));
  std::string text = readFile(truncated);
  writeFile(truncated, StringRef(text).drop_back(20));
  EXPECT_TRUE(failed(readTuningDatabase(truncated, error)));
  EXPECT_NE(error.find("line 2: truncated record"), std::string::npos) << error;
  EXPECT_TRUE(failed(
      appendTuningRecord(truncated, makeRecord("bb", "cpu:x", 2.0), error)));
  EXPECT_NE(error.find("truncated"), std::string::npos) << error;

  std::string newer = tempPath("newer.jsonl");
  writeFile(newer, "{\"format\":\"stark-tuning-db\",\"version\":2}\n");
  EXPECT_TRUE(failed(readTuningDatabase(newer, error)));
  EXPECT_NE(error.find("version 2"), std::string::npos) << error;
}

TEST(TuningDatabase, MergeKeepsTheFastestPerKey) {
  std::vector<TuningRecord> records = {
      makeRecord("aa", "cpu:x", 2.0), makeRecord("bb", "cpu:x", 1.5),
      makeRecord("aa", "cpu:x", 3.0), makeRecord("aa", "cpu:y", 1.2),
      makeRecord("aa", "cpu:x", 2.5)};
  std::vector<TuningRecord> merged = mergeTuningRecords(records);
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[0].signature, "aa");
  EXPECT_EQ(merged[0].speedup, 3.0);
  EXPECT_EQ(merged[1].signature, "bb");
  EXPECT_EQ(merged[2].device, "cpu:y");

  std::string path = tempPath("merged.jsonl");
  std::string error;
  ASSERT_TRUE(succeeded(writeTuningDatabase(path, merged, error))) << error;
  FailureOr<TuningDatabase> db = readTuningDatabase(path, error);
  ASSERT_TRUE(succeeded(db)) << error;
  EXPECT_EQ(db->records.size(), 3u);
}

TEST(TuningDatabase, ConcurrentAppendsLoseNothing) {
  // Each thread opens the file itself, so the locks are as separate as
  // those of separate processes.
  std::string path = tempPath("shared.jsonl");
  constexpr int kThreads = 8, kRecords = 25;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRecords; ++i) {
        std::string error;
        TuningRecord r =
            makeRecord(llvm::formatv("s{0}-{1}", t, i).str(), "cpu:x", 2.0);
        // Long records make a torn write likely if the lock did not hold.
        r.module += std::string(4096 + 97 * i, ' ');
        if (failed(appendTuningRecord(path, r, error)))
          ++failures;
      }
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(failures, 0);
  std::string error;
  FailureOr<TuningDatabase> db = readTuningDatabase(path, error);
  ASSERT_TRUE(succeeded(db)) << error;
  ASSERT_EQ(db->records.size(), size_t(kThreads * kRecords));
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kRecords; ++i)
      EXPECT_TRUE(
          db->lookup(llvm::formatv("s{0}-{1}", t, i).str(), "cpu:x", false));
}

} // namespace

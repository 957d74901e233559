//===- RecordedWinnerTest.cpp - A tuning record as a #stark.winner --------===//

#include "stark/Tuning/RecordedWinner.h"
#include "stark/Dialect/StarkDialect.h"
#include "stark/Tuning/TuningDatabase.h"

#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

TEST(RecordedWinner, ParametersKeepTheirKind) {
  MLIRContext context;
  context.loadDialect<StarkDialect>();
  TuningRecord record;
  record.candidate = 3;
  record.speedup = 2.0;
  record.strategy = "gemm";
  record.params = {{"bm", "64"},     {"shift", "-3"}, {"vec", "true"},
                   {"ratio", "0.5"}, {"eps", "1e-3"}, {"order", "kmn"},
                   {"hex", "0x10"},  {"inf", "inf"},  {"empty", ""},
                   {"point", "."},   {"exp", "2e"}};
  WinnerAttr winner = getRecordedWinnerAttr(record, &context);
  DictionaryAttr params = winner.getParams();
  ASSERT_TRUE(params);
  auto integer = [&](StringRef name) {
    auto a = dyn_cast_or_null<IntegerAttr>(params.get(name));
    return a && !isa<BoolAttr>(a) && a.getType().isInteger(64)
               ? std::optional<int64_t>(a.getInt())
               : std::nullopt;
  };
  auto number = [&](StringRef name) {
    auto a = dyn_cast_or_null<FloatAttr>(params.get(name));
    return a ? std::optional<double>(a.getValueAsDouble()) : std::nullopt;
  };
  auto string = [&](StringRef name) {
    auto a = dyn_cast_or_null<StringAttr>(params.get(name));
    return a ? std::optional<std::string>(a.str()) : std::nullopt;
  };
  EXPECT_EQ(integer("bm"), 64);
  EXPECT_EQ(integer("shift"), -3);
  auto vec = dyn_cast_or_null<BoolAttr>(params.get("vec"));
  ASSERT_TRUE(vec);
  EXPECT_TRUE(vec.getValue());
  EXPECT_EQ(number("ratio"), 0.5);
  EXPECT_EQ(number("eps"), 1e-3);
  // Words, other bases and malformed numbers stay strings.
  for (StringRef name : {"order", "hex", "inf", "empty", "point", "exp"})
    EXPECT_EQ(string(name), record.params[name.str()]) << name.str();
}

} // namespace

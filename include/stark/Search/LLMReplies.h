//===- LLMReplies.h - Reading what a model answered -------------*- C++ -*-===//
//
// A model's reply is prose around fenced code blocks and, for the planner
// and for CUDA C++, a small JSON header. These functions find the parts
// without trusting the layout (a header may be fenced or bare, code may
// come with or without a language tag, snippets may precede the answer),
// and check the coder's grounding: outside the region the planner marked,
// the candidate must be the parent's text line for line.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_SEARCH_LLMREPLIES_H
#define STARK_SEARCH_LLMREPLIES_H

#include "mlir/Support/LLVM.h"

#include "llvm/Support/JSON.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::stark {

struct FencedBlock {
  /// The info string after the opening fence, lower case ("mlir", "cuda").
  std::string language;
  std::string text;
};

/// Every ``` block of `reply`, in order; an unterminated last block runs
/// to the end.
std::vector<FencedBlock> extractFencedBlocks(StringRef reply);

/// The JSON object of `reply`: a ```json block, else the first balanced
/// {...} outside code blocks that parses.
std::optional<llvm::json::Object> findJsonHeader(StringRef reply);

/// The planner's decision.
struct PlannerReply {
  std::string strategy;
  std::string plan;
  std::map<std::string, std::string> params;
  /// Lines [first, last] (1-based, inclusive) of the parent to change;
  /// whole = the whole candidate.
  bool whole = true;
  int64_t first = 0, last = 0;
  /// As the report names it: "all" or "lines 5-12".
  std::string changedPart() const;
};

/// Reads the planner's JSON header: {"strategy", "plan", "params",
/// "region": "all" | [first, last] | {"first", "last"}}; the region must
/// lie within the parent's `parentLines` lines.
FailureOr<PlannerReply> parsePlannerReply(StringRef reply, int64_t parentLines,
                                          std::string &error);

enum class CodeKind { Module, TransformScript, CudaCpp };

struct CodeReply {
  CodeKind kind = CodeKind::Module;
  std::string code;
  /// The JSON header, when the reply had one (launches, plan).
  std::optional<llvm::json::Object> header;
};

/// The candidate of a coder's or debugger's reply: the largest code block
/// that is not JSON, classified by its language tag and content (a
/// `transform.named_sequence @__transform_main` is a transform script, a
/// `__global__` function CUDA C++).
FailureOr<CodeReply> parseCodeReply(StringRef reply, std::string &error);

/// Fails, naming the first differing line, when `child` differs from
/// `parent` outside lines [first, last] of `parent` (trailing whitespace
/// ignored).
LogicalResult checkRegion(StringRef parent, StringRef child, int64_t first,
                          int64_t last, std::string &error);

/// `text` with its lines numbered ("  7 | ..."), as the planner sees a
/// candidate so that it can name a region.
std::string numberLines(StringRef text);

/// Lines [first, last] of `text` (1-based, inclusive).
std::string getLines(StringRef text, int64_t first, int64_t last);

} // namespace mlir::stark

#endif // STARK_SEARCH_LLMREPLIES_H

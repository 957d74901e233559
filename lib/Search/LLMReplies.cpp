//===- LLMReplies.cpp - Reading what a model answered ---------------------===//

#include "stark/Search/LLMReplies.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

std::vector<FencedBlock> mlir::stark::extractFencedBlocks(StringRef reply) {
  std::vector<FencedBlock> blocks;
  SmallVector<StringRef> lines;
  reply.split(lines, '\n');
  if (!lines.empty() && lines.back().empty())
    lines.pop_back();
  std::optional<FencedBlock> open;
  for (StringRef line : lines) {
    StringRef trimmed = line.trim();
    if (trimmed.starts_with("```")) {
      if (open) {
        blocks.push_back(std::move(*open));
        open.reset();
      } else {
        open.emplace();
        open->language = trimmed.drop_front(3).trim().lower();
      }
      continue;
    }
    if (open) {
      open->text += line.rtrim('\r').str();
      open->text += '\n';
    }
  }
  if (open)
    blocks.push_back(std::move(*open));
  return blocks;
}

/// The parts of `reply` outside fenced blocks.
static std::string prose(StringRef reply) {
  std::string out;
  SmallVector<StringRef> lines;
  reply.split(lines, '\n');
  bool inside = false;
  for (StringRef line : lines) {
    if (line.trim().starts_with("```")) {
      inside = !inside;
      continue;
    }
    if (!inside) {
      out += line.str();
      out += '\n';
    }
  }
  return out;
}

static std::optional<llvm::json::Object> parseObject(StringRef text) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value) {
    llvm::consumeError(value.takeError());
    return std::nullopt;
  }
  if (llvm::json::Object *o = value->getAsObject())
    return std::move(*o);
  return std::nullopt;
}

std::optional<llvm::json::Object> mlir::stark::findJsonHeader(StringRef reply) {
  for (const FencedBlock &block : extractFencedBlocks(reply))
    if (block.language == "json")
      if (std::optional<llvm::json::Object> o = parseObject(block.text))
        return o;
  // A bare object: try every '{' in the prose, with its balanced '}'.
  std::string text = prose(reply);
  for (size_t start = text.find('{'); start != std::string::npos;
       start = text.find('{', start + 1)) {
    int depth = 0;
    bool quoted = false, escaped = false;
    for (size_t i = start; i < text.size(); ++i) {
      char c = text[i];
      if (quoted) {
        if (escaped)
          escaped = false;
        else if (c == '\\')
          escaped = true;
        else if (c == '"')
          quoted = false;
        continue;
      }
      if (c == '"')
        quoted = true;
      else if (c == '{')
        ++depth;
      else if (c == '}' && --depth == 0) {
        if (std::optional<llvm::json::Object> o =
                parseObject(StringRef(text).slice(start, i + 1)))
          return o;
        break;
      }
    }
  }
  return std::nullopt;
}

std::string PlannerReply::changedPart() const {
  if (whole)
    return "all";
  return llvm::formatv("lines {0}-{1}", first, last).str();
}

/// A JSON number or numeric string as an integer.
static std::optional<int64_t> getInteger(const llvm::json::Value *value) {
  if (!value)
    return std::nullopt;
  if (std::optional<int64_t> i = value->getAsInteger())
    return i;
  int64_t parsed;
  if (std::optional<StringRef> s = value->getAsString())
    if (!s->trim().getAsInteger(10, parsed))
      return parsed;
  return std::nullopt;
}

/// A JSON scalar as the text a parameter holds.
static std::optional<std::string> getScalarText(const llvm::json::Value &v) {
  if (std::optional<StringRef> s = v.getAsString())
    return s->str();
  if (std::optional<int64_t> i = v.getAsInteger())
    return std::to_string(*i);
  if (std::optional<double> d = v.getAsNumber())
    return llvm::formatv("{0}", *d).str();
  if (std::optional<bool> b = v.getAsBoolean())
    return *b ? "true" : "false";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << v;
  return text;
}

FailureOr<PlannerReply> mlir::stark::parsePlannerReply(StringRef reply,
                                                       int64_t parentLines,
                                                       std::string &error) {
  std::optional<llvm::json::Object> header = findJsonHeader(reply);
  if (!header) {
    error = "the planner's reply has no JSON header";
    return failure();
  }
  PlannerReply out;
  out.strategy = header->getString("strategy").value_or("llm").str();
  std::optional<StringRef> plan = header->getString("plan");
  if (!plan || plan->trim().empty()) {
    error = "the planner's JSON header has no \"plan\"";
    return failure();
  }
  out.plan = plan->trim().str();
  if (const llvm::json::Object *params = header->getObject("params"))
    for (const auto &kv : *params)
      out.params[kv.first.str()] = *getScalarText(kv.second);
  const llvm::json::Value *region = header->get("region");
  std::optional<int64_t> first, last;
  if (!region || region->getAsString() == "all") {
    out.whole = true;
    return out;
  }
  if (const llvm::json::Array *range = region->getAsArray()) {
    if (range->size() == 2) {
      first = getInteger(&(*range)[0]);
      last = getInteger(&(*range)[1]);
    }
  } else if (const llvm::json::Object *range = region->getAsObject()) {
    first = getInteger(range->get("first"));
    last = getInteger(range->get("last"));
  }
  if (!first || !last) {
    error = "the planner's \"region\" is neither \"all\" nor [first, last]";
    return failure();
  }
  if (*first < 1 || *last < *first || *last > parentLines) {
    error = llvm::formatv("the planner's region [{0}, {1}] is not within the "
                          "parent's {2} lines",
                          *first, *last, parentLines)
                .str();
    return failure();
  }
  out.whole = false;
  out.first = *first;
  out.last = *last;
  return out;
}

FailureOr<CodeReply> mlir::stark::parseCodeReply(StringRef reply,
                                                 std::string &error) {
  std::vector<FencedBlock> blocks = extractFencedBlocks(reply);
  const FencedBlock *best = nullptr;
  for (const FencedBlock &block : blocks)
    if (block.language != "json" && !StringRef(block.text).trim().empty() &&
        (!best || block.text.size() > best->text.size()))
      best = &block;
  if (!best) {
    error = "the reply holds no code block";
    return failure();
  }
  CodeReply out;
  out.code = best->text;
  out.header = findJsonHeader(reply);
  StringRef lang = best->language;
  StringRef code = out.code;
  if (lang == "cuda" || lang == "cu" || lang == "cpp" || lang == "c++" ||
      lang == "cuh" || code.contains("__global__"))
    out.kind = CodeKind::CudaCpp;
  else if (code.contains("@__transform_main"))
    out.kind = CodeKind::TransformScript;
  else
    out.kind = CodeKind::Module;
  return out;
}

static void splitLines(StringRef text, SmallVectorImpl<StringRef> &lines) {
  text.split(lines, '\n');
  for (StringRef &line : lines)
    line = line.rtrim();
  while (!lines.empty() && lines.back().empty())
    lines.pop_back();
}

LogicalResult mlir::stark::checkRegion(StringRef parent, StringRef child,
                                       int64_t first, int64_t last,
                                       std::string &error) {
  SmallVector<StringRef> p, c;
  splitLines(parent, p);
  splitLines(child, c);
  int64_t before = first - 1, after = int64_t(p.size()) - last;
  auto differ = [&](int64_t parentLine, StringRef expected, StringRef got) {
    error = llvm::formatv("the coder changed line {0} of the parent, outside "
                          "the region {1}-{2} the planner marked: expected "
                          "'{3}', got '{4}'",
                          parentLine, first, last, expected.trim(), got.trim())
                .str();
    return failure();
  };
  if (int64_t(c.size()) < before + after) {
    error = llvm::formatv("the coder's candidate has {0} lines, fewer than the "
                          "{1} outside the region {2}-{3} it had to keep",
                          c.size(), before + after, first, last)
                .str();
    return failure();
  }
  for (int64_t i = 0; i < before; ++i)
    if (p[i] != c[i])
      return differ(i + 1, p[i], c[i]);
  for (int64_t i = 0; i < after; ++i) {
    StringRef expected = p[p.size() - 1 - i], got = c[c.size() - 1 - i];
    if (expected != got)
      return differ(int64_t(p.size()) - i, expected, got);
  }
  return success();
}

std::string mlir::stark::numberLines(StringRef text) {
  SmallVector<StringRef> lines;
  splitLines(text, lines);
  std::string out;
  for (auto [i, line] : llvm::enumerate(lines))
    out += llvm::formatv("{0,4} | {1}\n", i + 1, line).str();
  return out;
}

std::string mlir::stark::getLines(StringRef text, int64_t first, int64_t last) {
  SmallVector<StringRef> lines;
  splitLines(text, lines);
  std::string out;
  for (int64_t i = first; i <= last && i <= int64_t(lines.size()); ++i) {
    out += lines[i - 1].str();
    out += '\n';
  }
  return out;
}

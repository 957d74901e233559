//===- References.cpp - Reference outputs computed once per problem -------===//

#include "stark/Eval/References.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::stark;
namespace json = llvm::json;

static constexpr StringLiteral kManifestFile = "references.json";

ArgSpec mlir::stark::widenSpec(const ArgSpec &spec, ElementKind wide) {
  ArgSpec widened = spec;
  if (isFloatKind(spec.kind) &&
      getElementKindBytes(spec.kind) < getElementKindBytes(wide))
    widened.kind = wide;
  return widened;
}

ReferenceStore::ReferenceStore(StringRef dir, bool writable, uint64_t maxBytes)
    : dir(dir.str()), writable(writable), maxBytes(maxBytes) {}

static std::string joinPath(StringRef dir, const Twine &file) {
  SmallString<256> path(dir);
  llvm::sys::path::append(path, file);
  return std::string(path);
}

/// Writes `path` under a temporary name, renames it into place and makes
/// it read-only: a reader never sees half a file, and nothing that runs
/// later with the same rights overwrites it by accident.
static LogicalResult writeAtomically(StringRef path, StringRef contents,
                                     std::string &error) {
  std::string partial = (path + ".partial").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(partial, ec);
    if (!ec) {
      os << contents;
      os.close();
      if (os.has_error()) {
        ec = os.error();
        os.clear_error();
      }
    }
    if (ec) {
      error =
          llvm::formatv("cannot write '{0}': {1}", partial, ec.message()).str();
      return failure();
    }
  }
  llvm::sys::fs::setPermissions(partial, llvm::sys::fs::perms(0444));
  if (std::error_code ec = llvm::sys::fs::rename(partial, path)) {
    error = llvm::formatv("cannot write '{0}': {1}", path, ec.message()).str();
    return failure();
  }
  return success();
}

static std::optional<json::Value> readJSON(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return std::nullopt;
  llvm::Expected<json::Value> value = json::parse((*buffer)->getBuffer());
  if (!value) {
    llvm::consumeError(value.takeError());
    return std::nullopt;
  }
  return std::move(*value);
}

LogicalResult ReferenceStore::writeManifest(const ReferenceManifest &m,
                                            std::string &error) {
  json::Object o{{"key", m.key},
                 {"flags", json::Array(m.flags)},
                 {"notes", json::Array(m.notes)}};
  if (m.highKind)
    o["high"] = stringifyElementKind(*m.highKind);
  std::string text;
  llvm::raw_string_ostream(text) << json::Value(std::move(o));
  return writeAtomically(joinPath(dir, kManifestFile), text, error);
}

std::optional<ReferenceManifest>
ReferenceStore::readManifest(StringRef key) const {
  std::optional<json::Value> value = readJSON(joinPath(dir, kManifestFile));
  const json::Object *o = value ? value->getAsObject() : nullptr;
  if (!o || o->getString("key") != key)
    return std::nullopt;
  ReferenceManifest m;
  m.key = key.str();
  if (std::optional<StringRef> high = o->getString("high")) {
    for (ElementKind kind : {ElementKind::F64, ElementKind::F32})
      if (stringifyElementKind(kind) == *high)
        m.highKind = kind;
    if (!m.highKind)
      return std::nullopt;
  }
  for (auto [name, out] : {std::pair{"flags", &m.flags}, {"notes", &m.notes}})
    if (const json::Array *a = o->getArray(name))
      for (const json::Value &v : *a)
        if (std::optional<StringRef> s = v.getAsString())
          out->push_back(s->str());
  return m;
}

/// The stem of every file of trial input (seed, d).
static std::string trialStem(uint64_t seed, Distribution d) {
  return llvm::formatv("{0}-{1}", seed, stringifyDistribution(d)).str();
}

bool ReferenceStore::load(uint64_t seed, Distribution d,
                          const KernelSignature &signature,
                          std::vector<HostBuffer> *baseline,
                          std::optional<ElementKind> highKind,
                          std::vector<HostBuffer> *high) const {
  if (high && !highKind)
    return false;
  std::string stem = trialStem(seed, d);
  std::optional<json::Value> value = readJSON(joinPath(dir, stem + ".json"));
  const json::Object *o = value ? value->getAsObject() : nullptr;
  if (!o)
    return false;
  if (o->getString("distribution") != stringifyDistribution(d) ||
      o->getInteger("arguments") != int64_t(signature.args.size()))
    return false;
  if (const json::Value *s = o->get("seed"); !s || s->getAsUINT64() != seed)
    return false;
  if (baseline && o->getBoolean("baseline") != true)
    return false;
  if (high && o->getString("high") != stringifyElementKind(*highKind))
    return false;

  auto read = [&](StringRef part, ElementKind wide,
                  std::vector<HostBuffer> &out) {
    std::vector<HostBuffer> buffers;
    for (auto [i, spec] : llvm::enumerate(signature.args)) {
      if (!spec.isOutput) {
        // The evaluator reads reference outputs only.
        buffers.push_back(makeInputPlaceholder(spec));
        continue;
      }
      ArgSpec s = part == "high" ? widenSpec(spec, wide) : spec;
      auto file = llvm::MemoryBuffer::getFile(
          joinPath(dir, llvm::formatv("{0}.{1}.{2}", stem, part, i)),
          /*IsText=*/false, /*RequiresNullTerminator=*/false);
      if (!file || int64_t((*file)->getBufferSize()) != s.sizeInBytes())
        return false;
      buffers.emplace_back(s);
      std::memcpy(buffers.back().bytes.data(), (*file)->getBufferStart(),
                  (*file)->getBufferSize());
    }
    out = std::move(buffers);
    return true;
  };
  std::vector<HostBuffer> b, h;
  if (baseline && !read("baseline", ElementKind::F64, b))
    return false;
  if (high && !read("high", *highKind, h))
    return false;
  if (baseline)
    *baseline = std::move(b);
  if (high)
    *high = std::move(h);
  return true;
}

FailureOr<bool> ReferenceStore::save(uint64_t seed, Distribution d,
                                     const KernelSignature &signature,
                                     const std::vector<HostBuffer> *baseline,
                                     std::optional<ElementKind> highKind,
                                     const std::vector<HostBuffer> *high,
                                     std::string &error) {
  if (!writable) {
    error = "the reference store is read-only";
    return failure();
  }
  if (!highKind)
    high = nullptr;
  uint64_t size = 0;
  for (const std::vector<HostBuffer> *part : {baseline, high})
    if (part)
      for (auto [i, spec] : llvm::enumerate(signature.args))
        if (spec.isOutput)
          size += (*part)[i].bytes.size();
  if (bytesWritten + size > maxBytes)
    return false;

  std::string stem = trialStem(seed, d);
  for (auto [name, part] : {std::pair{"baseline", baseline}, {"high", high}}) {
    if (!part)
      continue;
    for (auto [i, spec] : llvm::enumerate(signature.args)) {
      if (!spec.isOutput)
        continue;
      const std::vector<uint8_t> &bytes = (*part)[i].bytes;
      StringRef contents(reinterpret_cast<const char *>(bytes.data()),
                         bytes.size());
      if (failed(writeAtomically(
              joinPath(dir, llvm::formatv("{0}.{1}.{2}", stem, name, i)),
              contents, error)))
        return failure();
    }
  }
  // The description last: a trial is stored once its description exists.
  json::Object o{{"seed", seed},
                 {"distribution", stringifyDistribution(d)},
                 {"arguments", int64_t(signature.args.size())},
                 {"baseline", baseline != nullptr}};
  if (high)
    o["high"] = stringifyElementKind(*highKind);
  std::string text;
  llvm::raw_string_ostream(text) << json::Value(std::move(o));
  if (failed(writeAtomically(joinPath(dir, stem + ".json"), text, error)))
    return failure();
  bytesWritten += size;
  return true;
}

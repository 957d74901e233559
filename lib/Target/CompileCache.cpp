//===- CompileCache.cpp - Compiled candidates kept on disk ----------------===//

#include "stark/Target/CompileCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::stark;

/// The first line of every entry; a new layout gets a new one.
static constexpr llvm::StringLiteral kMagic = "stark-compile-cache 1\n";

#ifndef STARK_VERSION
#define STARK_VERSION "unknown"
#endif

CompileCache::CompileCache(std::string directory)
    : directory(std::move(directory)) {}

CompileCache &CompileCache::getDefault() {
  static CompileCache cache([] {
    if (const char *dir = std::getenv("STARK_COMPILE_CACHE")) {
      StringRef d(dir);
      if (d.empty() || d == "0" || d.equals_insensitive("off"))
        return std::string();
      return d.str();
    }
    SmallString<256> path;
    if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
      path = xdg;
    else if (const char *home = std::getenv("HOME"); home && *home)
      llvm::sys::path::append(path, home, ".cache");
    else
      return std::string();
    llvm::sys::path::append(path, "stark", "compile");
    return std::string(path);
  }());
  return cache;
}

std::string CompileCache::makeKey(ArrayRef<StringRef> parts) {
  llvm::SHA256 hash;
  auto add = [&](StringRef part) {
    std::string length = std::to_string(part.size()) + ":";
    hash.update(length);
    hash.update(part);
  };
  add(STARK_VERSION);
  add(LLVM_VERSION_STRING);
  for (StringRef part : parts)
    add(part);
  std::array<uint8_t, 32> digest = hash.final();
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::string CompileCache::pathOf(StringRef kind, StringRef key) const {
  SmallString<256> path(directory);
  llvm::sys::path::append(path, kind, key);
  return std::string(path);
}

std::optional<std::vector<std::string>> CompileCache::lookup(StringRef kind,
                                                             StringRef key) {
  if (!isEnabled())
    return std::nullopt;
  auto miss = [&]() -> std::optional<std::vector<std::string>> {
    ++misses;
    return std::nullopt;
  };
  auto file = llvm::MemoryBuffer::getFile(pathOf(kind, key),
                                          /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return miss();
  StringRef rest = (*file)->getBuffer();
  if (!rest.consume_front(kMagic))
    return miss();
  // Each blob: its length in decimal, a newline, its bytes.
  std::vector<std::string> blobs;
  while (!rest.empty()) {
    auto [length, after] = rest.split('\n');
    size_t size = 0;
    if (length.getAsInteger(10, size) || after.size() < size)
      return miss();
    blobs.push_back(after.take_front(size).str());
    rest = after.drop_front(size);
  }
  ++hits;
  return blobs;
}

void CompileCache::store(StringRef kind, StringRef key,
                         ArrayRef<std::string> blobs) {
  if (!isEnabled())
    return;
  SmallString<256> dir(directory);
  llvm::sys::path::append(dir, kind);
  if (llvm::sys::fs::create_directories(dir))
    return;
  SmallString<256> model(dir);
  llvm::sys::path::append(model, key + ".%%%%%%%%.tmp");
  int fd = -1;
  SmallString<256> temp;
  if (llvm::sys::fs::createUniqueFile(model, fd, temp))
    return;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << kMagic;
    for (const std::string &blob : blobs)
      os << blob.size() << '\n' << blob;
    os.close();
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return;
    }
  }
  if (llvm::sys::fs::rename(temp, pathOf(kind, key)))
    llvm::sys::fs::remove(temp);
}

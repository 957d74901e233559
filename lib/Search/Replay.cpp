//===- Replay.cpp - Agents that replay a recorded transcript --------------===//

#include "stark/Search/Replay.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::stark;

std::unique_ptr<ReplayAgents> ReplayAgents::load(StringRef path,
                                                 std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = llvm::formatv("cannot read transcript '{0}': {1}", path,
                          buffer.getError().message())
                .str();
    return nullptr;
  }
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json) {
    error = llvm::formatv("transcript '{0}' is not JSON: {1}", path,
                          llvm::toString(json.takeError()))
                .str();
    return nullptr;
  }
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Array *proposals =
      root ? root->getArray("proposals") : nullptr;
  if (!proposals) {
    error = llvm::formatv("transcript '{0}' has no \"proposals\" array", path)
                .str();
    return nullptr;
  }
  auto agents = std::unique_ptr<ReplayAgents>(new ReplayAgents());
  StringRef dir = llvm::sys::path::parent_path(path);
  for (auto [i, value] : llvm::enumerate(*proposals)) {
    const llvm::json::Object *o = value.getAsObject();
    auto fail = [&](StringRef what) {
      error =
          llvm::formatv("transcript '{0}', proposal {1}: {2}", path, i, what)
              .str();
      return nullptr;
    };
    if (!o)
      return fail("not an object");
    Entry e;
    e.role = o->getString("role").value_or("any").str();
    if (e.role != "any" && e.role != "propose" && e.role != "repair")
      return fail("role must be propose, repair or any");
    SearchNode &n = e.proposal.node;
    n.strategy = o->getString("strategy").value_or("replayed").str();
    n.plan = o->getString("plan").value_or("").str();
    n.changedPart = o->getString("changed_part").value_or("").str();
    n.author = "replay";
    if (const llvm::json::Object *params = o->getObject("params"))
      for (const auto &kv : *params)
        if (std::optional<StringRef> v = kv.second.getAsString())
          n.params[kv.first.str()] = v->str();
    if (std::optional<StringRef> payload = o->getString("payload")) {
      e.proposal.payload = payload->str();
    } else if (std::optional<StringRef> file = o->getString("payload_file")) {
      SmallString<256> full(dir);
      llvm::sys::path::append(full, *file);
      auto text = llvm::MemoryBuffer::getFile(full);
      if (!text)
        return fail(("cannot read payload file '" + full + "'").str());
      e.proposal.payload = (*text)->getBuffer().str();
    } else {
      return fail("needs \"payload\" or \"payload_file\"");
    }
    agents->entries.push_back(std::move(e));
  }
  return agents;
}

std::optional<Proposal> ReplayAgents::take(StringRef role) {
  // Entries are consumed in order; an entry for the other role is skipped
  // only when nothing else is left for this one.
  for (size_t i = next; i < entries.size(); ++i) {
    if (entries[i].role == "any" || entries[i].role == role) {
      std::swap(entries[i], entries[next]);
      return entries[next++].proposal;
    }
  }
  return std::nullopt;
}

std::optional<Proposal> ReplayAgents::propose(const RoleContext &) {
  return take("propose");
}

std::optional<Proposal> ReplayAgents::repair(const RoleContext &) {
  return take("repair");
}

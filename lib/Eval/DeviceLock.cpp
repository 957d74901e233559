//===- DeviceLock.cpp - Fair timing on a device shared by workers ---------===//

#include "stark/Eval/DeviceLock.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

using namespace mlir::stark;

DeviceUse mlir::stark::getDeviceUse(llvm::StringRef phase,
                                    llvm::StringRef target) {
  if (phase.starts_with("timing"))
    return DeviceUse::Exclusive;
  if (phase.starts_with("running") || phase.starts_with("checking"))
    return DeviceUse::Shared;
  if (phase.starts_with("compiling") && target == "cpu")
    return DeviceUse::Shared;
  return DeviceUse::None;
}

std::string mlir::stark::getDeviceLockPath(llvm::StringRef device) {
  llvm::SmallString<256> path;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, path);
  std::string name = "stark-device-";
  // Keep the name a plain file name whatever the device is called.
  for (char c : device)
    name += llvm::isAlnum(c) || c == '-' || c == '.' ? c : '_';
  name += "-" + std::to_string(::getuid()) + ".lock";
  llvm::sys::path::append(path, name);
  return std::string(path);
}

DeviceLock::~DeviceLock() {
  if (fd >= 0)
    ::close(fd);
}

bool DeviceLock::hold(DeviceUse use) {
  if (use == held)
    return true;
  if (fd < 0) {
    if (use == DeviceUse::None)
      return true;
    fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
      return false;
  }
  int op = use == DeviceUse::None     ? LOCK_UN
           : use == DeviceUse::Shared ? LOCK_SH
                                      : LOCK_EX;
  // Going from shared to exclusive is not atomic in flock(2): another
  // worker may time in between, which is fair.
  while (::flock(fd, op) != 0)
    if (errno != EINTR)
      return false;
  held = use;
  return true;
}

void mlir::stark::separateDeviceWaits(
    std::vector<std::pair<std::string, double>> &phaseSeconds,
    llvm::ArrayRef<std::pair<std::string, double>> waits) {
  double moved = 0;
  for (const auto &[kind, seconds] : waits) {
    auto it = llvm::find_if(phaseSeconds,
                            [&](const auto &p) { return p.first == kind; });
    if (it == phaseSeconds.end() || !(seconds > 0))
      continue;
    double take = std::min(seconds, it->second);
    it->second -= take;
    moved += take;
  }
  if (moved > 0)
    phaseSeconds.emplace_back(kDeviceWaitPhase.str(), moved);
}

//===- EvalPoolTest.cpp - Scheduling, re-queueing and device locks --------===//

#include "stark/Eval/EvalPool.h"
#include "stark/Eval/DeviceLock.h"

#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::stark;

namespace {

/// Answers with the job's candidate name and its own name; after `lostAfter`
/// jobs it is lost on the next one (a rank that died holding it).
class FakeExecutor : public EvalExecutor {
public:
  FakeExecutor(std::string name, int lostAfter = -1,
               std::chrono::milliseconds delay = std::chrono::milliseconds(5))
      : name(std::move(name)), lostAfter(lostAfter), delay(delay) {}
  std::string getName() const override { return name; }
  std::optional<EvalResult> run(const EvalJob &job,
                                std::string &lostReason) override {
    std::this_thread::sleep_for(delay);
    if (lostAfter >= 0 && ran.load() >= lostAfter) {
      lostReason = "no answer";
      ++lostJobs;
      return std::nullopt;
    }
    ++ran;
    EvalResult r;
    r.status = EvalStatus::Ok;
    r.message = job.candidateName;
    r.target = name;
    return r;
  }
  std::string name;
  int lostAfter;
  std::chrono::milliseconds delay;
  std::atomic<int> ran{0}, lostJobs{0};
};

std::vector<EvalJob> makeJobs(int n) {
  std::vector<EvalJob> jobs(n);
  for (int i = 0; i < n; ++i)
    jobs[i].candidateName = "c" + std::to_string(i);
  return jobs;
}

TEST(EvalPoolTest, ResultsComeInJobOrderFromEveryExecutor) {
  std::vector<std::unique_ptr<EvalExecutor>> executors;
  // The first executor is slow: later jobs finish before earlier ones.
  executors.push_back(std::make_unique<FakeExecutor>(
      "slow", -1, std::chrono::milliseconds(40)));
  executors.push_back(std::make_unique<FakeExecutor>("fast"));
  executors.push_back(std::make_unique<FakeExecutor>("fast2"));
  EvalPool pool(std::move(executors), std::make_unique<FakeExecutor>("home"));
  EXPECT_EQ(pool.size(), 3u);
  std::vector<EvalResult> results = pool.evaluateAll(makeJobs(12));
  ASSERT_EQ(results.size(), 12u);
  std::set<std::string> ranOn;
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(results[i].message, "c" + std::to_string(i));
    ranOn.insert(results[i].target);
  }
  // Every executor took part, the home one did not.
  EXPECT_EQ(ranOn, (std::set<std::string>{"slow", "fast", "fast2"}));
  EXPECT_TRUE(pool.getLost().empty());
}

TEST(EvalPoolTest, ALostExecutorsJobIsRequeuedOnTheOthers) {
  std::vector<std::unique_ptr<EvalExecutor>> executors;
  auto dying = std::make_unique<FakeExecutor>("rank 2", /*lostAfter=*/1);
  FakeExecutor *dyingPtr = dying.get();
  // The survivor is slower, so the dying one surely gets a second job.
  executors.push_back(std::make_unique<FakeExecutor>(
      "rank 1", -1, std::chrono::milliseconds(20)));
  executors.push_back(std::move(dying));
  EvalPool pool(std::move(executors), std::make_unique<FakeExecutor>("home"));
  std::vector<EvalResult> results = pool.evaluateAll(makeJobs(8));
  ASSERT_EQ(results.size(), 8u);
  int onDying = 0;
  for (int i = 0; i < 8; ++i) {
    EXPECT_TRUE(results[i].isOk());
    EXPECT_EQ(results[i].message, "c" + std::to_string(i));
    onDying += results[i].target == "rank 2";
  }
  // It answered one job, lost the next, and took nothing after that.
  EXPECT_EQ(onDying, 1);
  EXPECT_EQ(dyingPtr->lostJobs.load(), 1);
  std::vector<LostExecutor> lost = pool.getLost();
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].name, "rank 2");
  EXPECT_EQ(lost[0].reason, "no answer");
  EXPECT_EQ(lost[0].requeued, 1u);
  // Later batches run on the survivor only.
  for (const EvalResult &r : pool.evaluateAll(makeJobs(4)))
    EXPECT_EQ(r.target, "rank 1");
}

TEST(EvalPoolTest, WhenEveryExecutorIsLostTheHomeOneTakesOver) {
  std::vector<std::unique_ptr<EvalExecutor>> executors;
  executors.push_back(std::make_unique<FakeExecutor>("rank 1", 0));
  executors.push_back(std::make_unique<FakeExecutor>("rank 2", 0));
  EvalPool pool(std::move(executors), std::make_unique<FakeExecutor>("home"));
  std::vector<EvalResult> results = pool.evaluateAll(makeJobs(5));
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(results[i].message, "c" + std::to_string(i));
    EXPECT_EQ(results[i].target, "home");
  }
  EXPECT_EQ(pool.getLost().size(), 2u);
}

TEST(EvalPoolTest, EvaluateHereRunsOnTheHomeExecutor) {
  std::vector<std::unique_ptr<EvalExecutor>> executors;
  executors.push_back(std::make_unique<FakeExecutor>("worker"));
  EvalPool pool(std::move(executors), std::make_unique<FakeExecutor>("home"));
  EXPECT_EQ(pool.evaluateHere(makeJobs(1)[0]).target, "home");
}

TEST(EvalPoolTest, SeveralCallersShareThePool) {
  std::vector<std::unique_ptr<EvalExecutor>> executors;
  for (int i = 0; i < 3; ++i)
    executors.push_back(std::make_unique<FakeExecutor>(std::to_string(i)));
  EvalPool pool(std::move(executors), std::make_unique<FakeExecutor>("home"));
  std::vector<std::thread> callers;
  std::atomic<int> wrong{0};
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&] {
      std::vector<EvalResult> results = pool.evaluateAll(makeJobs(6));
      for (int i = 0; i < 6; ++i)
        wrong += results[i].message != "c" + std::to_string(i);
    });
  for (std::thread &t : callers)
    t.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(EvalPoolTest, LocalExecutorsPinWorkersRoundRobinOverDevices) {
  LocalPoolOptions options;
  options.target = "cuda";
  options.devices = 2;
  options.workersPerDevice = 2;
  auto executors = createLocalExecutors(options);
  ASSERT_EQ(executors.size(), 4u);
  EXPECT_EQ(executors[0]->getName(), "device 0 worker 0");
  EXPECT_EQ(executors[1]->getName(), "device 1 worker 0");
  EXPECT_EQ(executors[2]->getName(), "device 0 worker 1");
  options.target = "cpu";
  EXPECT_EQ(createLocalExecutors(options).size(), 2u);
}

TEST(EvalPoolTest, PinnedDevicesCountInTheVisibleOnes) {
  EXPECT_EQ(getPinnedDevice("", 2), "2");
  EXPECT_EQ(getPinnedDevice("4,5, 7", 2), "7");
  EXPECT_EQ(getPinnedDevice("GPU-aa,GPU-bb", 1), "GPU-bb");
}

TEST(DeviceLockTest, TimingIsExclusiveRunningIsShared) {
  EXPECT_EQ(getDeviceUse("timing baseline and candidate", "cuda"),
            DeviceUse::Exclusive);
  EXPECT_EQ(getDeviceUse("running the candidate: trial 1", "cuda"),
            DeviceUse::Shared);
  EXPECT_EQ(getDeviceUse("compiling the candidate", "cuda"), DeviceUse::None);
  EXPECT_EQ(getDeviceUse("compiling the candidate", "cpu"), DeviceUse::Shared);
  EXPECT_EQ(getDeviceUse("creating target cuda", "cuda"), DeviceUse::None);
}

TEST(DeviceLockTest, ExclusiveWaitsForSharedHolders) {
  SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("stark-lock", "lock", path));
  DeviceLock a(path), b(path), c(path);
  ASSERT_TRUE(a.hold(DeviceUse::Shared));
  ASSERT_TRUE(b.hold(DeviceUse::Shared)); // shared holders coexist
  std::atomic<bool> timed{false};
  std::thread timing([&] {
    c.hold(DeviceUse::Exclusive);
    timed = true;
    c.hold(DeviceUse::None);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(timed.load());
  a.hold(DeviceUse::None);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(timed.load()); // b still runs on the device
  b.hold(DeviceUse::None);
  timing.join();
  EXPECT_TRUE(timed.load());
  llvm::sys::fs::remove(path);
}

} // namespace

TEST(DeviceLockTest, WaitsForTheLockMoveToTheirOwnPhase) {
  std::vector<std::pair<std::string, double>> phases = {
      {"compiling the candidate", 0.5},
      {"timing baseline and candidate", 40.0},
      {"running the candidate", 2.0}};
  // Two waits before timing, one before a run; a wait in a phase the
  // report does not have is not counted.
  separateDeviceWaits(phases, {{"timing baseline and candidate", 30.0},
                               {"timing baseline and candidate", 8.0},
                               {"running the candidate", 0.5},
                               {"no such phase", 9.0}});
  ASSERT_EQ(phases.size(), 4u);
  EXPECT_DOUBLE_EQ(phases[0].second, 0.5);
  EXPECT_DOUBLE_EQ(phases[1].second, 2.0);
  EXPECT_DOUBLE_EQ(phases[2].second, 1.5);
  EXPECT_EQ(phases[3].first, kDeviceWaitPhase.str());
  EXPECT_DOUBLE_EQ(phases[3].second, 38.5);
  // No wait, no extra phase.
  std::vector<std::pair<std::string, double>> alone = {{"timing", 1.0}};
  separateDeviceWaits(alone, {});
  EXPECT_EQ(alone.size(), 1u);
}

// engine/common/RunProfile: stages add up by name, kernels aggregate their events by name (each event drained and
// released once), and nothing is recorded while no profile is active.
#include <QtTest>
#include <memory>
#include <thread>

#include "common/RunProfile.hpp"

using namespace gb;

class TestRunProfile : public QObject {
  Q_OBJECT
 private slots:
  void stagesAddUpByName() {
    RunProfile profile;
    profile.addStage("read", 0.25, 100);
    profile.addStage("fit", 1.0);
    profile.addStage("read", 0.5, 50, 7.0);
    const std::vector<ProfileStage> stages = profile.stages();
    QCOMPARE(stages.size(), std::size_t(2));
    QCOMPARE(stages[0].name, std::string("read"));  // the order first seen
    QCOMPARE(stages[0].calls, std::uint64_t(2));
    QCOMPARE(stages[0].seconds, 0.75);
    QCOMPARE(stages[0].bytes, std::uint64_t(150));
    QCOMPARE(stages[0].flops, 7.0);
    QCOMPARE(profile.stage("fit").seconds, 1.0);
    QCOMPARE(profile.stage("absent").calls, std::uint64_t(0));
  }

  void scopedStagesRecordOnlyWhileActive() {
    RunProfile profile;
    { const ScopedStage off("setup", 10); }  // no active profile: nothing anywhere
    QVERIFY(RunProfile::active() == nullptr);
    {
      const RunProfile::Activation on(profile);
      QCOMPARE(RunProfile::active(), &profile);
      for (int i = 0; i < 3; ++i) {
        ScopedStage timed("setup", 10);
        timed.setBytes(20);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    }
    QVERIFY(RunProfile::active() == nullptr);
    { const ScopedStage after("setup", 10); }
    {
      auto straddling = std::make_unique<RunProfile::Activation>(profile);
      const ScopedStage outlives("straddling", 5);
      straddling.reset();  // the activation ends first: the stage must not record into a profile that may be gone
    }
    QCOMPARE(profile.stage("straddling").calls, std::uint64_t(0));
    QCOMPARE(profile.stages().size(), std::size_t(1));  // only "setup": a stage never finished is not listed
    const ProfileStage s = profile.stage("setup");
    QCOMPARE(s.calls, std::uint64_t(3));
    QCOMPARE(s.bytes, std::uint64_t(60));
    QVERIFY2(s.seconds >= 0.006, qPrintable(QString::number(s.seconds)));  // three sleeps of at least 2 ms
  }

  // Depth comes from the stages open when a stage first opens: the innermost on its own thread, else (a worker of a
  // parallel region) the outermost open on any thread.
  void stagesKnowWhatTheyRanInside() {
    RunProfile profile;
    RunProfile::Activation on(profile);
    {
      ScopedStage outer("learners (wall)");
      { ScopedStage inner("basis and Gram"); }
      std::thread worker([] { ScopedStage onWorker("lambda solves"); });
      worker.join();
    }
    { ScopedStage after("backend set-up"); }
    QCOMPARE(profile.stage("learners (wall)").depth, 0);
    QCOMPARE(profile.stage("basis and Gram").depth, 1);
    QCOMPARE(profile.stage("lambda solves").depth, 1);
    QCOMPARE(profile.stage("backend set-up").depth, 0);
  }

  void kernelsAggregateTheirEvents() {
    RunProfile profile;
    int drained = 0;
    std::vector<int> events(5);  // stand-ins for device events: the drain returns each one's "seconds"
    const EventDrain drain = [&drained](void* e) {
      ++drained;
      return *static_cast<int*>(e) * 1e-3;
    };
    for (int i = 0; i < 5; ++i) {
      events[static_cast<std::size_t>(i)] = i + 1;
      profile.addPendingEvent(i % 2 ? "update" : "btg", &events[static_cast<std::size_t>(i)], drain, i % 2 ? 0 : 100);
    }
    QCOMPARE(profile.pendingEvents(), std::size_t(5));
    QVERIFY(profile.kernels().empty());
    profile.drain();
    QCOMPARE(drained, 5);
    QCOMPARE(profile.pendingEvents(), std::size_t(0));
    const std::vector<ProfileKernel> kernels = profile.kernels();
    QCOMPARE(kernels.size(), std::size_t(2));
    QCOMPARE(kernels[0].name, std::string("btg"));  // events 1, 3, 5
    QCOMPARE(kernels[0].count, std::uint64_t(3));
    QVERIFY(qFuzzyCompare(kernels[0].seconds, 9e-3));
    QVERIFY(qFuzzyCompare(kernels[0].mean(), 3e-3));
    QCOMPARE(kernels[0].bytes, std::uint64_t(300));  // the bytes each launch declared, summed
    QCOMPARE(kernels[1].count, std::uint64_t(2));    // events 2, 4
    QCOMPARE(kernels[1].bytes, std::uint64_t(0));
    QVERIFY(qFuzzyCompare(profile.kernelSeconds(), 15e-3));
    profile.drain();  // nothing pending: nothing drained twice
    QCOMPARE(drained, 5);
  }

  void aFailingEventStillReleasesTheOthers() {
    RunProfile profile;
    int drained = 0;
    int a = 1, b = 2, c = 3;
    const EventDrain drain = [&drained](void* e) -> double {
      ++drained;
      if (*static_cast<int*>(e) == 2) throw std::runtime_error("event 2 failed");
      return 1e-3;
    };
    for (int* e : {&a, &b, &c}) profile.addPendingEvent("k", e, drain);
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, profile.drain());
    QCOMPARE(drained, 3);
    QCOMPARE(profile.kernels().front().count, std::uint64_t(2));
  }
};

QTEST_APPLESS_MAIN(TestRunProfile)
#include "test_run_profile.moc"

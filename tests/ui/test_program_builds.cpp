// A second Fit in the window builds no OpenCL program: the programs of the first fit are kept for the process
// (opencl/ProgramCache.hpp). Counted with the cache's own counters, on the default OpenCL device (PoCL in CI).
#include <QSignalSpy>
#include <QtTest>

#include "fit/FitController.hpp"
#include "model/ModelPanel.hpp"
#include "opencl/ProgramCache.hpp"
#include "support/StudioFixture.hpp"
#include "window/MainWindow.hpp"

using namespace gbui;

class ProgramBuildsTest : public QObject {
  Q_OBJECT

 private slots:
  void secondFitBuildsNothing() {
    auto w = gbtest::makeWindow(2000, 5, 30, 3, "builds");
    gb::ComputeSettings c;
    c.backend = gb::BackendKind::OpenCl;
    c.precision = gb::Precision::Double;
    w->controller()->setSettings(w->modelPanel()->settings(), c);
    const auto built = [] {
      const gb::ocl::ProgramCacheStats s = gb::ocl::programCacheStats();
      return s.sourceBuilds + s.binaryLoads;
    };
    // The controller's own fit(): the Fit button would take the compute settings from the model panel.
    const auto fitAndWait = [&w] {
      QSignalSpy finished(w->controller(), &FitController::jobFinished);
      return w->controller()->fit() && finished.wait(120000);
    };
    const auto before = built();
    QVERIFY(fitAndWait());
    QCOMPARE(w->controller()->state(), FitState::Finished);
    const auto afterFirst = built();
    QVERIFY2(afterFirst > before, "the first OpenCL fit built no program: was it an OpenCL fit?");
    QVERIFY(fitAndWait());
    QCOMPARE(w->controller()->state(), FitState::Finished);
    qInfo("programs built or loaded: %llu by the first fit, %llu by the second",
          static_cast<unsigned long long>(afterFirst - before), static_cast<unsigned long long>(built() - afterFirst));
    QCOMPARE(built(), afterFirst);
  }
};

QTEST_MAIN(ProgramBuildsTest)
#include "test_program_builds.moc"

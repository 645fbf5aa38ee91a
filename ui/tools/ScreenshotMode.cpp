#include "tools/ScreenshotMode.hpp"

#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <cstdio>

#include "data/DataPanel.hpp"
#include "plots/KernelChart.hpp"
#include "plots/LearnerRaceView.hpp"
#include "plots/PartialEffectsView.hpp"
#include "tools/EventLoopWait.hpp"
#include "window/MainWindow.hpp"

namespace gbui {

namespace {

bool grab(QWidget& w, const QString& path) {
  processEventsFor(300);  // queued replots and layouts
  const bool ok = w.grab().save(path);
  std::printf("%s %s\n", ok ? "wrote" : "FAILED to write", qPrintable(path));
  std::fflush(stdout);
  return ok;
}

QStringList benchReports(const QString& given) {
  QStringList dirs;
  if (!given.isEmpty()) dirs << given;
  dirs << QDir::current().filePath("docs/bench");
  // The single-precision kernel reports of the H100 and of this machine's PoCL, side by side (h100-fit-* files
  // are whole-fit benchmarks, not kernel reports). Any other h100-*.json when those are absent.
  for (const QString& d : dirs) {
    QStringList out;
    for (const QString& f : {"h100-float.json", "pocl-float.json"})
      if (QFileInfo::exists(QDir(d).filePath(f))) out << QDir(d).filePath(f);
    if (out.isEmpty())
      for (const QString& f : QDir(d).entryList({"h100-*.json"}, QDir::Files, QDir::Name))
        if (!f.startsWith("h100-fit")) out << QDir(d).filePath(f);
    if (!out.isEmpty()) return out;
  }
  return {};
}

bool runFit(MainWindow& w, int timeoutMs) {
  w.fitAction()->trigger();
  return waitForSignal(w.controller(), &FitController::jobFinished, timeoutMs);
}

}  // namespace

int runScreenshots(const ScreenshotOptions& o) {
  QDir().mkpath(o.directory);
  const QDir out(o.directory);
  QTemporaryDir scratch;
  StudioOptions so;
  so.interactive = false;
  so.settingsFile = scratch.filePath("settings.ini");
  so.restoreSettings = false;
  MainWindow w(so);  // first-start defaults: paper data (n = 5000) generated, mboost learners, mstop 1000
  w.resize(1440, 900);
  w.show();
  processEventsFor(500);
  int failures = 0;

  if (!runFit(w, 120000) || w.controller()->state() != FitState::Finished) {
    std::fprintf(stderr, "fit failed: %s\n", qPrintable(w.messages()->lastError()));
    return 1;
  }
  w.showTab(w.effectsView());
  const QList<int> shown = w.effectsView()->shownLearners();
  if (!shown.isEmpty()) w.effectsView()->enlarge(shown.front());
  failures += !grab(w, out.filePath("main-window.png"));

  // Teaching mode from a fresh Booster: a few single steps, then the race of the last one.
  w.controller()->reset();
  for (int i = 0; i < 3; ++i) {
    w.stepButton()->click();
    waitForSignal(w.controller(), &FitController::jobFinished, 60000);
  }
  w.showTab(w.raceView());
  failures += !grab(w, out.filePath("learner-race.png"));

  w.showTab(w.kernelChart());
  const QStringList reports = benchReports(o.benchDirectory);
  for (const QString& r : reports) w.kernelChart()->loadReportFile(r);
  if (reports.isEmpty()) {
    // No saved reports: a small run on this machine's OpenCL device (PoCL), sized to finish in about a minute.
    gb::KernelBenchOptions bench;
    bench.rows = {1000, 10000, 100000};
    bench.columns = {16};
    bench.repetitions = 3;
    w.kernelChart()->runBenchmark(bench);
    waitForSignal(w.kernelChart(), &KernelChart::benchmarkFinished, 300000);
  }
  failures += !grab(w, out.filePath("kernel-chart.png"));
  w.close();
  return failures == 0 ? 0 : 1;
}

}  // namespace gbui

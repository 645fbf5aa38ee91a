#include "tools/ScreenshotMode.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "data/ColumnRolesTable.hpp"
#include "data/DataPanel.hpp"
#include "fit/BandsController.hpp"
#include "model/ModelPanel.hpp"
#include "plots/FitDiagnostics.hpp"
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

// A 0/1 response for the binomial screenshots (until R's CSV files can be read): P(y = 1) = logistic of a sine in
// x1, a line in x2, a bump in x3 and a level effect of the text column "soil" (clay, loam, sand).
std::shared_ptr<gb::Dataset> binomialDemo(std::size_t n) {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> u(-2.0, 2.0), p01(0.0, 1.0);
  const double level[] = {0.0, 1.2, -0.8};
  auto d = std::make_shared<gb::Dataset>();
  d->source = "binomial demo";
  d->names = {"y", "x1", "x2", "x3", "soil"};
  d->kinds = {gb::ColumnKind::Numeric, gb::ColumnKind::Numeric, gb::ColumnKind::Numeric, gb::ColumnKind::Numeric,
              gb::ColumnKind::Text};
  d->levels = {{}, {}, {}, {}, {"clay", "loam", "sand"}};
  d->columns.assign(5, std::vector<double>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const double x1 = u(rng), x2 = u(rng), x3 = u(rng);
    const int soil = static_cast<int>(i % 3);
    const double eta = 2.0 * std::sin(1.5 * x1) + 0.6 * x2 + 1.5 * std::exp(-2.0 * x3 * x3) - 0.5 + level[soil];
    d->columns[0][i] = p01(rng) < 1.0 / (1.0 + std::exp(-eta)) ? 1.0 : 0.0;
    d->columns[1][i] = x1;
    d->columns[2][i] = x2;
    d->columns[3][i] = x3;
    d->columns[4][i] = soil;
  }
  return d;
}

bool runFit(MainWindow& w, int timeoutMs) {
  w.fitAction()->trigger();
  return waitForSignal(w.controller(), &FitController::jobFinished, timeoutMs);
}

// A binomial fit of the demo data (x2 a linear learner, soil a factor): the effects and the fitted probabilities.
int binomialShots(MainWindow& w, const QDir& out) {
  w.dataPanel()->useDataset(binomialDemo(3000));
  ColumnRoles roles = w.dataPanel()->roles();
  roles.learners.removeAll("x2");
  roles.linears << "x2";
  w.dataPanel()->setRoles(roles);
  QComboBox* family = w.modelPanel()->familyBox();
  family->setCurrentIndex(family->findData(QString("binomial")));
  w.modelPanel()->mstopBox()->setValue(400);
  if (!runFit(w, 120000) || w.controller()->state() != FitState::Finished) {
    std::fprintf(stderr, "binomial fit failed: %s\n", qPrintable(w.messages()->lastError()));
    return 1;
  }
  w.showTab(w.effectsView());
  const QList<int> shown = w.effectsView()->shownLearners();
  if (!shown.isEmpty()) w.effectsView()->enlarge(shown.front());
  int failures = !grab(w, out.filePath("binomial-effects.png"));
  w.showTab(w.diagnostics());
  failures += !grab(w, out.filePath("binomial-fitted.png"));
  failures += !grab(*w.modelPanel(), out.filePath("model-panel.png"));
  return failures;
}

// R's own data sets as write.csv wrote them (tests/data), fitted with the window's defaults but the response:
// bodyfat (DEXfat ~ .), airquality (Ozone ~ ., rows with NA omitted: the roles table shows the missing counts) and
// iris (Sepal.Length ~ ., Species a factor).
bool openRData(MainWindow& w, const QString& file, const QString& response) {
  const QString path = QDir::current().filePath("tests/data/" + file);
  if (!QFileInfo::exists(path) || !w.dataPanel()->openCsv(path)) return false;
  if (!waitForSignal(w.dataPanel(), &DataPanel::loadFinished, 60000)) return false;
  ColumnRoles roles = w.dataPanel()->roles();
  const QString old = roles.response;
  roles.response = response;
  roles.learners.removeAll(response);
  roles.factors.removeAll(response);
  roles.linears.removeAll(response);
  if (!old.isEmpty() && old != response) roles.learners << old;
  w.dataPanel()->setRoles(roles);
  return true;
}

// The bodyfat fit again with "Bands (bootstrap 50)": the effects shaded with their 95% and 90% bands, the one of
// the most selected learner enlarged.
int bandsShot(MainWindow& w, const QDir& out) {
  w.modelPanel()->bandsBox()->setValue(50);
  w.modelPanel()->bandsCheck()->setChecked(true);
  const bool ok = runFit(w, 120000) && w.bandsController()->isRunning() &&
                  waitForSignal(w.bandsController(), &BandsController::finished, 300000) &&
                  w.bandsController()->bands();
  w.modelPanel()->bandsCheck()->setChecked(false);
  if (!ok) {
    std::fprintf(stderr, "bodyfat bands failed: %s\n", qPrintable(w.messages()->lastError()));
    return 1;
  }
  w.showTab(w.effectsView());
  const FitSnapshot& s = w.controller()->lastSnapshot();
  const auto most = std::max_element(s.counts.begin(), s.counts.end());
  if (most != s.counts.end()) w.effectsView()->enlarge(static_cast<int>(most - s.counts.begin()));
  return grab(w, out.filePath("bodyfat-bands.png")) ? 0 : 1;
}

int rDataShots(MainWindow& w, const QDir& out) {
  QComboBox* family = w.modelPanel()->familyBox();
  family->setCurrentIndex(family->findData(QString("gaussian")));
  w.modelPanel()->mstopBox()->setValue(100);
  int failures = 0;
  const struct {
    const char* file;
    const char* response;
    const char* shot;
    const char* enlarge;
  } sets[] = {{"bodyfat.csv", "DEXfat", "bodyfat-effects.png", ""},
              {"airquality.csv", "Ozone", "airquality-effects.png", ""},
              {"iris.csv", "Sepal.Length", "iris-effects.png", "Species"}};
  for (const auto& set : sets) {
    if (!openRData(w, set.file, set.response) || !runFit(w, 120000) || w.controller()->state() != FitState::Finished) {
      std::fprintf(stderr, "%s: fit failed: %s\n", set.file, qPrintable(w.messages()->lastError()));
      ++failures;
      continue;
    }
    w.showTab(w.effectsView());
    if (*set.enlarge) {
      const gb::Dataset& d = *w.dataPanel()->dataset();
      int index = 0;  // learners in the model's order: splines, linears, factors
      for (const QString& l : w.dataPanel()->roles().learners) index += d.columnIndex(l.toStdString()) >= 0;
      w.effectsView()->enlarge(index + static_cast<int>(w.dataPanel()->roles().linears.size()));
    }
    failures += !grab(w, out.filePath(set.shot));
    if (QString(set.file) == "bodyfat.csv") failures += bandsShot(w, out);
    if (QString(set.file) == "airquality.csv") {  // the Data side tab: roles, types and missing counts
      for (QWidget* p = w.dataPanel(); p; p = p->parentWidget()) {
        if (auto* area = qobject_cast<QScrollArea*>(p)) area->ensureWidgetVisible(w.dataPanel()->rolesTable(), 0, 0);
        if (auto* tabs = qobject_cast<QTabWidget*>(p)) {
          tabs->setCurrentIndex(0);
          break;
        }
      }
      failures += !grab(w, out.filePath("airquality-data.png"));
    }
  }
  return failures;
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
  // The first start's data is generated on a worker thread: wait for it if the half second was not enough.
  if (!w.dataPanel()->dataset()) waitForSignal(w.dataPanel(), &DataPanel::loadFinished, 60000);
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
  failures += binomialShots(w, out);
  failures += rDataShots(w, out);
  w.close();
  return failures == 0 ? 0 : 1;
}

}  // namespace gbui

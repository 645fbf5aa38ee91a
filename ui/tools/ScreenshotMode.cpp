#include "tools/ScreenshotMode.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
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
#include "plots/CrossValidationView.hpp"
#include "plots/FitDiagnostics.hpp"
#include "plots/KernelChart.hpp"
#include "plots/LearnerFitView.hpp"
#include "plots/LearnerRaceView.hpp"
#include "plots/ModelSummaryView.hpp"
#include "plots/PartialEffectsView.hpp"
#include "tools/EventLoopWait.hpp"
#include "window/MainWindow.hpp"
#include "window/ReplayBar.hpp"

namespace gbui {

namespace {

bool grab(QWidget& w, const QString& path) {
  processEventsFor(300);  // queued replots and layouts
  const QPixmap picture = w.grab();
  const bool ok = picture.save(path);
  std::printf("%s %s (%dx%d)\n", ok ? "wrote" : "FAILED to write", qPrintable(path), picture.width(), picture.height());
  std::fflush(stdout);
  return ok;
}

// The two window sizes every acceptance screenshot is taken at: <name>-1280.png and <name>-1024.png.
struct ShotSize {
  int width, height;
  const char* suffix;
};
constexpr ShotSize kShotSizes[] = {{1280, 800, "-1280"}, {1024, 700, "-1024"}};

void useSize(MainWindow& w, const ShotSize& size) {
  w.resize(size.width, size.height);
  processEventsFor(200);
}

// The window at both sizes (back at the first afterwards); the number of files not written.
int grabBothSizes(MainWindow& w, const QDir& out, const QString& name) {
  int failures = 0;
  for (const ShotSize& size : kShotSizes) {
    useSize(w, size);
    failures += !grab(w, out.filePath(name + size.suffix + ".png"));
  }
  useSize(w, kShotSizes[0]);
  return failures;
}

QStringList benchReports(const QString& given) {
  QStringList dirs;
  if (!given.isEmpty()) dirs << given;
  dirs << QDir::current().filePath("docs/bench");
  // The single-precision kernel reports of the H100 and of this machine's PoCL, side by side (h100-fit-* files
  // are whole-fit benchmarks, not kernel reports). Any other h100-*.json when those are absent.
  for (const QString& d : dirs) {
    QStringList out;
    for (const char* f : {"h100-float.json", "pocl-float.json"})
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
  if (!QFileInfo::exists(path)) {
    std::fprintf(stderr, "%s: not found (the R data sets' shots run from the repository root)\n", qPrintable(path));
    return false;
  }
  if (!w.dataPanel()->openCsv(path)) return false;
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

// Brings `panel` (the data or the model panel) to the front of the side tabs, scrolled to show `visible`.
void showSidePage(QWidget* panel, QWidget* visible) {
  for (QWidget* p = panel; p; p = p->parentWidget()) {
    if (auto* area = qobject_cast<QScrollArea*>(p)) area->ensureWidgetVisible(visible, 0, 0);
    if (auto* tabs = qobject_cast<QTabWidget*>(p)) {
      for (int i = 0; i < tabs->count(); ++i)
        if (tabs->widget(i)->isAncestorOf(panel)) tabs->setCurrentIndex(i);
      break;
    }
  }
}

// The main window after the bodyfat fit (the whole effects grid) at both sizes, and that grid as Export plot writes
// it at a chosen size.
int mainWindowShots(MainWindow& w, const QDir& out) {
  showSidePage(w.modelPanel(), w.modelPanel()->familyBox());  // the settings of the fit beside its effects
  int failures = grabBothSizes(w, out, "main-window");
  showSidePage(w.dataPanel(), w.dataPanel()->generateButton());
  const QString grid = out.filePath("effects-grid.png");
  const bool ok = w.exportCurrentPlot(grid, QSize(1200, 900));
  std::printf("%s %s\n", ok ? "exported" : "FAILED to export", qPrintable(grid));
  return failures + !ok;
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
  } sets[] = {{"bodyfat.csv", "DEXfat", "", ""},
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
    if (*set.shot) failures += !grab(w, out.filePath(set.shot));
    if (QString(set.file) == "bodyfat.csv") failures += mainWindowShots(w, out) + bandsShot(w, out);
    if (QString(set.file) == "airquality.csv") {  // the Data side tab: roles, types and missing counts
      showSidePage(w.dataPanel(), w.dataPanel()->rolesTable());
      failures += !grab(w, out.filePath("airquality-data.png"));
    }
  }
  return failures;
}

// The Cross-validation tab after a 5-fold run over the lesson's data (mstop from the model panel), then the Model
// summary of a fit at the chosen mstop.
int cvShot(MainWindow& w, const QDir& out) {
  CrossValidationView* cv = w.cvView();
  w.showTab(cv);
  cv->setFoldType(FoldType::KFold);
  cv->countBox()->setValue(5);
  cv->runButton()->click();
  if (!waitForSignal(cv, &CrossValidationView::finished, 300000) || cv->chosenMstop() < 0) {
    std::fprintf(stderr, "lesson: cross-validation failed: %s\n", qPrintable(w.messages()->lastError()));
    return 1;
  }
  int failures = grabBothSizes(w, out, "cross-validation");
  // "Use this mstop", Fit again: the summary of the model stopped where cross-validation chose.
  cv->useButton()->click();  // fits the model on show again, to the chosen mstop
  const bool refitted = w.controller()->isRunning() ? waitForSignal(w.controller(), &FitController::jobFinished, 120000)
                                                    : runFit(w, 120000);
  if (!refitted || w.controller()->state() != FitState::Finished) {
    std::fprintf(stderr, "lesson: fit at the chosen mstop failed: %s\n", qPrintable(w.messages()->lastError()));
    return failures + 1;
  }
  w.showTab(w.summaryView());
  return failures + grabBothSizes(w, out, "model-summary-cv");
}

// The lesson of docs/teaching.md: the paper's data, small (n = 2000, p = 10, 5 informative), three Steps (the
// learner race, what the learner fits and the effects at iteration 3), then Fit to mstop (the effects and the Model
// summary) and 5-fold cross-validation. Each view at both sizes.
int lessonShots(MainWindow& w, const QDir& out) {
  gb::PaperDataSpec spec = w.dataPanel()->generatorSpec();
  spec.rows = 2000;
  spec.covariates = 10;
  spec.informative = 5;
  spec.noiseVariance = 25.0;  // noise sd 5 beside effects of amplitude 10: cross-validation has something to find
  w.dataPanel()->setGeneratorSpec(spec);
  if (!w.dataPanel()->generate() || !waitForSignal(w.dataPanel(), &DataPanel::loadFinished, 60000)) {
    std::fprintf(stderr, "lesson: generate failed: %s\n", qPrintable(w.messages()->lastError()));
    return 1;
  }
  for (int i = 0; i < 3; ++i) {
    w.stepButton()->click();
    waitForSignal(w.controller(), &FitController::jobFinished, 60000);
  }
  int failures = 0;
  const struct {
    QWidget* page;
    const char* name;
  } early[] = {{w.raceView(), "learner-race"}, {w.learnerFitView(), "learner-fit"}, {w.effectsView(), "lesson-step3"}};
  for (const auto& shot : early) {
    w.showTab(shot.page);
    failures += grabBothSizes(w, out, shot.name);
  }
  if (!runFit(w, 120000) || w.controller()->state() != FitState::Finished) {
    std::fprintf(stderr, "lesson: fit failed: %s\n", qPrintable(w.messages()->lastError()));
    return failures + 1;
  }
  w.showTab(w.effectsView());
  failures += grabBothSizes(w, out, "lesson-finished");
  w.showTab(w.summaryView());
  failures += grabBothSizes(w, out, "model-summary");
  // The scrubber moved back to iteration 10 of the finished fit: the effects (with the true curves) and the race
  // of iteration 11, replayed from the recorded steps.
  w.replayBar()->slider()->setValue(10);
  w.showTab(w.effectsView());
  failures += grabBothSizes(w, out, "lesson-replay");
  w.showTab(w.raceView());
  failures += grabBothSizes(w, out, "lesson-replay-race");
  w.replayBar()->latestButton()->click();
  return failures + cvShot(w, out);
}

// The kernel chart with the saved H100 and PoCL reports side by side (a short run here when there are none).
int kernelShot(MainWindow& w, const QDir& out, const QString& benchDirectory) {
  w.showTab(w.kernelChart());
  const QStringList reports = benchReports(benchDirectory);
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
  return grabBothSizes(w, out, "kernel-chart");
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
  MainWindow w(so);  // first-start defaults: the run command's demo data, settings and device
  useSize(w, kShotSizes[0]);
  w.show();
  processEventsFor(500);
  // The first start's data is generated on a worker thread: wait for it before generating the lesson's.
  if (!w.dataPanel()->dataset()) waitForSignal(w.dataPanel(), &DataPanel::loadFinished, 60000);
  int failures = lessonShots(w, out);
  failures += kernelShot(w, out, o.benchDirectory);
  failures += rDataShots(w, out);
  failures += binomialShots(w, out);
  w.close();
  return failures == 0 ? 0 : 1;
}

}  // namespace gbui

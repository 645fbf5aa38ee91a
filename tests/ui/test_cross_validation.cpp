// The Cross-validation tab: a k-fold run from the window fits off the window's thread (a timer keeps firing), draws
// one grey curve per fold equal to the engine's crossValidate on the same folds, their mean, and marks the first
// minimum of the mean; "Use this mstop" sets the model panel's mstop; errors reach the error path; Cancel stops.
// A folds file gives the engine's folds of that file; its errors name the file, line and column.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>
#include <algorithm>

#include "compute/Backend.hpp"
#include "compute/Booster.hpp"
#include "compute/ComputeDevices.hpp"
#include "compute/CpuBackend.hpp"
#include "compute/CrossValidation.hpp"
#include "data/CsvReader.hpp"
#include "model/ModelPanel.hpp"
#include "plots/CrossValidationView.hpp"
#include "plots/PlotWidget.hpp"
#include "support/StudioFixture.hpp"

using namespace gbui;

namespace {

std::vector<double> values(const QCPGraph* g) {
  std::vector<double> v;
  for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) v.push_back(it->value);
  return v;
}

void configure(CrossValidationView* cv, FoldType type, int count, int seed) {
  cv->setFoldType(type);
  cv->countBox()->setValue(count);
  cv->seedBox()->setValue(seed);
}

// Clicks "Run cross-validation" and waits for the end, counting the ticks of a timer on the window's thread while
// the folds are fitted. Returns false (with *why) where the ticks are too few; a failed QVERIFY leaves *why empty.
bool runCountingTicks(MainWindow& window, QString* why) {
  MainWindow* w = &window;
  CrossValidationView* cv = w->cvView();
  int ticks = 0;
  QTimer ticker;
  ticker.setInterval(10);
  QObject::connect(&ticker, &QTimer::timeout, [&] { ticks += cv->isRunning() ? 1 : 0; });
  ticker.start();
  QSignalSpy finished(cv, &CrossValidationView::finished);
  QElapsedTimer clock;
  clock.start();
  QTest::mouseClick(cv->runButton(), Qt::LeftButton);
  const qint64 clickMs = clock.elapsed();
  [&] {
    QVERIFY2(cv->isRunning(), qPrintable(w->messages()->lastError()));  // returned before the folds were fitted
    QVERIFY2(clickMs < 1000, qPrintable(QString("the click took %1 ms").arg(clickMs)));
    QVERIFY(finished.wait(120000));
  }();
  if (QTest::currentTestFailed()) return false;
  const qint64 runMs = clock.elapsed();
  ticker.stop();
  [&] {
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    QVERIFY2(w->messages()->lastError().isEmpty(), qPrintable(w->messages()->lastError()));
    QVERIFY2(runMs >= 200, qPrintable(QString("the run took only %1 ms: too short to judge").arg(runMs)));
  }();
  if (QTest::currentTestFailed()) return false;
  qInfo("cv: %lld ms, %d timer ticks during the run", runMs, ticks);
  // A run on the window's thread would give no tick at all; a quarter of the ideal count allows for a busy machine.
  if (ticks >= std::max<qint64>(5, runMs / 40)) return true;
  *why = QString("only %1 ticks in %2 ms").arg(ticks).arg(runMs);
  return false;
}

// The run must leave the window's thread free. A machine busy with other work (ctest runs two suites at once on two
// cores) can starve it for one run, so a run short of ticks is repeated once; a run on the window's thread gives no
// tick in either.
void runAndCheckResponsiveness(MainWindow& window) {
  QString why;
  if (runCountingTicks(window, &why) || QTest::currentTestFailed()) return;
  qInfo("first run: %s; running again", qPrintable(why));
  const bool second = runCountingTicks(window, &why);
  if (QTest::currentTestFailed()) return;
  QVERIFY2(second, qPrintable(why + " (in two runs)"));
}

}  // namespace

class CrossValidationTest : public QObject {
  Q_OBJECT

 private slots:
  void kfoldRunMarksTheFirstMinimumOfTheMean() {
    const int mstop = 2000, k = 5;  // long enough to judge responsiveness (>= 200 ms) on a fast machine
    auto w = gbtest::makeWindow(5000, 20, mstop, 3, "cv");
    CrossValidationView* cv = w->cvView();
    w->showTab(cv);
    configure(cv, FoldType::KFold, k, 5);
    QCOMPARE(cv->foldType(), FoldType::KFold);

    runAndCheckResponsiveness(*w);
    if (QTest::currentTestFailed()) return;

    // K grey curves of mstop + 1 points, equal to the engine's crossValidate on the same folds.
    QCOMPARE(cv->foldGraphs().size(), k);
    CvRequest request;
    request.data = w->controller()->data();
    request.settings = w->controller()->modelSettings();
    request.compute = w->controller()->computeSettings();
    request.type = FoldType::KFold;
    request.count = k;
    request.seed = 5;
    const gb::ResamplingFolds folds{"kfold", makeFoldWeights(request)};
    const gb::CvResult engine = gb::crossValidate(
        request.data, request.settings, folds, [&] { return gb::makeBackend(request.compute); }, 1);
    std::vector<std::vector<double>> curves;
    for (int b = 0; b < k; ++b) {
      const QCPGraph* g = cv->foldGraphs()[b];
      const QColor c = g->pen().color();
      QVERIFY2(c.red() == c.green() && c.green() == c.blue(), qPrintable(c.name()));  // grey
      curves.push_back(values(g));
      QCOMPARE(int(curves.back().size()), mstop + 1);
      for (int m = 0; m <= mstop; ++m) {
        const double want = engine.risk[b][m];
        QVERIFY2(std::abs(curves[b][m] - want) <= 1e-10 * std::max(1.0, std::abs(want)),
                 qPrintable(QString("fold %1 m %2: plot %3 engine %4").arg(b + 1).arg(m).arg(curves[b][m]).arg(want)));
      }
    }

    // The mean curve is the mean of the grey curves; the marked mstop is its first minimum.
    std::vector<double> mean(mstop + 1, 0.0);
    for (const auto& c : curves)
      for (int m = 0; m <= mstop; ++m) mean[m] += c[m] / k;
    const std::vector<double> drawn = values(cv->meanGraph());
    QCOMPARE(int(drawn.size()), mstop + 1);
    QVERIFY(cv->meanGraph()->pen().color() != cv->foldGraphs()[0]->pen().color());
    for (int m = 0; m <= mstop; ++m) QVERIFY(std::abs(drawn[m] - mean[m]) <= 1e-12 * std::abs(mean[m]));
    const int first = int(std::min_element(mean.begin(), mean.end()) - mean.begin());
    qInfo("first minimum of the mean: mstop %d (engine: %d)", first, engine.mstop);
    QCOMPARE(first, engine.mstop);
    QCOMPARE(cv->chosenMstop(), first);
    QCOMPARE(cv->statusLabel()->text().contains("the risk may still fall"), first == mstop);
    QVERIFY(cv->mstopLine()->visible());
    QCOMPARE(cv->mstopLine()->point1->coords().x(), double(first));
    QCOMPARE(cv->mstopLine()->point2->coords().x(), double(first));
    QVERIFY(cv->mstopText()->visible());
    QVERIFY2(cv->mstopText()->text().contains(QString("mstop = %1").arg(first)), qPrintable(cv->mstopText()->text()));
    QCOMPARE(cv->plot()->xAxis->label(), QString("iterations"));
    QCOMPARE(cv->plot()->yAxis->label(), QString("mean squared error"));

    // "Use this mstop" sets the model panel's mstop (and the settings the next Fit uses).
    QVERIFY(first >= 1);
    const int other = first == 999 ? 998 : 999;
    w->modelPanel()->mstopBox()->setValue(other);
    QCOMPARE(w->modelPanel()->mstopBox()->value(), other);
    QVERIFY(cv->useButton()->isEnabled());
    QTest::mouseClick(cv->useButton(), Qt::LeftButton);
    QCOMPARE(w->modelPanel()->mstopBox()->value(), first);
    QCOMPARE(w->modelPanel()->settings().mstop, first);
    QCOMPARE(w->controller()->modelSettings().mstop, first);

    // It was chosen for this data: other data gets mboost's 100 back, and the log says why (it carried over silently).
    if (first != 100) {
      QStringList log;
      connect(w->messages(), &MessageSink::posted, this,
              [&log](Severity, const QString& text, const QString&) { log << text; });
      QVERIFY(gbtest::openCsvText(*w, "other.csv", "y,a,b\n1,2,3\n2,1,4\n3,5,1\n4,3,3\n5,4,2\n6,2,6\n"));
      QCOMPARE(w->modelPanel()->mstopBox()->value(), 100);
      QVERIFY2(log.join("\n").contains(QString("%1 was chosen by cross-validation for the data before").arg(first)),
               qPrintable(log.join("\n")));
    }
  }

  // Before a run the empty plot names the model's loss, and follows the family picker (it said "mean squared error"
  // under a negbin model until a run redrew it).
  void emptyPlotNamesTheFamilysLoss() {
    auto w = gbtest::makeWindow(40, 5, 20, 4, "cv-label");
    CrossValidationView* cv = w->cvView();
    QCOMPARE(cv->plot()->yAxis->label(), QString("mean squared error"));
    gbtest::chooseFamily(*w, "laplace", 20);
    QCOMPARE(cv->plot()->yAxis->label(), QString("mean absolute error"));
  }

  void badFoldsGoToTheErrorPath() {
    auto w = gbtest::makeWindow(40, 5, 20, 4, "cv-error");
    CrossValidationView* cv = w->cvView();
    configure(cv, FoldType::KFold, 41, 1);  // more folds than rows: some fold leaves no row out
    QSignalSpy finished(cv, &CrossValidationView::finished);
    QTest::mouseClick(cv->runButton(), Qt::LeftButton);
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY2(w->messages()->lastError().contains("2..40"), qPrintable(w->messages()->lastError()));
    // The tab's status line words it as the dialog does: the window's control, not the CLI's option.
    const QString status = cv->statusLabel()->text();
    QVERIFY2(status.startsWith("Failed: Count (k-fold, Cross-validation tab): must be in 2..40"), qPrintable(status));
    QCOMPARE(cv->chosenMstop(), -1);
    QCOMPARE(cv->foldGraphs().size(), 0);
    QVERIFY(!cv->useButton()->isEnabled());
    QVERIFY(cv->runButton()->isEnabled());

    // Huber's adaptive delta cannot be resampled: the message starts with what to do (it was a long sentence about
    // mboost's state with the remedy at its end).
    gb::ModelSettings s = w->modelPanel()->settings();
    s.family = gb::Family::Huber;
    s.huberDelta = 0.0;
    w->modelPanel()->setSettings(s);
    QVERIFY(!cv->start(w->controller()->data(), w->controller()->modelSettings(), w->controller()->computeSettings()));
    QVERIFY2(w->messages()->lastError().contains("Set a fixed Huber delta in the model panel"),
             qPrintable(w->messages()->lastError()));
    QVERIFY(!cv->isRunning());
  }

  // A fold whose steps overshoot (poisson counts of 0 and 80 at nu 0.1) is an error naming the fold and --nu, not
  // curves of NaN with a minimum chosen among them.
  void divergedFoldGoesToTheErrorPath() {
    auto w = gbtest::emptyWindow("cv-diverged");
    QByteArray csv = "y,x\n";
    for (int i = 0; i < 60; ++i) csv += QByteArray(i > 30 ? "80," : "0,") + QByteArray::number(i / 60.0) + "\n";
    QVERIFY(gbtest::openCsvText(*w, "diverges.csv", csv));
    gbtest::chooseFamily(*w, "poisson", 40);
    CrossValidationView* cv = w->cvView();
    configure(cv, FoldType::KFold, 3, 1);
    QSignalSpy finished(cv, &CrossValidationView::finished);
    QTest::mouseClick(cv->runButton(), Qt::LeftButton);
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    const QString error = w->messages()->lastError();
    QVERIFY2(error.contains(QRegularExpression("fold \\d diverged: .* after iteration \\d+ .*lower nu")),
             qPrintable(error));
    QCOMPARE(cv->chosenMstop(), -1);
    QVERIFY(!cv->useButton()->isEnabled());
    QVERIFY(cv->runButton()->isEnabled());
    // The bar says the run failed (it read "100% of the folds' iterations"), and a new family marks the failure as
    // the model before's (its message stayed with no notice).
    const QProgressBar* bar = cv->findChild<QProgressBar*>();
    QVERIFY(bar);
    QCOMPARE(bar->format(), QString("failed"));
    auto staleShown = [cv] {
      for (const QLabel* label : cv->findChildren<QLabel*>())
        if (label->isVisibleTo(cv) && label->text().startsWith("Since this run failed the model changed (family"))
          return true;
      return false;
    };
    QVERIFY(!staleShown());
    gbtest::chooseFamily(*w, "laplace", 40);
    QVERIFY(staleShown());
  }

  // "Use this mstop" beside a fit of the same model that ran another number of iterations fits it again to the
  // chosen mstop: the views, Save model and Predict then use the model cross-validation chose (they kept the old fit
  // while the panel said otherwise).
  void useThisMstopRefitsTheFitOnShow() {
    auto w = gbtest::makeWindow(400, 4, 60, 3, "cv-use-refit");
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(w->controller()->booster()->iteration(), 60);
    w->modelPanel()->mstopBox()->setValue(30);  // the folds run to 30: the choice differs from the fit's 60
    CrossValidationView* cv = w->cvView();
    configure(cv, FoldType::KFold, 3, 2);
    QSignalSpy finished(cv, &CrossValidationView::finished);
    QTest::mouseClick(cv->runButton(), Qt::LeftButton);
    QVERIFY(finished.wait(60000));
    const int chosen = cv->chosenMstop();
    QVERIFY2(chosen >= 1 && chosen <= 30, qPrintable(QString::number(chosen)));
    QStringList log;
    connect(w->messages(), &MessageSink::posted, this,
            [&log](Severity, const QString& text, const QString&) { log << text; });
    QSignalSpy refit(w->controller(), &FitController::jobFinished);
    QTest::mouseClick(cv->useButton(), Qt::LeftButton);
    QVERIFY(w->controller()->isRunning() || refit.count() > 0);
    QVERIFY(refit.count() > 0 || refit.wait(60000));
    QCOMPARE(w->controller()->booster()->iteration(), chosen);
    QCOMPARE(w->controller()->lastSnapshot().iteration, chosen);
    QVERIFY2(log.join('\n').contains(QString("the fit on show ran 60 iterations; fitting again to %1").arg(chosen)),
             qPrintable(log.join('\n')));
  }

  // A first minimum at the last iteration (the risk still falling) is marked too: its line lay on the plot's right
  // edge and its label beyond it, so neither showed.
  void aChoiceAtTheLastIterationIsMarked() {
    const int mstop = 8;
    auto w = gbtest::makeWindow(400, 4, mstop, 3, "cv-last");
    CrossValidationView* cv = w->cvView();
    w->showTab(cv);
    configure(cv, FoldType::KFold, 3, 2);
    QSignalSpy finished(cv, &CrossValidationView::finished);
    QTest::mouseClick(cv->runButton(), Qt::LeftButton);
    QVERIFY(finished.wait(60000));
    QCOMPARE(cv->chosenMstop(), mstop);  // nu 0.1 on the paper's data: 8 iterations are far from enough
    QVERIFY(cv->mstopLine()->visible() && cv->mstopText()->visible());
    const QCPRange x = cv->plot()->xAxis->range();
    QVERIFY2(x.lower < 0.0 && x.upper > mstop, qPrintable(QString("%1..%2").arg(x.lower).arg(x.upper)));
    QVERIFY(cv->mstopText()->positionAlignment() & Qt::AlignRight);  // the label left of its line, inside
  }

  void foldsFileRunsTheFilesFolds() {
    const int rows = 300, mstop = 60;
    auto w = gbtest::makeWindow(rows, 6, mstop, 7, "cv-file");
    CrossValidationView* cv = w->cvView();
    // Three folds as R's cv() would write them: k-fold weights 0/1, written here as a CSV.
    const gb::ResamplingFolds made = gb::kfoldFolds(rows, 3, 11, {});
    QByteArray csv = "a,b,c\n";
    for (int i = 0; i < rows; ++i)
      csv += QByteArray::number(made.weights[0][i]) + ',' + QByteArray::number(made.weights[1][i]) + ',' +
             QByteArray::number(made.weights[2][i]) + '\n';
    const QString path = gbtest::scratchPath("folds.csv");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(csv) == csv.size());
    f.close();
    cv->setFoldType(FoldType::FoldsFile);
    QVERIFY(!cv->countBox()->isEnabled() && cv->foldsFileEdit()->isEnabled() && !cv->probBox()->isEnabled());
    cv->countBox()->setValue(9);  // ignored: the file has three columns
    // No file chosen yet: refused before any work.
    QTest::mouseClick(cv->runButton(), Qt::LeftButton);
    QVERIFY(!cv->isRunning());
    QVERIFY2(w->messages()->lastError().contains("folds file"), qPrintable(w->messages()->lastError()));
    cv->foldsFileEdit()->setText(path);
    QSignalSpy finished(cv, &CrossValidationView::finished);
    QTest::mouseClick(cv->runButton(), Qt::LeftButton);
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    QCOMPARE(cv->foldGraphs().size(), 3);
    const gb::ResamplingFolds folds = gb::foldsFromTable(gb::readCsv(path.toStdString()), rows);
    const gb::CvResult engine = gb::crossValidate(
        w->controller()->data(), w->controller()->modelSettings(), folds,
        [&] { return gb::makeBackend(w->controller()->computeSettings()); }, 1);
    for (int b = 0; b < 3; ++b) {
      const std::vector<double> drawn = values(cv->foldGraphs()[b]);
      QCOMPARE(int(drawn.size()), mstop + 1);
      for (int m = 0; m <= mstop; ++m)
        QVERIFY(std::abs(drawn[m] - engine.risk[b][m]) <= 1e-10 * std::max(1.0, std::abs(engine.risk[b][m])));
    }
    QCOMPARE(cv->chosenMstop(), engine.mstop);
    QVERIFY2(cv->statusLabel()->text().startsWith("3 folds-file folds"), qPrintable(cv->statusLabel()->text()));
    // A minimum at the grid's last iteration says that the risk may still fall (as `gamboost cv` does).
    QCOMPARE(cv->statusLabel()->text().contains("the risk may still fall"), engine.mstop == mstop);

    // A bad weight: the error names the file, line and column (line 3 = data row 2, column 2 = fold 'b').
    csv.replace(csv.indexOf('\n', csv.indexOf('\n') + 1) + 1 + 2, 1, "-1");
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(csv) == csv.size());
    f.close();
    finished.clear();
    QTest::mouseClick(cv->runButton(), Qt::LeftButton);
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY2(w->messages()->lastError().contains("folds.csv:3:2"), qPrintable(w->messages()->lastError()));
    QCOMPARE(cv->foldGraphs().size(), 0);
    QCOMPARE(cv->chosenMstop(), -1);
    // The empty plot does not keep the last run's risk range (the curves above lie well above 1).
    QVERIFY(engine.risk[0][0] > 1.5);
    QCOMPARE(cv->plot()->yAxis->range().upper, 1.0);
  }

  // A fold whose in-bag rows are all of one class (binomial) cannot be fitted: it is left out with no curve, as the
  // engine's crossValidate leaves it out (mboost's cvrisk drops it), and the log says which and why.
  void aFoldOfOneClassIsLeftOut() {
    auto w = gbtest::emptyWindow("cv-one-class");
    const int rows = 80, mstop = 30;
    QVERIFY(gbtest::openCsvText(*w, "events.csv", gbtest::rareEventsCsv(rows, 3, 5)));
    gbtest::chooseFamily(*w, "binomial", mstop);
    gb::ResamplingFolds made = gb::kfoldFolds(rows, 4, 11, {});
    for (auto& f : made.weights) f[0] = f[1] = f[2] = 1.0;               // the three events in bag everywhere ...
    made.weights[3][0] = made.weights[3][1] = made.weights[3][2] = 0.0;  // ... but in the last fold
    QByteArray csv = "a,b,c,d\n";
    for (int i = 0; i < rows; ++i)
      for (int b = 0; b < 4; ++b) csv += QByteArray::number(made.weights[b][i]) + (b < 3 ? ',' : '\n');
    const QString path = gbtest::scratchPath("one-class-folds.csv");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(csv) == csv.size());
    f.close();
    QStringList warnings;
    connect(w->messages(), &MessageSink::posted, this, [&warnings](Severity s, const QString& text, const QString&) {
      if (s == Severity::Warning) warnings << text;
    });
    CrossValidationView* cv = w->cvView();
    cv->setFoldType(FoldType::FoldsFile);
    cv->foldsFileEdit()->setText(path);
    const gb::CvResult engine = gb::crossValidate(
        w->controller()->data(), w->controller()->modelSettings(), made,
        [] { return std::make_unique<gb::CpuBackend>(1); }, 1);
    QCOMPARE(engine.dropped, std::vector<int>{4});
    // On the CPU (one fold after another), and on OpenCL where the folds advance together: the last fold, left out
    // before the batch ran, never reaches the batch's end (the run was taken as cancelled, with no mstop).
    gb::ComputeSettings opencl;
    opencl.backend = gb::BackendKind::OpenCl;
    opencl.precision = gb::Precision::Double;
    const bool device = gb::listComputeDevices().devices.size() >= 2;
    for (const gb::ComputeSettings& compute : {w->controller()->computeSettings(), opencl}) {
      if (compute.backend == gb::BackendKind::OpenCl && !device) continue;
      warnings.clear();
      QSignalSpy finished(cv, &CrossValidationView::finished);
      QVERIFY(cv->start(w->controller()->data(), w->controller()->modelSettings(), compute));
      QVERIFY(finished.wait(60000));
      QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(w->messages()->lastError()));
      QCOMPARE(cv->foldGraphs().size(), 3);
      for (int b = 0; b < 3; ++b) {
        const std::vector<double> drawn = values(cv->foldGraphs()[b]);
        QCOMPARE(int(drawn.size()), mstop + 1);
        for (int m = 0; m <= mstop; ++m)
          QVERIFY(std::abs(drawn[m] - engine.risk[b][m]) <= 1e-10 * std::abs(engine.risk[b][m]));
      }
      QCOMPARE(cv->chosenMstop(), engine.mstop);
      QVERIFY2(!cv->statusLabel()->text().contains("ancel"), qPrintable(cv->statusLabel()->text()));
      QVERIFY2(warnings.filter("fold 4: its rows of positive weight are all of one class ('no')").size() == 1,
               qPrintable(warnings.join("\n")));
    }
  }

  // On OpenCL the folds of a spline model advance together (one batch): the same curves as the CPU's crossValidate,
  // fold by fold (double: sums in other orders, 1e-10 relative).
  void openClFoldsAdvanceTogether() {
    if (gb::listComputeDevices().devices.size() < 2) QSKIP("no OpenCL device");
    const int mstop = 40, k = 4;
    auto w = gbtest::makeWindow(600, 6, mstop, 3, "cv-opencl");
    CrossValidationView* cv = w->cvView();
    configure(cv, FoldType::KFold, k, 2);
    gb::ComputeSettings c;
    c.backend = gb::BackendKind::OpenCl;
    c.precision = gb::Precision::Double;
    QSignalSpy finished(cv, &CrossValidationView::finished);
    QVERIFY(cv->start(w->controller()->data(), w->controller()->modelSettings(), c));
    QVERIFY(finished.wait(120000));
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    QCOMPARE(cv->foldGraphs().size(), k);
    const gb::ResamplingFolds folds = gb::kfoldFolds(600, k, 2, {});
    const gb::CvResult cpu = gb::crossValidate(
        w->controller()->data(), w->controller()->modelSettings(), folds,
        [] { return std::make_unique<gb::CpuBackend>(1); }, 1);
    for (int b = 0; b < k; ++b) {
      const std::vector<double> drawn = values(cv->foldGraphs()[b]);
      QCOMPARE(int(drawn.size()), mstop + 1);
      for (int m = 0; m <= mstop; ++m)
        QVERIFY(std::abs(drawn[m] - cpu.risk[b][m]) <= 1e-10 * std::max(1.0, std::abs(cpu.risk[b][m])));
    }
    QCOMPARE(cv->chosenMstop(), cpu.mstop);

    // Cancel acts within the batch (its chunks of iterations take about 50 ms each, where 50 iterations took 2-7 s
    // on PoCL), and says how far the folds run together got (it said "0 of 25 folds" under a bar at 8 / 25).
    QSignalSpy progressed(cv->findChild<QProgressBar*>(), &QProgressBar::valueChanged);
    w->modelPanel()->mstopBox()->setValue(3000);
    QVERIFY(cv->start(w->controller()->data(), w->controller()->modelSettings(), c));
    QTRY_VERIFY_WITH_TIMEOUT(progressed.size() >= 2, 60000);
    // The folds' curves so far are drawn as they grow (nothing was drawn until the whole batch ended).
    QTRY_VERIFY_WITH_TIMEOUT(cv->plot()->graphCount() == 1 + k, 10000);
    QCOMPARE(cv->foldGraphs().size(), 0);
    QVERIFY(cv->plot()->graph(1)->dataCount() >= 2);
    QElapsedTimer clock;
    clock.start();
    cv->cancel();
    QVERIFY(finished.wait(20000));
    qInfo("OpenCL cancel: %lld ms", clock.elapsed());
    QVERIFY2(clock.elapsed() <= 1000, qPrintable(QString("cancel took %1 ms").arg(clock.elapsed())));
    QVERIFY2(cv->statusLabel()->text().contains(QRegularExpression("Cancelled at iteration \\d+ of 3000 of folds 1-4")),
             qPrintable(cv->statusLabel()->text()));
    // The bar agrees with the status: whole folds complete, not the batch's share of its iterations.
    const QProgressBar* bar = cv->findChild<QProgressBar*>();
    QCOMPARE(bar->maximum(), k);
    QCOMPARE(bar->value(), 0);
    QCOMPARE(bar->text(), QString("0 / %1 folds").arg(k));
  }

  void subsampleUsesTheProbControl() {
    auto w = gbtest::makeWindow(200, 4, 20, 3, "cv-prob");
    CrossValidationView* cv = w->cvView();
    configure(cv, FoldType::Subsample, 2, 4);
    QVERIFY(cv->probBox()->isEnabled() && !cv->foldsFileEdit()->isEnabled());
    cv->probBox()->setValue(0.3);
    QSignalSpy finished(cv, &CrossValidationView::finished);
    QTest::mouseClick(cv->runButton(), Qt::LeftButton);
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    const gb::ResamplingFolds folds = gb::subsampleFolds(200, 2, 0.3, 4, {});
    const gb::CvResult engine = gb::crossValidate(
        w->controller()->data(), w->controller()->modelSettings(), folds,
        [&] { return gb::makeBackend(w->controller()->computeSettings()); }, 1);
    QCOMPARE(cv->foldGraphs().size(), 2);
    for (int b = 0; b < 2; ++b) QCOMPARE(values(cv->foldGraphs()[b]).back(), engine.risk[b].back());
  }

  // R's women (15 rows, write.csv with row names) at the window's defaults: 24 basis columns for 15 rows, as mboost
  // fits it. The fit and mboost's default 25 bootstrap folds run, with no error (both were refused before).
  void fewerRowsThanBasisColumns() {
    auto w = gbtest::emptyWindow("cv-women");
    QByteArray csv = "\"\",\"height\",\"weight\"\n";
    const int weights[] = {115, 117, 120, 123, 126, 129, 132, 135, 139, 142, 146, 150, 154, 159, 164};
    for (int i = 0; i < 15; ++i)
      csv += "\"" + QByteArray::number(i + 1) + "\"," + QByteArray::number(58 + i) + "," +
             QByteArray::number(weights[i]) + "\n";
    QVERIFY(gbtest::openCsvText(*w, "women.csv", csv));
    gbtest::chooseFamily(*w, "gaussian", 50);
    QVERIFY(gbtest::fitAndWait(*w));
    QVERIFY2(w->messages()->lastError().isEmpty(), qPrintable(w->messages()->lastError()));
    QCOMPARE(w->controller()->state(), FitState::Finished);
    const std::vector<double>& risk = w->controller()->booster()->path().risk;
    QVERIFY2(risk.back() < 0.01 * risk.front(), qPrintable(QString("%1 -> %2").arg(risk.front()).arg(risk.back())));

    CrossValidationView* cv = w->cvView();
    w->showTab(cv);
    configure(cv, FoldType::Bootstrap, 25, 1);
    QSignalSpy finished(cv, &CrossValidationView::finished);
    QTest::mouseClick(cv->runButton(), Qt::LeftButton);
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    QVERIFY2(w->messages()->lastError().isEmpty(), qPrintable(w->messages()->lastError()));
    QCOMPARE(cv->foldGraphs().size(), 25);
    QVERIFY(cv->chosenMstop() >= 0);
  }

  // A minimum at the grid's last iteration may not be the minimum: the status says so, and only then.
  void aMinimumAtTheGridsEndSaysTheRiskMayStillFall() {
    auto w = gbtest::emptyWindow("cv-grid-end");
    QByteArray csv = "y,x\n";
    std::uint32_t state = 12345;  // a small LCG: noisy sin(x) on 80 rows, which nu 1 overfits early
    auto uniform = [&] { return ((state = state * 1664525u + 1013904223u) >> 8) / double(1u << 24); };
    for (int i = 0; i < 80; ++i) {
      const double x = uniform() * 6.0;
      csv += QByteArray::number(std::sin(x) + 2.0 * (uniform() - 0.5), 'g', 17) + "," + QByteArray::number(x, 'g', 17) +
             "\n";
    }
    QVERIFY(gbtest::openCsvText(*w, "noisy.csv", csv));
    gb::ModelSettings s = w->modelPanel()->settings();
    s.nu = 1.0;
    s.mstop = 200;
    w->modelPanel()->setSettings(s);
    CrossValidationView* cv = w->cvView();
    w->showTab(cv);
    configure(cv, FoldType::KFold, 5, 1);
    QSignalSpy finished(cv, &CrossValidationView::finished);
    QTest::mouseClick(cv->runButton(), Qt::LeftButton);
    QVERIFY(finished.wait(60000));
    const int inside = cv->chosenMstop();
    qInfo("chosen mstop %d of %d: %s", inside, s.mstop, qPrintable(cv->statusLabel()->text()));
    QVERIFY(inside >= 2 && inside < s.mstop);
    QVERIFY(!cv->statusLabel()->text().contains("the risk may still fall"));
    s.mstop = inside / 2;  // the risk still falls at the grid's end
    w->modelPanel()->setSettings(s);
    finished.clear();
    QTest::mouseClick(cv->runButton(), Qt::LeftButton);
    QVERIFY(finished.wait(60000));
    QCOMPARE(cv->chosenMstop(), s.mstop);
    QVERIFY2(cv->statusLabel()->text().contains("the risk may still fall"), qPrintable(cv->statusLabel()->text()));
  }

  // A finished run belongs to the data and settings it was made with. The tab said nothing when nu changed after
  // it, and "Use this mstop" wrote nu 0.3's mstop into a nu 0.1 model; new data could be opened while folds ran,
  // whose mstop was then offered for the new data. Now: data actions wait for the run; a changed setting marks the
  // run stale, naming it, and turns "Use this mstop" off until the settings match again.
  void aRunOfAnotherModelIsMarkedStale() {
    auto w = gbtest::makeWindow(2000, 5, 150, 3, "cv-stale");
    CrossValidationView* cv = w->cvView();
    w->showTab(cv);
    configure(cv, FoldType::KFold, 3, 2);
    QSignalSpy finished(cv, &CrossValidationView::finished);
    QTest::mouseClick(cv->runButton(), Qt::LeftButton);
    QVERIFY(cv->isRunning());
    QVERIFY(!w->generateAction()->isEnabled());  // no new data under a running cross-validation
    QVERIFY(finished.wait(60000));
    QVERIFY(w->generateAction()->isEnabled());
    QVERIFY(cv->chosenMstop() >= 1);
    QVERIFY2(cv->statusLabel()->text().contains("nu 0.1"), qPrintable(cv->statusLabel()->text()));
    QVERIFY(cv->useButton()->isEnabled());
    gb::ModelSettings s = w->modelPanel()->settings();
    const double nu = s.nu;
    s.nu = 0.3;
    w->modelPanel()->setSettings(s);
    QVERIFY(!cv->useButton()->isEnabled());
    bool named = false;
    for (const QLabel* label : cv->findChildren<QLabel*>())
      named = named || (label->isVisibleTo(cv) && label->text().contains("model changed (nu)"));
    QVERIFY(named);
    s.nu = nu;
    w->modelPanel()->setSettings(s);
    QVERIFY(cv->useButton()->isEnabled());
    for (const QLabel* label : cv->findChildren<QLabel*>())
      QVERIFY2(!(label->isVisibleTo(cv) && label->text().contains("model changed")), qPrintable(label->text()));
  }

  void cancelStopsBetweenFolds() {
    auto w = gbtest::makeWindow(5000, 20, 1000, 5, "cv-cancel");
    CrossValidationView* cv = w->cvView();
    w->showTab(cv);
    configure(cv, FoldType::Bootstrap, 25, 2);
    QSignalSpy finished(cv, &CrossValidationView::finished);
    QTest::mouseClick(cv->runButton(), Qt::LeftButton);
    QVERIFY(cv->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(cv->foldGraphs().size() >= 1, 60000);
    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(cv->cancelButton(), Qt::LeftButton);
    // Said at once, before the folds stop: on a large model a step can take seconds.
    QVERIFY2(cv->statusLabel()->text().startsWith("Cancelling"), qPrintable(cv->statusLabel()->text()));
    QVERIFY(!cv->cancelButton()->isEnabled());
    QVERIFY(finished.wait(10000));
    const qint64 ms = clock.elapsed();
    qInfo("cancel: %lld ms from the click to the run's end", ms);
    // The bound: the fold's Booster checks for a cancel between its batches of about 80 ms.
    QVERIFY2(ms <= 200, qPrintable(QString("cancel took %1 ms (bound 200 ms)").arg(ms)));
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    QVERIFY2(cv->foldGraphs().size() < 25, qPrintable(QString::number(cv->foldGraphs().size())));
    QCOMPARE(cv->chosenMstop(), -1);
    QVERIFY(!cv->mstopLine()->visible());
    QVERIFY(!cv->useButton()->isEnabled());
    QVERIFY2(cv->statusLabel()->text().contains("Cancelled"), qPrintable(cv->statusLabel()->text()));
  }
};

QTEST_MAIN(CrossValidationTest)
#include "test_cross_validation.moc"

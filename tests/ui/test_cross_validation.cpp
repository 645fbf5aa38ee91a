// The Cross-validation tab: a k-fold run from the window fits off the window's thread (a timer keeps firing), draws
// one grey curve per fold equal to the engine's crossValidate on the same folds, their mean, and marks the first
// minimum of the mean; "Use this mstop" sets the model panel's mstop; errors reach the error path; Cancel stops.
#include <QComboBox>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>
#include <algorithm>

#include "compute/Backend.hpp"
#include "compute/CrossValidation.hpp"
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
// the folds are fitted.
void runAndCheckResponsiveness(MainWindow& window) {
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
  QVERIFY2(cv->isRunning(), qPrintable(w->messages()->lastError()));  // returned before the folds were fitted
  QVERIFY2(clickMs < 1000, qPrintable(QString("the click took %1 ms").arg(clickMs)));
  QVERIFY(finished.wait(120000));
  const qint64 runMs = clock.elapsed();
  ticker.stop();
  QCOMPARE(finished.at(0).at(0).toBool(), true);
  QVERIFY2(w->messages()->lastError().isEmpty(), qPrintable(w->messages()->lastError()));
  qInfo("cv: %lld ms, %d timer ticks during the run", runMs, ticks);
  // A run on the window's thread would give no tick at all; a quarter of the ideal count allows for a busy machine.
  QVERIFY2(runMs >= 200, qPrintable(QString("the run took only %1 ms: too short to judge").arg(runMs)));
  QVERIFY2(ticks >= std::max<qint64>(5, runMs / 40),
           qPrintable(QString("only %1 ticks in %2 ms").arg(ticks).arg(runMs)));
}

}  // namespace

class CrossValidationTest : public QObject {
  Q_OBJECT

 private slots:
  void kfoldRunMarksTheFirstMinimumOfTheMean() {
    const int mstop = 500, k = 5;
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
    QCOMPARE(cv->chosenMstop(), -1);
    QCOMPARE(cv->foldGraphs().size(), 0);
    QVERIFY(!cv->useButton()->isEnabled());
    QVERIFY(cv->runButton()->isEnabled());
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
    QTest::mouseClick(cv->cancelButton(), Qt::LeftButton);
    QVERIFY(finished.wait(10000));
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

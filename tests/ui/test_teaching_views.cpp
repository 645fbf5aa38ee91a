// The Model summary tab (the fit summary as a panel, and mboost's varimp) and the "What the learner fits" tab
// (the negative gradient against the next winner's covariate, with the winner's fit to it).
#include <QLabel>
#include <QTableWidget>
#include <QtTest>
#include <random>

#include "data/DataPanel.hpp"
#include "model/ModelPanel.hpp"
#include "model/ModelSummary.hpp"
#include "plots/EdfExplorer.hpp"
#include "plots/KernelChart.hpp"
#include "plots/LearnerFitView.hpp"
#include "plots/ModelSummaryView.hpp"
#include "plots/PartialEffectsView.hpp"
#include "plots/PlotWidget.hpp"
#include "plots/RiskPlot.hpp"
#include "plots/StaleNote.hpp"
#include "support/StudioFixture.hpp"

using namespace gbui;

namespace {

QString cell(QTableWidget* t, int r, int c) { return t->item(r, c) ? t->item(r, c)->text() : QString(); }

}  // namespace

class TeachingViewsTest : public QObject {
  Q_OBJECT

 private slots:
  void summaryShowsTheModelAndItsVarimp() {
    auto w = gbtest::makeWindow(800, 8, 120, 3, "summary");
    ModelSummaryView* v = w->summaryView();
    QCOMPARE(v->importanceTable()->rowCount(), 0);
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(v);
    QStringList labels;
    for (int r = 0; r < v->summaryTable()->rowCount(); ++r) labels << cell(v->summaryTable(), r, 0);
    for (const char* l : {"rows", "family", "learners", "lambda", "risk", "selected", "compute"})
      QVERIFY2(labels.contains(l), l);
    QVERIFY(cell(v->summaryTable(), labels.indexOf("rows"), 1).startsWith("800"));
    // The varimp table: every learner, in the engine's order (largest risk reduction first), shares adding to 100%.
    const gb::Model model = modelOfSnapshot(w->controller()->lastSnapshot());
    const std::vector<gb::LearnerImportance> expected = gb::variableImportance(model);
    QCOMPARE(v->importanceTable()->rowCount(), static_cast<int>(expected.size()));
    double total = 0.0, previous = 101.0;
    for (int r = 0; r < v->importanceTable()->rowCount(); ++r) {
      QCOMPARE(cell(v->importanceTable(), r, 0), QString::fromStdString(expected[static_cast<std::size_t>(r)].name));
      const double share = cell(v->importanceTable(), r, 1).remove(" %").toDouble();
      QVERIFY(share <= previous + 1e-9);
      previous = share;
      total += share;
      QCOMPARE(cell(v->importanceTable(), r, 3).toInt(), expected[static_cast<std::size_t>(r)].selected);
    }
    QVERIFY2(std::abs(total - 100.0) < 0.05 * v->importanceTable()->rowCount(), qPrintable(QString::number(total)));
    int counted = 0;
    for (int c : model.pathLearner) counted += c >= 0 ? 1 : 0;
    QCOMPARE(counted, 120);
  }

  // The Model summary and the edf / lambda explorer describe the fit on show: while the settings differ from it they
  // say so (the status bar did, these views did not), and the note goes when the settings are set back.
  void fitViewsSayTheModelChanged() {
    auto w = gbtest::makeWindow(300, 3, 20, 3, "stale-views");
    QVERIFY(gbtest::fitAndWait(*w));
    ModelSummaryView* summary = w->summaryView();
    EdfExplorer* edf = w->edfExplorer();
    w->showTab(summary);
    w->showTab(edf);
    QVERIFY(summary->staleNote()->isHidden() && edf->staleNote()->isHidden());
    QVERIFY(w->fitStaleNote()->isHidden());  // the edf tab on show carries its own line
    gb::ModelSettings settings = w->modelPanel()->settings();
    const double nu = settings.nu;
    settings.nu = 0.37;
    w->modelPanel()->setSettings(settings);
    QVERIFY(!summary->staleNote()->isHidden());
    QVERIFY(!edf->staleNote()->isHidden());
    QVERIFY(w->fitStaleNote()->isHidden());  // not twice
    // The other views of the fit share the line over the tabs; the kernel timings show no fit.
    for (QWidget* page : std::initializer_list<QWidget*>{w->effectsView(), w->learnerFitView(), w->riskPlot()}) {
      w->showTab(page);
      QVERIFY(!w->fitStaleNote()->isHidden());
    }
    w->showTab(w->kernelChart());
    QVERIFY(w->fitStaleNote()->isHidden());
    w->showTab(w->effectsView());
    settings.nu = nu;
    w->modelPanel()->setSettings(settings);
    QVERIFY(summary->staleNote()->isHidden() && edf->staleNote()->isHidden());
    QVERIFY(w->fitStaleNote()->isHidden());
  }

  // At 1024 x 700 every summary line is on show without scrolling (the splitter gave the first table only six).
  void summaryShowsEveryLineAt1024() {
    auto w = gbtest::makeWindow(400, 6, 30, 3, "summary1024");
    QVERIFY(gbtest::fitAndWait(*w));
    w->resize(1024, 700);
    w->showTab(w->summaryView());
    QTest::qWait(100);
    QTableWidget* t = w->summaryView()->summaryTable();
    QVERIFY(t->rowCount() >= 7);
    int rows = 0;
    for (int r = 0; r < t->rowCount(); ++r) rows += t->rowHeight(r);
    QVERIFY2(t->viewport()->height() >= rows,
             qPrintable(QString("viewport %1 < rows %2").arg(t->viewport()->height()).arg(rows)));
  }

  // The view's winner is the learner the next Step selects; its fit is drawn over the covariate's range.
  void learnerFitShowsTheNextWinner() {
    auto w = gbtest::makeWindow(600, 6, 50, 5, "learnerfit");
    LearnerFitView* v = w->learnerFitView();
    QCOMPARE(v->learner(), -1);
    for (int step = 0; step < 3; ++step) {
      QVERIFY(gbtest::stepAndWait(*w));
      w->showTab(v);
      const int predicted = v->learner();
      QVERIFY(predicted >= 0);
      QVERIFY(v->pointsShown() > 0 && v->pointsShown() <= 600);
      QVERIFY(!v->fitX().empty() && v->fitX().size() == v->fitY().size());
      const auto& setup = *w->controller()->lastSnapshot().setup;
      QCOMPARE(v->plot()->xAxis->label(),
               QString::fromStdString(setup.learners[static_cast<std::size_t>(predicted)].name));
      QVERIFY(v->caption()->text().contains(
          QString::fromStdString(setup.learners[static_cast<std::size_t>(predicted)].name)));
      QVERIFY(gbtest::stepAndWait(*w));
      QCOMPARE(w->controller()->lastSnapshot().pathLearner.back(), predicted);
    }
  }

  // A factor winner is drawn over its levels (named ticks, a point per level, not a line joining the codes), and
  // the caption names the family's gradient (it said "for gaussian the residuals y - f" for every family).
  void learnerFitDrawsAFactorOverItsLevels() {
    auto w = gbtest::emptyWindow("learnerfit-factor");
    std::mt19937_64 rng(21);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const char* levels[] = {"low", "middle", "high"};
    QByteArray csv = "y,x,g\n";
    for (int i = 0; i < 300; ++i) {
      const int level = i % 3;
      std::poisson_distribution<int> count(std::exp(0.5 + 0.9 * level));
      csv += QByteArray::number(count(rng)) + "," + QByteArray::number(u(rng), 'g', 10) + "," + levels[level] + "\n";
    }
    QVERIFY(gbtest::openCsvText(*w, "factor-winner.csv", csv));
    gbtest::chooseFamily(*w, "poisson", 20);
    QVERIFY(gbtest::stepAndWait(*w));
    LearnerFitView* v = w->learnerFitView();
    w->showTab(v);
    const auto& setup = *w->controller()->lastSnapshot().setup;
    QVERIFY(v->learner() >= 0);
    const gb::Learner& winner = setup.learners[static_cast<std::size_t>(v->learner())];
    QCOMPARE(QString::fromStdString(winner.name), QStringLiteral("g"));
    const auto ticker = v->plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY2(ticker, "the factor's axis names its levels");
    QStringList named;
    for (const QString& name : ticker->ticks()) named << name;
    QCOMPARE(named, (QStringList{"high", "low", "middle"}));  // byte order, as the reader codes them
    QCOMPARE(v->plot()->xAxis->range().lower, -0.5);
    QCOMPARE(v->plot()->xAxis->range().upper, 2.5);
    for (int g = 1; g < 3; ++g) QCOMPARE(v->plot()->graph(g)->lineStyle(), QCPGraph::lsNone);
    QCOMPARE(v->plot()->xAxis->grid()->zeroLinePen().style(), Qt::NoPen);  // no line through the first level
    QVERIFY2(v->caption()->text().contains("poisson") && !v->caption()->text().contains("gaussian"),
             qPrintable(v->caption()->text()));
    // A spline winner afterwards gets a number axis and lines again.
    v->clear();
    QVERIFY(!v->plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>());
  }

  void newDataEmptiesBothViews() {
    auto w = gbtest::makeWindow(400, 4, 30, 7, "teachclear");
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->summaryView());
    w->showTab(w->learnerFitView());
    QVERIFY(w->summaryView()->importanceTable()->rowCount() > 0);
    QVERIFY(w->learnerFitView()->learner() >= 0);
    gb::PaperDataSpec spec = w->dataPanel()->generatorSpec();
    spec.seed = 8;
    w->dataPanel()->setGeneratorSpec(spec);
    QVERIFY(w->dataPanel()->generateNow());
    QCOMPARE(w->summaryView()->importanceTable()->rowCount(), 0);
    QCOMPARE(w->learnerFitView()->learner(), -1);
  }
};

QTEST_MAIN(TeachingViewsTest)
#include "test_teaching_views.moc"

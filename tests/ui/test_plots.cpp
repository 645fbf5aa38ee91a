// The plots as users of mboost, mgcv and EBM expect them: a rug that stays readable at 1e6 rows, knots as ticks on
// the axis (no lines across the plot), every learner in a grid whose shape never changes during a fit (selected
// learners first), the covariate's name on every x axis, a close button on the enlarged plot, and selection
// proportions sorted with one readable name per bar.
#include <QAbstractButton>
#include <QFontMetrics>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>
#include <random>

#include "common/QtConvert.hpp"
#include "compute/Booster.hpp"
#include "data/DataPanel.hpp"
#include "model/ModelPanel.hpp"
#include "plots/EffectPlot.hpp"
#include "plots/LevelTicker.hpp"
#include "plots/PartialEffectsView.hpp"
#include "plots/PlotWidget.hpp"
#include "plots/SelectionPlot.hpp"
#include "support/StudioFixture.hpp"

using namespace gbui;

namespace {

struct GridShape {
  int rows, columns, plots, firstPlotHeight;
  bool operator==(const GridShape& o) const {
    return rows == o.rows && columns == o.columns && plots == o.plots && firstPlotHeight == o.firstPlotHeight;
  }
};

GridShape shapeOf(const PartialEffectsView& view) {
  const QList<int> order = view.gridOrder();
  const int height = order.isEmpty() ? 0 : view.plotFor(order.front())->height();
  return {view.gridRows(), view.gridColumns(), static_cast<int>(order.size()), height};
}

// The share of the rug strip's pixel columns (bottom 5% of the axis rect) darker than `grey` (0 black .. 255 white).
double rugShareDarkerThan(EffectPlot& plot, int grey) {
  const QImage image = plot.toPixmap(400, 260).toImage();
  const QRect r = plot.axisRect()->rect();
  const int y = r.bottom() - r.height() / 40;  // the middle of the ticks
  int solid = 0, columns = 0;
  for (int x = r.left() + 2; x < r.right() - 2; ++x, ++columns) solid += qGray(image.pixel(x, y)) < grey;
  return double(solid) / columns;
}

// After a Step exactly one learner is selected; later, however many: selected ones first in the grid, in learner
// order, drawn as fitted; the rest flat, grey and titled "(not selected)"; the widgets sit in that order.
bool checkOrder(const PartialEffectsView& view, const std::vector<int>& counts) {
  QList<int> selected, unselected;
  for (int j = 0; j < int(counts.size()); ++j) (counts[j] > 0 ? selected : unselected) << j;
  bool ok = view.shownLearners() == selected && view.gridOrder() == selected + unselected;
  for (int j : unselected) {
    EffectPlot* plot = view.plotFor(j);
    ok &= !plot->selectedYet() && plot->titleMuted() && plot->title().contains("not selected");
    ok &= plot->effectGraph()->data()->size() > 50;
    for (auto it = plot->effectGraph()->data()->constBegin(); it != plot->effectGraph()->data()->constEnd(); ++it)
      ok &= it->value == 0.0;
  }
  for (int j : selected) ok &= view.plotFor(j)->selectedYet() && !view.plotFor(j)->titleMuted();
  const QList<int> order = view.gridOrder();
  const int columns = view.gridColumns();
  for (int i = 1; i < order.size(); ++i) {
    const QPoint a = view.plotFor(order[i - 1])->pos(), b = view.plotFor(order[i])->pos();
    ok &= i % columns == 0 ? b.y() > a.y() : (b.y() == a.y() && b.x() > a.x());
  }
  if (!ok) qWarning("grid order or marks differ from the selection (%lld selected)", (long long)selected.size());
  return ok;
}

}  // namespace

class PlotsTest : public QObject {
  Q_OBJECT

 private slots:
  // A log axis over less than a decade or two labels every tick apart (the kernel chart's solve times read
  // "10^-5" at two ticks: 1e-5 and 1.5e-5 both printed with no digits after the point).
  void logTickLabelsAreDistinct() {
    QCustomPlot plot;
    plot.resize(400, 500);
    setLogAxis(plot.yAxis, true);
    for (const auto& [lo, hi] : {std::pair{1.5e-6, 1.3e-5}, std::pair{2e-6, 2.5e-5}, std::pair{3e-3, 7e-1},
                                 std::pair{1e-7, 1e-2}, std::pair{900.0, 4000.0}}) {
      plot.yAxis->setRange(lo, hi);
      plot.replot();
      const QVector<QString> labels = plot.yAxis->tickVectorLabels();
      const QVector<double> ticks = plot.yAxis->tickVector();
      QVERIFY2(labels.size() >= 2, qPrintable(QString("%1..%2: %3 labels").arg(lo).arg(hi).arg(labels.size())));
      // Powers as "1e-05" (drawn 10^-5), others with the digits they need ("1.25e-05"), never more than 2.
      const QRegularExpression form("^[1-9](\\.[0-9]{1,2})?e[+-][0-9]+$");
      for (const QString& label : labels) QVERIFY2(form.match(label).hasMatch(), qPrintable(label));
      for (int a = 0; a < labels.size(); ++a)
        for (int b = a + 1; b < labels.size(); ++b)
          QVERIFY2(labels[a] != labels[b] || ticks[a] == ticks[b],
                   qPrintable(QString("%1..%2: %3 and %4 both read '%5'")
                                  .arg(lo)
                                  .arg(hi)
                                  .arg(ticks[a])
                                  .arg(ticks[b])
                                  .arg(labels[a])));
    }
  }

  // 1e6 rows: the rug draws at most kRugTicks translucent ticks, and the strip they make is not a solid band.
  void rugStaysReadableAtAMillionRows() {
    std::mt19937_64 rng(3);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<double> x(1000000);
    for (double& v : x) v = normal(rng);
    EffectPlot plot(true);
    plot.xAxis->setRange(-4, 4);
    plot.setRug(x);
    QCOMPARE(plot.rugGraph()->data()->size(), int(EffectPlot::kRugTicks));
    QCOMPARE(plot.rugGraph()->lineStyle(), QCPGraph::lsImpulse);
    QVERIFY(!plot.rugGraph()->adaptiveSampling());
    const int alpha = plot.rugGraph()->pen().color().alpha();
    QVERIFY2(alpha <= 60, qPrintable(QString::number(alpha)));
    const double solid = rugShareDarkerThan(plot, 128), visible = rugShareDarkerThan(plot, 240);
    qInfo("rug at 1e6 normal rows: %.0f%% of the strip looks solid, %.0f%% shows a tick; tick alpha %d", 100 * solid,
          100 * visible, alpha);
    QVERIFY2(solid < 0.15, qPrintable(QString::number(solid)));  // opaque ticks (alpha 120) made 27% solid
    QVERIFY2(visible > 0.3, qPrintable(QString::number(visible)));

    // A handful of rows: every one drawn, each tick dark.
    plot.setRug({-1.0, 0.0, 0.5, 2.0});
    QCOMPARE(plot.rugGraph()->data()->size(), 4);
    QVERIFY(plot.rugGraph()->pen().color().alpha() >= 150);
  }

  // Knots are ticks on the top axis: no graph draws a line from the bottom to the top of the plot.
  void knotsAreTicksNotLines() {
    auto w = gbtest::makeWindow(2000, 6, 60, 5, "plots-knots");
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->effectsView());
    const FitSetup& setup = *w->controller()->setup();
    PartialEffectsView* view = w->effectsView();
    QCOMPARE(view->gridOrder().size(), int(setup.learners.size()));
    for (int j : view->gridOrder()) {
      EffectPlot* plot = view->plotFor(j);
      const std::vector<double> knots = setup.learners[j].basis.interiorKnots();
      QVERIFY(!knots.empty());
      QCOMPARE(plot->knotTicks(), QVector<double>(knots.begin(), knots.end()));
      QVERIFY(plot->xAxis2->visible() && !plot->xAxis2->tickLabels() && !plot->xAxis2->grid()->visible());
      QVERIFY(plot->xAxis->grid()->zeroLinePen().style() != Qt::NoPen);  // x = 0 is a value here
      QCOMPARE(plot->xAxis2->range(), plot->xAxis->range());
      for (int g = 0; g < plot->graphCount(); ++g) {
        QCPGraph* graph = plot->graph(g);
        if (graph->lineStyle() != QCPGraph::lsImpulse) continue;
        QCOMPARE(graph, plot->rugGraph());  // the only impulses: the rug's short ticks
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) QVERIFY(it->value < 0.1);
      }
    }
  }

  // Every learner has a plot from the first snapshot; rows x columns and the plots' size never change during the
  // fit; the selected learners come first, the others are flat, grey and say so.
  void everyLearnerInAStableGrid() {
    // mstop 20000: long enough for several snapshots (10-11 in about 0.5 s on the 2-core machine); 3000 gave only 3
    // once a cached iteration of the CPU backend stopped touching the rows.
    auto w = gbtest::makeWindow(20000, 30, 20000, 7, "plots-grid");
    w->controller()->setRefreshIntervalMs(5);
    PartialEffectsView* view = w->effectsView();
    QVERIFY(gbtest::stepAndWait(*w));
    w->showTab(view);  // (Step shows the learner race)
    QTRY_VERIFY(view->plotFor(view->gridOrder().back())->pos() != QPoint(0, 0));
    QList<GridShape> shapes{shapeOf(*view)};
    QCOMPARE(view->shownLearners().size(), 1);
    QVERIFY(checkOrder(*view, w->controller()->booster()->selectionCounts()));
    connect(w->controller(), &FitController::snapshotReady, view, [&] {
      QCoreApplication::processEvents();  // let the layout settle as a user would see it
      shapes.append(shapeOf(*view));
    });
    QVERIFY(gbtest::fitAndWait(*w, 60000));
    QCoreApplication::processEvents();
    shapes.append(shapeOf(*view));
    QVERIFY2(shapes.size() >= 4, qPrintable(QString::number(shapes.size())));
    qInfo("%lld snapshots; grid %d x %d, plot height %d px", static_cast<long long>(shapes.size()), shapes.front().rows,
          shapes.front().columns, shapes.front().firstPlotHeight);
    QCOMPARE(shapes.front().plots, 30);
    QCOMPARE(shapes.front().columns, 4);
    QCOMPARE(shapes.front().rows, 8);
    QVERIFY(shapes.front().firstPlotHeight >= 150);
    for (const GridShape& s : shapes) QVERIFY(s == shapes.front());
    QTRY_VERIFY(checkOrder(*view, w->controller()->booster()->selectionCounts()));

    // Plots out of view are drawn when scrolled to, not on every update.
    const int stale = view->stalePlots();
    QVERIFY2(stale > 0, "the 8 rows should not all be in view");
    QScrollArea* scroll = view->findChild<QScrollArea*>();
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    QTRY_VERIFY(view->stalePlots() < stale);
    QVERIFY(!view->plotFor(view->gridOrder().back())->visibleRegion().isEmpty());
  }

  // The x axis names the covariate, in the grid and in the enlarged plot; the enlarged plot closes with its button.
  void axisNamesAndCloseControl() {
    auto w = gbtest::makeWindow(2000, 5, 80, 2, "plots-axes");
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->effectsView());
    const FitSetup& setup = *w->controller()->setup();
    PartialEffectsView* view = w->effectsView();
    for (int j : view->gridOrder())
      QCOMPARE(view->plotFor(j)->xAxis->label(), QString::fromStdString(setup.learners[j].name));
    const int j = view->shownLearners().back();
    QTest::mouseClick(view->plotFor(j), Qt::LeftButton, {}, view->plotFor(j)->rect().center());
    QVERIFY(view->detailOpen());
    QVERIFY(view->detailPlot()->isVisible());
    QCOMPARE(view->detailPlot()->xAxis->label(), QString::fromStdString(setup.learners[j].name));
    QCOMPARE(w->currentPlot(), static_cast<PlotWidget*>(view->detailPlot()));
    QVERIFY(view->closeDetailButton()->isVisible());
    QTest::mouseClick(view->closeDetailButton(), Qt::LeftButton);
    QVERIFY(!view->detailOpen());
    QVERIFY(!view->detailPlot()->isVisible());
    QVERIFY(w->currentPlot() != static_cast<PlotWidget*>(view->detailPlot()));
  }

  // A factor of 60 levels: its plots name only every m-th level, m the smallest stride at which no two names
  // overlap on the axis (all 60 were drawn on top of each other before), in the grid and in the enlarged plot; every
  // name drawn is its level's.
  void manyLevelsNamedAtAStride() {
    const int levels = 60, n = 1200;
    auto d = std::make_shared<gb::Dataset>();
    d->source = "districts";
    d->names = {"y", "district"};
    d->columns.assign(2, std::vector<double>(n));
    d->kinds = {gb::ColumnKind::Numeric, gb::ColumnKind::Text};
    d->levels.assign(2, {});
    for (int l = 0; l < levels; ++l) d->levels[1].push_back("district " + std::to_string(100 + l));
    for (int i = 0; i < n; ++i) {
      d->columns[1][i] = i % levels;
      d->columns[0][i] = std::sin(0.3 * (i % levels)) + 0.01 * (i % 7);
    }
    auto w = gbtest::emptyWindow("plots-levels");
    w->dataPanel()->useDataset(d);
    QCOMPARE(w->dataPanel()->roles().factors, QStringList{"district"});
    w->modelPanel()->mstopBox()->setValue(20);
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->effectsView());
    PartialEffectsView* view = w->effectsView();
    const int j = view->shownLearners().value(0, -1);
    QVERIFY2(j >= 0, "the factor was never selected");
    // "" when the names drawn are right, else what is wrong.
    auto checkNames = [&](EffectPlot* plot) -> QString {
      plot->replot();
      const QVector<double> ticks = plot->xAxis->tickVector();
      const QVector<QString> labels = plot->xAxis->tickVectorLabels();
      const QFontMetrics metrics(plot->xAxis->tickLabelFont());
      int widest = 0;
      for (const std::string& name : d->levels[1]) widest = std::max(widest, metrics.horizontalAdvance(qs(name)));
      const double perLevel = plot->xAxis->coordToPixel(1.0) - plot->xAxis->coordToPixel(0.0);
      if (ticks.size() < 2 || ticks.size() >= levels) return QString("%1 names").arg(ticks.size());
      const double stride = ticks[1] - ticks[0];
      if ((stride - 1) * perLevel >= widest + LevelTicker::kLabelGapPixels)
        return QString("stride %1 at %2 px a level: one less would fit names of %3 px")
            .arg(stride)
            .arg(perLevel)
            .arg(widest);
      for (int t = 0; t < ticks.size(); ++t) {
        if (labels[t] != qs(d->levels[1][static_cast<std::size_t>(ticks[t])]))
          return QString("tick %1 named %2").arg(ticks[t]).arg(labels[t]);
        if (t > 0 && (ticks[t] - ticks[t - 1]) * perLevel < widest)
          return QString("names %1 px apart").arg(stride * perLevel);
      }
      return QString();
    };
    QCOMPARE(view->plotFor(j)->xAxis->grid()->zeroLinePen().style(), Qt::NoPen);  // level 0 is no zero
    QVERIFY(view->plotFor(j)->yAxis->grid()->zeroLinePen().style() != Qt::NoPen);
    const QString inGrid = checkNames(view->plotFor(j));
    QVERIFY2(inGrid.isEmpty(), qPrintable(inGrid));
    view->enlarge(j);
    QTest::qWait(50);
    const QString enlarged = checkNames(view->detailPlot());
    QVERIFY2(enlarged.isEmpty(), qPrintable(enlarged));
  }

  // Levels R's read.csv keeps apart ("" and " A" beside "A") are quoted on the axis, so that they show apart.
  void blankLevelsQuoted() {
    const int n = 400;
    auto d = std::make_shared<gb::Dataset>();
    d->source = "blanks";
    d->names = {"y", "g"};
    d->columns.assign(2, std::vector<double>(n));
    d->kinds = {gb::ColumnKind::Numeric, gb::ColumnKind::Text};
    d->levels = {{}, {"", " A", "A", "B"}};
    for (int i = 0; i < n; ++i) {
      d->columns[1][i] = i % 4;
      d->columns[0][i] = (i % 4) * 0.5 + 0.01 * (i % 7);
    }
    auto w = gbtest::emptyWindow("plots-blank-levels");
    w->dataPanel()->useDataset(d);
    w->modelPanel()->mstopBox()->setValue(10);
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->effectsView());
    const int j = w->effectsView()->shownLearners().value(0, -1);
    QVERIFY2(j >= 0, "the factor was never selected");
    EffectPlot* plot = w->effectsView()->plotFor(j);
    plot->replot();
    QCOMPARE(plot->xAxis->tickVectorLabels(), (QVector<QString>{"\"\"", "\" A\"", "A", "B"}));
  }

  // Selection: count / mstop per selected learner, largest first, keys 0..n-1 with that learner's name; the risk
  // reduction likewise sorted; no outline or zero line drawn over the bars.
  void selectionProportionsSorted() {
    const int mstop = 200;
    auto w = gbtest::makeWindow(2000, 12, mstop, 4, "plots-selection");
    QVERIFY(gbtest::fitAndWait(*w));
    auto booster = w->controller()->booster();
    const std::vector<int> counts = booster->selectionCounts();
    const FitSetup& setup = *w->controller()->setup();
    auto index = [&](const QString& name) {
      for (std::size_t j = 0; j < setup.learners.size(); ++j)
        if (QString::fromStdString(setup.learners[j].name) == name) return int(j);
      return -1;
    };
    w->showTab(w->selectionPlot());
    SelectionPlot* sel = w->selectionPlot();
    QCoreApplication::processEvents();
    sel->countsPlot()->replot();
    const QStringList names = sel->countNames();
    QCOMPARE(names.size(), int(std::count_if(counts.begin(), counts.end(), [](int c) { return c > 0; })));
    auto ticks = sel->countBars()->keyAxis()->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticks);
    QCOMPARE(sel->countBars()->keyAxis(), sel->countsPlot()->yAxis);  // horizontal bars, names one per line
    double previous = 2.0, sum = 0.0;
    int i = 0;
    for (auto it = sel->countBars()->data()->constBegin(); it != sel->countBars()->data()->constEnd(); ++it, ++i) {
      QCOMPARE(it->key, double(i));
      QCOMPARE(ticks->ticks().value(it->key), names[i]);
      const int j = index(names[i]);
      QVERIFY(j >= 0);
      QCOMPARE(it->value, double(counts[j]) / mstop);
      QVERIFY(it->value <= previous);
      previous = it->value;
      sum += it->value;
    }
    QVERIFY(std::abs(sum - 1.0) < 1e-12);
    QCOMPARE(sel->countBars()->pen().style(), Qt::NoPen);
    QCOMPARE(sel->countsPlot()->xAxis->grid()->zeroLinePen().style(), Qt::NoPen);
    QVERIFY(!sel->countsPlot()->yAxis->grid()->visible());  // no grid line through the bars
    // Readable: the plot gives every name at least a line of its own.
    const QCPRange keys = sel->countsPlot()->yAxis->range();
    QVERIFY(sel->countsPlot()->axisRect()->height() / keys.size() >= 12);

    const std::vector<double> reductions = booster->riskReductions();
    const QStringList rnames = sel->reductionNames();
    previous = 1e300;
    i = 0;
    for (auto it = sel->reductionBars()->data()->constBegin(); it != sel->reductionBars()->data()->constEnd();
         ++it, ++i) {
      QCOMPARE(it->value, reductions[index(rnames[i])]);
      QVERIFY(it->value <= previous);
      previous = it->value;
    }
  }
};

QTEST_MAIN(PlotsTest)
#include "test_plots.moc"

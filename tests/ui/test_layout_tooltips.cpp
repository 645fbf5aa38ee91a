// The window at 1024 x 700: no visible widgets of the panels overlap (scroll areas take what does not fit),
// and every control has a tooltip.
#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QScrollArea>
#include <QSlider>
#include <QtTest>

#include "data/DataPanel.hpp"
#include "model/ModelPanel.hpp"
#include "plots/EdfExplorer.hpp"
#include "plots/KernelChart.hpp"
#include "plots/LearnerRaceView.hpp"
#include "plots/RiskPlot.hpp"
#include "support/StudioFixture.hpp"

using namespace gbui;

namespace {

QString describe(const QWidget* w) {
  return QString("%1 '%2' %3,%4 %5x%6")
      .arg(w->metaObject()->className(), w->objectName().isEmpty() ? w->accessibleName() : w->objectName())
      .arg(w->geometry().x())
      .arg(w->geometry().y())
      .arg(w->geometry().width())
      .arg(w->geometry().height());
}

// Pairs of visible sibling widgets whose rectangles intersect, anywhere below `root`.
QStringList overlaps(QWidget* root) {
  QStringList out;
  QList<QWidget*> parents{root};
  parents += root->findChildren<QWidget*>();
  for (QWidget* parent : parents) {
    if (!parent->isVisible()) continue;
    QList<QWidget*> kids;
    for (QObject* o : parent->children())
      if (auto* w = qobject_cast<QWidget*>(o); w && w->isVisible() && !w->isWindow()) kids << w;
    for (int i = 0; i < kids.size(); ++i)
      for (int j = i + 1; j < kids.size(); ++j)
        if (kids[i]->geometry().intersects(kids[j]->geometry()))
          out << describe(kids[i]) + " overlaps " + describe(kids[j]) + " in " + describe(parent);
  }
  return out;
}

bool isControl(QWidget* w) {
  return qobject_cast<QAbstractButton*>(w) || qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w) ||
         qobject_cast<QSlider*>(w);
}

}  // namespace

class LayoutTooltipsTest : public QObject {
  Q_OBJECT

 private slots:
  void noOverlapsAt1024x700() {
    auto w = gbtest::makeWindow(1000, 12, 20, 1, "layout");
    QVERIFY(gbtest::fitAndWait(*w));
    w->resize(1024, 700);
    QTest::qWait(100);
    QCOMPARE(w->size(), QSize(1024, 700));
    // Every panel, on each of its tabs.
    QList<QWidget*> panels{w->leftPanel(), w->riskPlot(), w->raceView(), w->edfExplorer(), w->kernelChart()};
    for (QWidget* page : panels) {
      if (page != w->leftPanel()) w->showTab(page);
      for (QTabWidget* tabs : w->leftPanel()->findChildren<QTabWidget*>())
        for (int t = 0; t < tabs->count(); ++t) {
          tabs->setCurrentIndex(t);
          QTest::qWait(30);
          const QStringList bad = overlaps(page == w->leftPanel() ? w->leftPanel() : page);
          QVERIFY2(bad.isEmpty(), qPrintable(bad.join("\n")));
        }
    }
    // The panels scroll rather than squeeze: their content keeps at least its minimum size.
    for (QScrollArea* area : w->leftPanel()->findChildren<QScrollArea*>()) {
      QWidget* content = area->widget();
      QVERIFY(content->height() >= content->minimumSizeHint().height());
    }
  }

  void everyControlHasATooltip() {
    auto w = gbtest::makeWindow(500, 6, 10, 1, "tooltips");
    QVERIFY(gbtest::fitAndWait(*w));  // the role combos and plot views exist now
    QStringList missing;
    int checked = 0;
    for (QWidget* c : w->findChildren<QWidget*>()) {
      if (!isControl(c)) continue;
      ++checked;
      if (c->toolTip().trimmed().isEmpty()) missing << describe(c) + " in " + describe(c->parentWidget());
    }
    qInfo("%d controls checked", checked);
    QVERIFY(checked > 40);
    QVERIFY2(missing.isEmpty(), qPrintable(missing.join("\n")));
  }
};

QTEST_MAIN(LayoutTooltipsTest)
#include "test_layout_tooltips.moc"

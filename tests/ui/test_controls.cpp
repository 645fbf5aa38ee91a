// Controls that must not move or change by themselves: the Fit/Pause/Step/Cancel row keeps its place whatever
// the status says; the mouse wheel over a spin box or combo box of the left panels changes nothing unless that
// control has the focus.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QtTest>

#include "compute/ComputeDevices.hpp"
#include "data/DataPanel.hpp"
#include "model/ModelPanel.hpp"
#include "support/StudioFixture.hpp"
#include "window/ElidedLabel.hpp"

using namespace gbui;

namespace {

QPoint placeOf(const MainWindow& w, const QWidget* button) { return button->mapTo(&w, QPoint(0, 0)); }

// One notch of the wheel, up, over the middle of `target`.
void wheel(QWidget* target) {
  const QPointF at(target->width() / 2.0, target->height() / 2.0);
  QWheelEvent event(at, target->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                    Qt::NoScrollPhase, false);
  QApplication::sendEvent(target, &event);
}

}  // namespace

class ControlsTest : public QObject {
  Q_OBJECT

 private slots:
  void theControlRowStaysPutWhateverTheStatusSays() {
    MainWindow w(gbtest::testOptions("row"));
    w.resize(1280, 820);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QPoint fit = placeOf(w, w.fitButton());
    const QPoint cancel = placeOf(w, w.cancelButton());
    const int statusHeight = w.fitStatus()->height();
    QStringList seen;
    auto check = [&] {
      QCoreApplication::processEvents();
      seen << w.fitStatus()->fullText();
      QCOMPARE(placeOf(w, w.fitButton()), fit);
      QCOMPARE(placeOf(w, w.cancelButton()), cancel);
      QCOMPARE(w.fitStatus()->height(), statusHeight);
    };
    check();  // no data: a short status
    gb::PaperDataSpec spec;
    spec.rows = 1000;
    spec.covariates = 6;
    spec.informative = 6;
    w.dataPanel()->setGeneratorSpec(spec);
    QVERIFY(w.dataPanel()->generateNow());
    check();
    QVERIFY(gbtest::fitAndWait(w));
    check();  // finished: the longest status (response, rows, device, kernel, timings)
    gb::ModelSettings s = w.modelPanel()->settings();
    s.edf = 1.5;  // refused at set-up: a failure's message
    w.modelPanel()->setSettings(s);
    QVERIFY(gbtest::fitAndWait(w));
    check();
    // The statuses were of very different lengths, the long ones longer than the label: elided, whole in the tooltip.
    QVERIFY(seen.last().size() > 2 * seen.first().size());
    QCOMPARE(w.fitStatus()->toolTip(), seen.last());
    QVERIFY(w.fitStatus()->text().size() < seen.last().size());
    QVERIFY(w.fitStatus()->text().endsWith(QChar(0x2026)));  // "..."
    // Wrapped over all its lines before the ellipsis, from the status's first word on.
    const QString shown = w.fitStatus()->text();
    QCOMPARE(shown.count(QLatin1Char('\n')), w.fitStatus()->lines() - 1);
    QVERIFY2(seen.last().startsWith(shown.section(QLatin1Char('\n'), 0, 0)), qPrintable(shown));
  }

  void theWheelChangesOnlyTheFocusedControl() {
    auto w = gbtest::makeWindow(300, 3, 10, 1, "wheel");
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QDoubleSpinBox* edf = nullptr;
    for (QDoubleSpinBox* box : w->modelPanel()->findChildren<QDoubleSpinBox*>())
      if (box->toolTip().startsWith("Target effective degrees")) edf = box;
    QVERIFY(edf);
    QSpinBox* mstop = w->modelPanel()->mstopBox();
    QComboBox* family = w->modelPanel()->familyBox();
    QSpinBox* rows = nullptr;
    for (QSpinBox* box : w->dataPanel()->findChildren<QSpinBox*>())
      if (box->value() == 300) rows = box;
    QVERIFY(rows);
    // A real wheel (a spontaneous event, unlike the ones sent below) gives a wheel-focus control the focus before
    // any filter sees it, so no guarded control may keep that policy, those built before the guard included.
    for (QWidget* control : w->findChildren<QWidget*>())
      if (qobject_cast<QAbstractSpinBox*>(control) || qobject_cast<QComboBox*>(control))
        if (w->modelPanel()->isAncestorOf(control) || w->dataPanel()->isAncestorOf(control))
          QVERIFY2(control->focusPolicy() != Qt::WheelFocus, qPrintable(control->toolTip()));
    w->fitButton()->setFocus();
    const double edfBefore = edf->value();
    const int mstopBefore = mstop->value();
    const int familyBefore = family->currentIndex();
    const int rowsBefore = rows->value();
    for (QWidget* target : {static_cast<QWidget*>(edf), static_cast<QWidget*>(mstop), static_cast<QWidget*>(family),
                            static_cast<QWidget*>(rows)})
      wheel(target);
    QCOMPARE(edf->value(), edfBefore);
    QCOMPARE(mstop->value(), mstopBefore);
    QCOMPARE(family->currentIndex(), familyBefore);
    QCOMPARE(rows->value(), rowsBefore);
    // With the focus, the wheel works as usual (the guard is not a lock).
    w->activateWindow();
    mstop->setFocus();
    QTRY_VERIFY(mstop->hasFocus());
    wheel(mstop);
    QCOMPARE(mstop->value(), mstopBefore + 1);
  }

  void precisionOffersWhatTheDeviceComputes() {
    ModelPanel panel;
    gb::ComputeDeviceList devices;
    gb::ComputeDeviceInfo host;
    host.backend = "cpu";
    host.name = "CPU";
    host.type = "host";
    devices.devices.push_back(host);
    gb::ComputeDeviceInfo withDouble, floatOnly;
    withDouble.backend = floatOnly.backend = "opencl";
    withDouble.name = "with fp64";
    withDouble.fp64 = true;
    floatOnly.name = "float only";
    floatOnly.fp64 = false;
    devices.devices.push_back(withDouble);
    devices.devices.push_back(floatOnly);
    panel.setDevices(devices);
    auto precisions = [&] {
      QStringList out;
      for (int i = 0; i < panel.precisionBox()->count(); ++i) out << panel.precisionBox()->itemData(i).toString();
      return out;
    };
    gb::ComputeSettings c;
    QCOMPARE(precisions(), QStringList({"", "double"}));  // the CPU backend: double only, never float
    c.backend = gb::BackendKind::OpenCl;
    c.device = "with fp64";
    c.precision = gb::Precision::Double;
    panel.setCompute(c);
    QCOMPARE(precisions(), QStringList({"", "double", "float"}));
    QVERIFY(panel.compute().precision == gb::Precision::Double);
    // A device without cl_khr_fp64: double (which the engine would refuse) is not offered.
    c.device = "float only";
    c.precision = gb::Precision::Float;
    panel.setCompute(c);
    QCOMPARE(precisions(), QStringList({"", "float"}));
    QCOMPARE(panel.compute().device, std::string("float only"));
  }
};

QTEST_MAIN(ControlsTest)
#include "test_controls.moc"

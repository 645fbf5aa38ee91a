// Export (PNG, SVG, PDF, CSV), the model as the engine's JSON, session files, and QSettings across restarts.
#include <QtTest>

#include "compute/Booster.hpp"
#include "data/DataPanel.hpp"
#include "model/Model.hpp"
#include "model/ModelPanel.hpp"
#include "plots/PlotExport.hpp"
#include "plots/PlotWidget.hpp"
#include "plots/RiskPlot.hpp"
#include "support/StudioFixture.hpp"
#include "window/SessionFile.hpp"

using namespace gbui;

namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class PersistenceTest : public QObject {
  Q_OBJECT

 private slots:
  void exportsEveryFormat() {
    auto w = gbtest::makeWindow(1000, 8, 40, 1, "export");
    QVERIFY(gbtest::fitAndWait(*w));
    w->showTab(w->riskPlot());
    QTest::qWait(50);
    PlotWidget& plot = *w->riskPlot()->plot();
    const QString base = gbtest::scratchPath("risk");
    for (const char* suffix : {".png", ".svg", ".pdf", ".csv"}) QFile::remove(base + suffix);
    for (const char* suffix : {".png", ".svg", ".pdf", ".csv"}) exportPlot(plot, base + suffix);
    QVERIFY(readAll(base + ".png").startsWith("\x89PNG"));
    QVERIFY(readAll(base + ".svg").contains("<svg"));
    QVERIFY(readAll(base + ".pdf").startsWith("%PDF"));
    // CSV: header + the risk curve's 41 points + the current-iteration marker.
    const QList<QByteArray> lines = readAll(base + ".csv").trimmed().split('\n');
    QCOMPARE(lines.front(), QByteArray("series,x,y"));
    QCOMPARE(lines.size(), 1 + 41 + 1);
    const QList<QByteArray> last = lines[41].split(',');  // risk at iteration 40
    QCOMPARE(last[1].toDouble(), 40.0);
    QCOMPARE(last[2].toDouble(), w->controller()->booster()->path().risk[40]);  // 17 digits: exact round trip
    // The menu route reports a bad format as a message, not an exception.
    QVERIFY(!w->exportCurrentPlot(base + ".bmp"));
    QVERIFY(w->messages()->lastError().contains("unknown export format"));
  }

  void modelAndSessionRoundTrip() {
    auto w = gbtest::makeWindow(1500, 10, 30, 4, "session");
    auto roles = w->dataPanel()->roles();
    roles.learners.removeAll("x2");
    roles.ignored << "x2";
    w->dataPanel()->setRoles(roles);
    QVERIFY(gbtest::fitAndWait(*w));
    const QString sessionPath = gbtest::scratchPath("roundtrip.gbs.json");
    QVERIFY2(w->saveSession(sessionPath), qPrintable(w->messages()->lastError()));
    const Session saved = loadSession(sessionPath);
    QVERIFY(!saved.modelPath.isEmpty());
    const gb::Model model = gb::Model::load(saved.modelPath.toStdString());
    auto booster = w->controller()->booster();
    QCOMPARE(model.learners.size(), booster->learners().size());
    QCOMPARE(model.pathRisk, booster->path().risk);
    QCOMPARE(int(model.learners.size()), 9);  // x2 ignored

    auto w2 = std::make_unique<MainWindow>(gbtest::testOptions("session2"));
    QVERIFY(w2->openSession(sessionPath));
    QCOMPARE(w2->dataPanel()->source().kind, DataSourceSpec::Kind::Paper);
    QCOMPARE(w2->dataPanel()->generatorSpec().rows, std::size_t(1500));
    QCOMPARE(w2->dataPanel()->generatorSpec().seed, std::uint64_t(4));
    QVERIFY(w2->dataPanel()->roles() == roles);
    QCOMPARE(w2->modelPanel()->settings().mstop, 30);
    // Same data, roles and settings: refitting gives the saved model's path exactly.
    QVERIFY(gbtest::fitAndWait(*w2));
    QCOMPARE(w2->controller()->booster()->path().risk, model.pathRisk);
  }

  void settingsSurviveARestart() {
    const QString name = "restart";
    QFile::remove(gbtest::scratchPath(name + ".ini"));
    StudioOptions o = gbtest::testOptions(name);
    o.restoreSettings = true;
    {
      MainWindow w(o);
      w.show();
      gb::ModelSettings s = gb::ModelSettings::paperPreset();
      s.mstop = 321;
      w.modelPanel()->setSettings(s);
      gb::PaperDataSpec spec;
      spec.rows = 777;
      w.dataPanel()->setGeneratorSpec(spec);
      w.resize(1100, 750);
      QVERIFY(w.close());
    }
    MainWindow w(o);
    QCOMPARE(w.modelPanel()->settings().mstop, 321);
    QVERIFY(w.modelPanel()->settings().spline.boundary == gb::Boundary::Clamped);
    QCOMPARE(w.dataPanel()->generatorSpec().rows, std::size_t(777));
    QCOMPARE(w.size(), QSize(1100, 750));
  }
};

QTEST_MAIN(PersistenceTest)
#include "test_persistence.moc"

// The truth of generated data: reading "<csv>.truth.json" (good, missing, malformed, unknown effect) and the
// centred true curve against independent computations.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <numbers>

#include "common/Error.hpp"
#include "data/PaperData.hpp"
#include "data/TrueEffects.hpp"
#include "support/TestSupport.hpp"

namespace {

void writeText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// Expects parseTrueEffects to throw an InputError that starts with the path and mentions `field`.
void expectMalformed(const std::string& text, const char* field) {
  try {
    gb::parseTrueEffects(text, "d.csv.truth.json");
    QFAIL(qPrintable(QString("no error for ") + QString::fromStdString(text)));
  } catch (const gb::InputError& e) {
    const QString what = e.what();
    QVERIFY2(what.startsWith("d.csv.truth.json: "), e.what());
    QVERIFY2(what.contains(field), e.what());
  }
}

}  // namespace

class TestTrueEffects : public QObject {
  Q_OBJECT
  QTemporaryDir dir_{QString::fromStdString(gbtest::scratchRoot() + "/true-effects-XXXXXX")};

  std::string csv(const char* name) const { return dir_.filePath(name).toStdString(); }

 private slots:
  // The generator's own truth file reads back as what it generated.
  void readsTheGeneratorsFile() {
    gb::PaperDataSpec spec;
    spec.rows = 10;
    spec.covariates = 12;
    spec.informative = 4;
    spec.intercept = 3.5;
    const gb::PaperData data = gb::generatePaperData(spec);
    const std::string path = csv("good.csv");
    writeText(gb::truthPathFor(path), gb::truthJson(data));
    const std::optional<gb::TrueEffects> t = gb::readTrueEffects(path);
    QVERIFY(t.has_value());
    QCOMPARE(t->informative, data.informative);
    QCOMPARE(t->effect, std::string("10*sin(2*pi*x)"));
    QCOMPARE(t->intercept, 3.5);
    QCOMPARE(t->source, gb::truthPathFor(path));
    QVERIFY(t->effectKnown());
    QVERIFY(t->isInformative(data.informative.front()));
    // The in-memory truth says the same.
    const gb::TrueEffects mem = gb::trueEffectsOf(data);
    QCOMPARE(mem.informative, data.informative);
    QVERIFY(mem.effectKnown());
  }

  void missingFileMeansNoTruth() { QVERIFY(!gb::readTrueEffects(csv("absent.csv")).has_value()); }

  void malformedFileNamesFileAndField() {
    expectMalformed("{\"effect\": \"10*sin(2*pi*x)\", \"intercept\": 7}", "\"informative\" is missing");
    expectMalformed("{\"informative\": \"x1\", \"effect\": \"10*sin(2*pi*x)\", \"intercept\": 7}", "\"informative\"");
    expectMalformed("{\"informative\": [\"x1\", 2], \"effect\": \"10*sin(2*pi*x)\", \"intercept\": 7}",
                    "\"informative\"");
    expectMalformed("{\"informative\": [\"x1\"], \"intercept\": 7}", "\"effect\" is missing");
    expectMalformed("{\"informative\": [\"x1\"], \"effect\": 3, \"intercept\": 7}", "\"effect\"");
    expectMalformed("{\"informative\": [\"x1\"], \"effect\": \"10*sin(2*pi*x)\"}", "\"intercept\" is missing");
    expectMalformed("{\"informative\": [\"x1\"], \"effect\": \"10*sin(2*pi*x)\", \"intercept\": \"7\"}",
                    "\"intercept\"");
    expectMalformed("[1, 2]", "JSON object");
    expectMalformed("{\"informative\": [", "not valid JSON");
    // Through the file reader: the message names the truth file's path.
    const std::string path = csv("bad.csv");
    writeText(gb::truthPathFor(path), "{\"informative\": [\"x1\"]}");
    try {
      gb::readTrueEffects(path);
      QFAIL("no error for a truth file without effect");
    } catch (const gb::InputError& e) {
      QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(gb::truthPathFor(path)) + ": "), e.what());
      QVERIFY2(QString(e.what()).contains("\"effect\""), e.what());
    }
  }

  // A formula other than the generator's is kept, reported unknown, and never evaluated.
  void unknownEffectIsNotGuessed() {
    const gb::TrueEffects t =
        gb::parseTrueEffects("{\"informative\": [\"x1\"], \"effect\": \"5*cos(x)\", \"intercept\": 0}", "u.json");
    QCOMPARE(t.effect, std::string("5*cos(x)"));
    QVERIFY(!t.effectKnown());
    QVERIFY_THROWS_EXCEPTION(gb::InputError, t.value("x1", 0.3));
    QVERIFY_THROWS_EXCEPTION(gb::InputError, gb::centredTrueEffect(t, "x1", {0.1}, {0.1, 0.2}));
  }

  // Against long-double sums and sinl, and against two cases whose mean is known in closed form.
  void centredCurveMatchesIndependentComputation() {
    gb::TrueEffects t;
    t.informative = {"x2"};
    t.effect = gb::kPaperEffectFormula;
    std::vector<double> used;
    for (int i = 0; i < 997; ++i) used.push_back(std::fmod(0.6180339887 * i * i, 1.0));
    std::vector<double> grid;
    for (int k = 0; k <= 40; ++k) grid.push_back(k / 40.0);
    long double sum = 0;
    for (double x : used) sum += 10.0L * sinl(2.0L * std::numbers::pi_v<long double> * x);
    const long double mean = sum / used.size();
    QVERIFY(std::abs(static_cast<double>(mean)) > 1e-3);  // a case where centring matters
    const std::vector<double> c = gb::centredTrueEffect(t, "x2", grid, used);
    QCOMPARE(c.size(), grid.size());
    for (std::size_t k = 0; k < grid.size(); ++k) {
      const long double want = 10.0L * sinl(2.0L * std::numbers::pi_v<long double> * grid[k]) - mean;
      QVERIFY2(std::abs(c[k] - static_cast<double>(want)) < 1e-12, qPrintable(QString::number(k)));
    }
    // Uninformative: zero everywhere.
    for (double v : gb::centredTrueEffect(t, "x1", grid, used)) QCOMPARE(v, 0.0);
    // A whole period sampled evenly has mean 0: the centred curve is the effect itself.
    std::vector<double> period;
    for (int i = 0; i < 1000; ++i) period.push_back(i / 1000.0);
    const std::vector<double> p = gb::centredTrueEffect(t, "x2", {0.25, 0.75}, period);
    QVERIFY(std::abs(p[0] - 10.0) < 1e-12 && std::abs(p[1] + 10.0) < 1e-12);
    // All rows at the peak: the mean is 10, so the curve is 0 at the peak and -20 at the trough.
    const std::vector<double> q = gb::centredTrueEffect(t, "x2", {0.25, 0.75}, std::vector<double>(50, 0.25));
    QVERIFY(std::abs(q[0]) < 1e-12 && std::abs(q[1] + 20.0) < 1e-12);
    // Weights: all weight on the peak rows gives the same as above.
    const std::vector<double> w =
        gb::centredTrueEffect(t, "x2", {0.25}, {0.25, 0.75, 0.75}, std::vector<double>{1.0, 0.0, 0.0});
    QVERIFY(std::abs(w[0]) < 1e-12);
  }
};

QTEST_APPLESS_MAIN(TestTrueEffects)
#include "test_true_effects.moc"

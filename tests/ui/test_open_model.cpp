// Open model shows a saved model.json or result.json as the finished fit it was, without fitting (no Booster is
// built, no job runs): the effects equal the saved fit's to 1e-12, the risk path and the selections exactly.
// A session reopens with its model the same way. Predict writes a CSV of predictions and reports the rows outside
// the training range. Wrong data or no data give a message naming what is missing.
#include <QFile>
#include <QSignalSpy>
#include <QSlider>
#include <QtTest>
#include <fstream>

#include "compute/Booster.hpp"
#include "data/CsvReader.hpp"
#include "data/CsvWriter.hpp"
#include "data/DataPanel.hpp"
#include "data/PaperData.hpp"
#include "fit/FitJob.hpp"
#include "model/Model.hpp"
#include "model/ModelPanel.hpp"
#include "plots/EffectPlot.hpp"
#include "plots/PartialEffectsView.hpp"
#include "plots/RiskPlot.hpp"
#include "plots/SelectionPlot.hpp"
#include "support/StudioFixture.hpp"
#include "window/ElidedLabel.hpp"
#include "window/ReplayBar.hpp"
#include "window/SessionFile.hpp"

using namespace gbui;

namespace {

constexpr std::size_t kRows = 2000;
constexpr int kCovariates = 8;
constexpr int kMstop = 120;
constexpr std::uint64_t kSeed = 3;

std::vector<double> values(const QCPGraph* g) {
  std::vector<double> out;
  for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) out.push_back(it->value);
  return out;
}

// What the window shows of a fit: every drawn effect curve, the risk curve, the selection counts.
struct Shown {
  QList<int> learners;
  std::vector<std::vector<double>> effects;
  std::vector<double> risk;
  std::vector<int> counts;
  int iteration = 0;
};

Shown shown(MainWindow& w) {
  Shown s;
  s.learners = w.effectsView()->shownLearners();
  for (int j : s.learners) s.effects.push_back(values(w.effectsView()->plotFor(j)->effectGraph()));
  s.risk = values(w.riskPlot()->riskGraph());
  s.counts = w.controller()->lastSnapshot().counts;
  s.iteration = w.controller()->lastSnapshot().iteration;
  return s;
}

void compareShown(const Shown& a, const Shown& b) {
  QCOMPARE(b.iteration, a.iteration);
  QCOMPARE(b.learners, a.learners);
  QCOMPARE(b.counts, a.counts);
  QCOMPARE(b.risk, a.risk);  // straight from the file: exact
  QCOMPARE(b.effects.size(), a.effects.size());
  for (std::size_t j = 0; j < a.effects.size(); ++j) {
    QCOMPARE(b.effects[j].size(), a.effects[j].size());
    QVERIFY(!a.effects[j].empty());
    for (std::size_t i = 0; i < a.effects[j].size(); ++i)
      QVERIFY2(std::abs(a.effects[j][i] - b.effects[j][i]) <= 1e-12, qPrintable(QString("learner %1 point %2: %3 vs %4")
                                                                                    .arg(a.learners[int(j)])
                                                                                    .arg(i)
                                                                                    .arg(a.effects[j][i], 0, 'g', 17)
                                                                                    .arg(b.effects[j][i], 0, 'g', 17)));
  }
}

std::unique_ptr<MainWindow> windowWithData(const QString& name, int covariates, std::uint64_t seed) {
  auto w = std::make_unique<MainWindow>(gbtest::testOptions(name));
  w->resize(1280, 820);
  w->show();
  gb::PaperDataSpec spec;
  spec.rows = kRows;
  spec.covariates = covariates;
  spec.informative = std::min(covariates, 20);
  spec.seed = seed;
  w->dataPanel()->setGeneratorSpec(spec);
  if (!w->dataPanel()->generateNow()) qWarning("%s", qPrintable(w->messages()->lastError()));
  return w;
}

// Open model runs on a worker: true when it started and ended well.
bool openAndWait(MainWindow& w, const QString& path) {
  QSignalSpy done(&w, &MainWindow::modelOpened);
  return w.openModel(path) && done.wait(20000) && done.at(0).at(0).toBool();
}

bool predictAndWait(MainWindow& w, const QString& in, const QString& out) {
  QSignalSpy done(&w, &MainWindow::predictionFinished);
  return w.predictCsv(in, out) && done.wait(20000) && done.at(0).at(0).toBool();
}

}  // namespace

class OpenModelTest : public QObject {
  Q_OBJECT

  std::unique_ptr<MainWindow> fitted_;
  Shown saved_;
  QString modelPath_;

 private slots:
  void initTestCase() {
    fitted_ = gbtest::makeWindow(kRows, kCovariates, kMstop, kSeed, "open-model-fit");
    QVERIFY(gbtest::fitAndWait(*fitted_));
    saved_ = shown(*fitted_);
    QCOMPARE(saved_.iteration, kMstop);
    QVERIFY(saved_.learners.size() >= 2);
    modelPath_ = gbtest::scratchPath("open.model.json");
    QVERIFY2(fitted_->saveModel(modelPath_), qPrintable(fitted_->messages()->lastError()));
  }

  void modelJsonRestoresTheFitWithoutFitting() {
    auto w = windowWithData("open-model", kCovariates, kSeed);
    const int built = fitJobBoostersBuilt();
    QSignalSpy jobs(w->controller(), &FitController::jobFinished);
    QVERIFY2(openAndWait(*w, modelPath_), qPrintable(w->messages()->lastError()));
    QCOMPARE(fitJobBoostersBuilt(), built);  // no fit
    QCOMPARE(jobs.count(), 0);
    QVERIFY(!w->controller()->booster());
    QCOMPARE(w->controller()->state(), FitState::Finished);
    compareShown(saved_, shown(*w));
    QCOMPARE(w->modelPanel()->settings().mstop, kMstop);
    QVERIFY(w->currentModel());
    // A setting changed after the opened model is said in the status, as after a fit (it said "Finished" beside the
    // opened model's views); changing it back clears the note.
    const auto status = [&w] { return w->statusLine()->fullText(); };
    QVERIFY2(status().contains("Finished. ") && !status().contains("changed since"), qPrintable(status()));
    QVERIFY2(status().contains(QString("Finished. %1 iterations, as loaded from the model file ").arg(kMstop)) &&
                 status().contains("(not refitted here)"),
             qPrintable(status()));
    gb::ModelSettings settings = w->modelPanel()->settings();
    const double nu = settings.nu;
    settings.nu = 0.37;
    w->modelPanel()->setSettings(settings);
    QVERIFY2(status().contains("the data or settings changed since"), qPrintable(status()));
    settings.nu = nu;
    w->modelPanel()->setSettings(settings);
    QVERIFY2(!status().contains("changed since"), qPrintable(status()));
    // The opened model is the current one: Save model writes it again, unchanged.
    const QString again = gbtest::scratchPath("open-again.model.json");
    QVERIFY2(w->saveModel(again), qPrintable(w->messages()->lastError()));
    QCOMPARE(gb::Model::load(again.toStdString()).toJson(), gb::Model::load(modelPath_.toStdString()).toJson());
    // Fit afterwards is a new fit (from iteration 0), of the same model.
    QVERIFY(gbtest::fitAndWait(*w));
    QCOMPARE(fitJobBoostersBuilt(), built + 1);
    compareShown(saved_, shown(*w));
  }

  void resultJsonOpensToo() {
    // result.json = the model's JSON plus fitted values and timing (what `gamboost fit --out` writes).
    nlohmann::json j = gb::Model::load(modelPath_.toStdString()).toJson();
    j["fitted"] = std::vector<double>(kRows, 1.0);
    j["timing"] = {{"setup_s", 0.1}, {"fit_s", 0.2}, {"backend", "cpu"}, {"device", "cpu"}, {"kernel", "moments"}};
    const QString path = gbtest::scratchPath("open.result.json");
    std::ofstream(path.toStdString()) << j.dump();
    auto w = windowWithData("open-result", kCovariates, kSeed);
    const int built = fitJobBoostersBuilt();
    QVERIFY2(openAndWait(*w, path), qPrintable(w->messages()->lastError()));
    QCOMPARE(fitJobBoostersBuilt(), built);
    compareShown(saved_, shown(*w));
  }

  void wrongOrNoDataIsNamed() {
    auto none = std::make_unique<MainWindow>(gbtest::testOptions("open-none"));
    QVERIFY(!openAndWait(*none, modelPath_));
    QString e = none->messages()->lastError();
    QVERIFY2(e.contains("no data is loaded") && e.contains("x8"), qPrintable(e));
    QCOMPARE(none->controller()->state(), FitState::Idle);

    auto fewer = windowWithData("open-fewer", 5, kSeed);  // x6..x8 missing
    QVERIFY(!openAndWait(*fewer, modelPath_));
    e = fewer->messages()->lastError();
    QVERIFY2(e.contains("'x6' is not a column of the loaded data"), qPrintable(e));
    QVERIFY(fewer->controller()->lastSnapshot().setup == nullptr);

    auto other = windowWithData("open-other", kCovariates, kSeed + 1);  // same columns, other rows
    QVERIFY(!openAndWait(*other, modelPath_));
    e = other->messages()->lastError();
    QVERIFY2(e.contains("not the model's training data"), qPrintable(e));

    auto w = windowWithData("open-bad", kCovariates, kSeed);
    const QString bad = gbtest::scratchPath("not-a-model.json");
    std::ofstream(bad.toStdString()) << "{\"format\": \"something else\"}";
    QVERIFY(!openAndWait(*w, bad));
    QVERIFY2(w->messages()->lastError().contains("not-a-model.json"), qPrintable(w->messages()->lastError()));
  }

  void predictWritesPredictionsAndReportsExtrapolation() {
    auto w = windowWithData("open-predict", kCovariates, kSeed);
    QVERIFY(!predictAndWait(*w, gbtest::scratchPath("in.csv"), gbtest::scratchPath("out.csv")));
    QVERIFY2(w->messages()->lastError().contains("No model"), qPrintable(w->messages()->lastError()));
    QVERIFY(openAndWait(*w, modelPath_));
    const gb::Model model = gb::Model::load(modelPath_.toStdString());
    gb::Dataset in;
    in.names = {"x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8"};
    in.columns.assign(8, {0.2, 0.5, 0.9, 0.4});
    in.columns[0][3] = 1.5;    // x1 above its range
    in.columns[2][1] = -0.25;  // x3 below
    const QString inPath = gbtest::scratchPath("predict-in.csv"), outPath = gbtest::scratchPath("predict-out.csv");
    gb::writeCsv(inPath.toStdString(), in);
    QStringList log;
    connect(w->messages(), &MessageSink::posted, this,
            [&log](Severity, const QString& t, const QString&) { log << t; });
    QVERIFY2(predictAndWait(*w, inPath, outPath), qPrintable(w->messages()->lastError()));
    const gb::Dataset out = gb::readCsv(outPath.toStdString());
    QCOMPARE(out.names, std::vector<std::string>{"prediction"});
    const gb::Prediction expected = model.predict(gb::readCsv(inPath.toStdString()));
    QCOMPARE(out.rows(), std::size_t(4));
    for (std::size_t i = 0; i < 4; ++i) QVERIFY(std::abs(out.columns[0][i] - expected.values[i]) <= 1e-12);
    const QString report = log.join("\n");
    QVERIFY2(report.contains("2 of 4 rows lie outside"), qPrintable(report));
    QVERIFY2(report.contains("x1: rows below the training range [") && report.contains("]: 0, above it: 1 (new data"),
             qPrintable(report));
    QVERIFY2(report.contains("x3: rows below the training range [") && report.contains("]: 1, above it: 0 (new data"),
             qPrintable(report));
    QVERIFY(!predictAndWait(*w, inPath, inPath));  // never over its own input
    // A missing covariate: that row's prediction is NA (as mboost's predict), the others unchanged, and the log
    // says how many rows and in which column.
    gb::Dataset holed = in;
    holed.columns[1][2] = std::nan("");
    const QString holedPath = gbtest::scratchPath("predict-holed.csv");
    gb::writeCsv(holedPath.toStdString(), holed);
    log.clear();
    QVERIFY2(predictAndWait(*w, holedPath, outPath), qPrintable(w->messages()->lastError()));
    const gb::Dataset holedOut = gb::readCsv(outPath.toStdString());
    QVERIFY(std::isnan(holedOut.columns[0][2]));
    for (std::size_t i : {0, 1, 3}) QVERIFY(std::abs(holedOut.columns[0][i] - expected.values[i]) <= 1e-12);
    QVERIFY2(log.join("\n").contains("1 of 4 rows have a missing value (NA; also NaN or empty in a numeric column) in "
                                     "a selected learner's column "
                                     "('x2' 1): their prediction is NA"),
             qPrintable(log.join("\n")));
    // The extrapolation report counts the rows that have a prediction: the second row (x2 missing) is NA, so its x3
    // below the range is not one (the per-column lines counted it beside a total that did not).
    gb::Dataset holedOutside = in;
    holedOutside.columns[1][1] = std::nan("");  // row 1 holds x3's value below the range
    gb::writeCsv(holedPath.toStdString(), holedOutside);
    log.clear();
    QVERIFY2(predictAndWait(*w, holedPath, outPath), qPrintable(w->messages()->lastError()));
    QVERIFY2(log.join("\n").contains("1 of 4 rows lie outside"), qPrintable(log.join("\n")));
    QVERIFY2(!log.join("\n").contains("x3:"), qPrintable(log.join("\n")));
    // A covariate the new data lacks is named, and nothing is written.
    gb::Dataset lacking = in;
    lacking.names.erase(lacking.names.begin() + 4);
    lacking.columns.erase(lacking.columns.begin() + 4);
    const QString lackingPath = gbtest::scratchPath("predict-lacking.csv");
    const QString lackingOut = gbtest::scratchPath("predict-lacking-out.csv");
    gb::writeCsv(lackingPath.toStdString(), lacking);
    QFile::remove(lackingOut);
    QVERIFY(!predictAndWait(*w, lackingPath, lackingOut));
    QVERIFY2(w->messages()->lastError().contains("x5"), qPrintable(w->messages()->lastError()));
    QVERIFY(!QFile::exists(lackingOut));
  }

  // A learner the fit never selected is not read (mboost's predict evaluates only the selected ones): its values
  // beyond the training range are no extrapolation, and the window's report lists only the selected learner's.
  void predictIgnoresUnselectedLearners() {
    auto w = gbtest::makeWindow(kRows, kCovariates, 2, kSeed, "open-predict-unselected");
    QVERIFY(gbtest::fitAndWait(*w));
    const QString path = gbtest::scratchPath("unselected.model.json");
    QVERIFY2(w->saveModel(path), qPrintable(w->messages()->lastError()));
    const gb::Model model = gb::Model::load(path.toStdString());
    std::size_t unused = 0;
    while (unused < model.learners.size() && model.learners[unused].selected > 0) ++unused;
    QVERIFY2(unused < model.learners.size(), "two iterations select at most two of the covariates");
    gb::Dataset in;
    for (const gb::LearnerModel& l : model.learners) {
      in.names.push_back(l.name);
      in.columns.push_back({0.5 * (l.lo + l.hi), l.lo, l.hi});
    }
    std::size_t used = 0;
    while (model.learners[used].selected == 0) ++used;
    in.columns[unused][0] = model.learners[unused].hi + 9.0;  // far above the unselected learner's range
    in.columns[used][1] = model.learners[used].lo - 9.0;      // and a selected one below its own, in another row
    const QString inPath = gbtest::scratchPath("unselected-in.csv"),
                  outPath = gbtest::scratchPath("unselected-out.csv");
    gb::writeCsv(inPath.toStdString(), in);
    QStringList log;
    connect(w->messages(), &MessageSink::posted, this,
            [&log](Severity, const QString& t, const QString&) { log << t; });
    QVERIFY2(predictAndWait(*w, inPath, outPath), qPrintable(w->messages()->lastError()));
    const QString report = log.join("\n");
    QVERIFY2(report.contains("1 of 3 rows lie outside"), qPrintable(report));
    QVERIFY2(report.contains(QString::fromStdString(model.learners[used].name) + ": rows below the training range"),
             qPrintable(report));
    QVERIFY2(!report.contains(QString::fromStdString(model.learners[unused].name) + ": rows"), qPrintable(report));
  }

  // Binomial (and poisson) predictions carry the response scale beside f: the probability 1 / (1 + exp(-2 f)) of
  // mboost's Binomial, as `predict --type response` writes it; a row predicted NA stays NA in both columns.
  void binomialPredictionsCarryTheProbability() {
    auto w = gbtest::emptyWindow("open-predict-binomial");
    QByteArray text = "y,x\n";
    for (int i = 0; i < 60; ++i)
      text += QByteArray::number((i * 7) % 11 < 5 ? 1 : 0) + "," + QByteArray::number(i) + "\n";
    QVERIFY(gbtest::openCsvText(*w, "binomial.csv", text));
    gbtest::chooseFamily(*w, "binomial", 30);
    QVERIFY(gbtest::fitAndWait(*w));
    const QString inPath = gbtest::scratchPath("binomial-in.csv"), outPath = gbtest::scratchPath("binomial-out.csv");
    QFile in(inPath);
    QVERIFY(in.open(QIODevice::WriteOnly | QIODevice::Truncate));
    in.write("x\n3\nNA\n41.5\n");
    in.close();
    QStringList log;
    connect(w->messages(), &MessageSink::posted, this,
            [&log](Severity, const QString& t, const QString&) { log << t; });
    QVERIFY2(predictAndWait(*w, inPath, outPath), qPrintable(w->messages()->lastError()));
    const gb::Dataset out = gb::readCsv(outPath.toStdString());
    QCOMPARE(out.names, (std::vector<std::string>{"prediction", "response"}));
    QCOMPARE(out.rows(), std::size_t(3));
    for (std::size_t i : {0, 2}) {
      const double f = out.columns[0][i], p = 1 / (1 + std::exp(-2 * f));
      QVERIFY2(std::abs(out.columns[1][i] - p) <= 1e-15, qPrintable(QString::number(out.columns[1][i] - p)));
    }
    QVERIFY(std::isnan(out.columns[0][1]) && std::isnan(out.columns[1][1]));
    QVERIFY2(log.join("\n").contains("column response: the probability or rate"), qPrintable(log.join("\n")));
  }

  void sessionReopensWithItsModel() {
    const QString path = gbtest::scratchPath("with-model.gbs.json");
    QVERIFY2(fitted_->saveSession(path), qPrintable(fitted_->messages()->lastError()));
    QVERIFY(!loadSession(path).modelPath.isEmpty());
    auto w = std::make_unique<MainWindow>(gbtest::testOptions("open-session"));
    w->resize(1280, 820);
    w->show();
    const int built = fitJobBoostersBuilt();
    QSignalSpy opened(w.get(), &MainWindow::modelOpened);
    QVERIFY2(w->openSession(path), qPrintable(w->messages()->lastError()));
    QVERIFY(opened.wait(20000));
    QCOMPARE(opened.at(0).at(0).toBool(), true);
    QCOMPARE(fitJobBoostersBuilt(), built);
    QCOMPARE(w->controller()->state(), FitState::Finished);
    compareShown(saved_, shown(*w));
    // The file holds no steps to replay: the slider is off and its tooltip says why (it offered to replay).
    QVERIFY(!w->replayBar()->findChild<QSlider*>()->isEnabled());
    QVERIFY2(w->replayBar()->sliderToolTip().startsWith("This model was opened from a file"),
             qPrintable(w->replayBar()->sliderToolTip()));
    // Saving the reopened session keeps its model.
    const QString again = gbtest::scratchPath("with-model-again.gbs.json");
    QVERIFY2(w->saveSession(again), qPrintable(w->messages()->lastError()));
    QVERIFY(!loadSession(again).modelPath.isEmpty());
  }

  void csvSessionReopensWithItsModel() {
    const gb::PaperDataSpec spec = gbtest::paperSpec(800, 5, 3, 7);
    const QString csv = gbtest::scratchPath("session-data.csv");
    gb::writeCsv(csv.toStdString(), gb::generatePaperData(spec).data);
    auto w = std::make_unique<MainWindow>(gbtest::testOptions("open-csv-fit"));
    w->show();
    QSignalSpy read(w->dataPanel(), &DataPanel::loadFinished);
    QVERIFY(w->dataPanel()->openCsv(csv));
    QVERIFY(read.wait(20000));
    gb::ModelSettings settings = w->modelPanel()->settings();
    settings.mstop = 60;
    w->modelPanel()->setSettings(settings);
    QVERIFY(gbtest::fitAndWait(*w));
    const Shown before = shown(*w);
    const QString path = gbtest::scratchPath("csv-with-model.gbs.json");
    QVERIFY2(w->saveSession(path), qPrintable(w->messages()->lastError()));

    auto w2 = std::make_unique<MainWindow>(gbtest::testOptions("open-csv-session"));
    w2->show();
    const int built = fitJobBoostersBuilt();
    QSignalSpy opened(w2.get(), &MainWindow::modelOpened);
    QVERIFY2(w2->openSession(path), qPrintable(w2->messages()->lastError()));
    QVERIFY(opened.wait(20000));  // after the CSV was read
    QCOMPARE(opened.at(0).at(0).toBool(), true);
    QCOMPARE(w2->controller()->state(), FitState::Finished);
    QCOMPARE(fitJobBoostersBuilt(), built);
    QVERIFY2(w2->messages()->lastError().isEmpty(), qPrintable(w2->messages()->lastError()));
    compareShown(before, shown(*w2));
  }

  // gamboost-studio data.csv model.json: the CSV is read, then the model opens over it, without a fit; a missing
  // file is a message naming it.
  void commandLineFilesOpenDataThenModel() {
    const gb::PaperDataSpec spec = gbtest::paperSpec(600, 4, 2, 9);
    const QString csv = gbtest::scratchPath("args-data.csv");
    gb::writeCsv(csv.toStdString(), gb::generatePaperData(spec).data);
    auto w = std::make_unique<MainWindow>(gbtest::testOptions("args-fit"));
    w->show();
    QSignalSpy read(w->dataPanel(), &DataPanel::loadFinished);
    QVERIFY(w->openPaths({csv}));
    QVERIFY(read.wait(20000));
    gb::ModelSettings settings = w->modelPanel()->settings();
    settings.mstop = 40;
    w->modelPanel()->setSettings(settings);
    QVERIFY(gbtest::fitAndWait(*w));
    const Shown before = shown(*w);
    const QString model = gbtest::scratchPath("args-model.json");
    QVERIFY2(w->saveModel(model), qPrintable(w->messages()->lastError()));

    auto w2 = std::make_unique<MainWindow>(gbtest::testOptions("args-open"));
    w2->show();
    const int built = fitJobBoostersBuilt();
    QSignalSpy opened(w2.get(), &MainWindow::modelOpened);
    QVERIFY2(w2->openPaths({csv, model}), qPrintable(w2->messages()->lastError()));
    QVERIFY(opened.wait(20000));
    QCOMPARE(opened.at(0).at(0).toBool(), true);
    QCOMPARE(fitJobBoostersBuilt(), built);
    compareShown(before, shown(*w2));

    const QString missing = gbtest::scratchPath("no-such-file.csv");
    QVERIFY(!w2->openPaths({missing}));
    QVERIFY2(w2->messages()->lastError().contains(missing), qPrintable(w2->messages()->lastError()));
  }

  // gamboost-studio data.csv at a first start: the demo data is still being generated when the file is named; the
  // file wins (was: silently not opened).
  void commandLineFileWinsOverTheFirstStartsData() {
    const QString csv = gbtest::scratchPath("args-first.csv");
    gb::writeCsv(csv.toStdString(), gb::generatePaperData(gbtest::paperSpec(300, 3, 2, 4)).data);
    auto w = std::make_unique<MainWindow>(gbtest::testOptions("args-first"));
    w->show();
    w->dataPanel()->setGeneratorSpec(gbtest::paperSpec(3'000'000, 10, 5, 1));
    QVERIFY(w->dataPanel()->generate());
    QVERIFY(w->dataPanel()->isLoading());
    QVERIFY(w->openPaths({csv}));
    QTRY_VERIFY_WITH_TIMEOUT(w->dataPanel()->source().kind == DataSourceSpec::Kind::Csv && !w->dataPanel()->isLoading(),
                             20000);
    QCOMPARE(w->dataPanel()->dataset()->rows(), std::size_t(300));
    QVERIFY2(w->messages()->lastError().isEmpty(), qPrintable(w->messages()->lastError()));
  }

  // Fit pressed while a model is being opened: the fit is what the window shows, not the file's model.
  void fitStartedMeanwhileWins() {
    auto w = windowWithData("open-race", kCovariates, kSeed);
    gb::ModelSettings settings = w->modelPanel()->settings();
    settings.mstop = 40;
    w->modelPanel()->setSettings(settings);
    QSignalSpy opened(w.get(), &MainWindow::modelOpened);
    QSignalSpy fitDone(w->controller(), &FitController::jobFinished);
    QVERIFY(w->openModel(modelPath_));
    QTest::mouseClick(w->fitButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
    QCOMPARE(opened.at(0).at(0).toBool(), false);
    QTRY_COMPARE_WITH_TIMEOUT(fitDone.count(), 1, 30000);
    QVERIFY(w->controller()->booster());
    QCOMPARE(w->controller()->state(), FitState::Finished);
    QCOMPARE(w->controller()->lastSnapshot().iteration, 40);
    QVERIFY2(w->messages()->lastError().isEmpty(), qPrintable(w->messages()->lastError()));
  }

  void cleanupTestCase() { fitted_.reset(); }
};

QTEST_MAIN(OpenModelTest)
#include "test_open_model.moc"

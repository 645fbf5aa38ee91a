#include "support/StudioFixture.hpp"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <random>

#include "data/DataPanel.hpp"
#include "model/ModelPanel.hpp"

namespace gbtest {

QString scratchPath(const QString& name) {
  const QString base = qEnvironmentVariable("GB_TEST_TMP", QDir::tempPath());
  const QString dir = QDir(base).filePath("ui-" + QFileInfo(QCoreApplication::applicationFilePath()).fileName());
  QDir().mkpath(dir);
  return QDir(dir).filePath(name);
}

gbui::StudioOptions testOptions(const QString& settingsName) {
  gbui::StudioOptions o;
  o.interactive = false;
  o.settingsFile = scratchPath(settingsName + ".ini");
  o.restoreSettings = false;
  o.generateOnStart = false;
  o.listDevices = false;  // PoCL start-up is slow and not what these tests are about
  return o;
}

gb::PaperDataSpec paperSpec(std::size_t rows, int covariates, int informative, std::uint64_t seed) {
  gb::PaperDataSpec s;
  s.rows = rows;
  s.covariates = covariates;
  s.informative = informative;
  s.seed = seed;
  return s;
}

bool openSessionAndWait(gbui::MainWindow& w, const QString& path, int timeoutMs) {
  QSignalSpy loaded(w.dataPanel(), &gbui::DataPanel::loadFinished);
  if (!w.openSession(path)) return false;
  if (loaded.isEmpty() && !w.dataPanel()->isLoading()) return true;  // a session without data
  if (loaded.isEmpty() && !loaded.wait(timeoutMs)) return false;
  QCoreApplication::processEvents();  // the window's own loadFinished handling (roles, queued model) runs first
  return loaded.at(0).at(0).toBool();
}

std::unique_ptr<gbui::MainWindow> emptyWindow(const QString& settingsName) {
  auto w = std::make_unique<gbui::MainWindow>(testOptions(settingsName));
  w->resize(1280, 820);
  w->show();
  return w;
}

std::unique_ptr<gbui::MainWindow> makeWindow(std::size_t rows, int covariates, int mstop, std::uint64_t seed,
                                             const QString& settingsName) {
  auto w = std::make_unique<gbui::MainWindow>(testOptions(settingsName));
  w->resize(1280, 820);
  w->show();
  gb::PaperDataSpec spec;
  spec.rows = rows;
  spec.covariates = covariates;
  spec.informative = std::min(20, covariates);
  spec.seed = seed;
  w->dataPanel()->setGeneratorSpec(spec);
  if (!w->dataPanel()->generateNow()) qWarning("generate failed: %s", qPrintable(w->messages()->lastError()));
  gb::ModelSettings s = w->modelPanel()->settings();
  s.mstop = mstop;
  w->modelPanel()->setSettings(s);
  qInfo("paper data: n = %zu, p = %d, seed %llu, mstop %d", rows, covariates, (unsigned long long)seed, mstop);
  return w;
}

namespace {
bool triggerAndWait(gbui::MainWindow& w, QPushButton* button, int timeoutMs) {
  QSignalSpy finished(w.controller(), &gbui::FitController::jobFinished);
  QTest::mouseClick(button, Qt::LeftButton);
  return finished.wait(timeoutMs);
}
}  // namespace

bool fitAndWait(gbui::MainWindow& w, int timeoutMs) { return triggerAndWait(w, w.fitButton(), timeoutMs); }
bool stepAndWait(gbui::MainWindow& w, int timeoutMs) { return triggerAndWait(w, w.stepButton(), timeoutMs); }

std::optional<bool> openCsvAndWait(gbui::MainWindow& w, const QString& path) {
  QSignalSpy loaded(w.dataPanel(), &gbui::DataPanel::loadFinished);
  if (!w.dataPanel()->openCsv(path) || !loaded.wait(10000)) return std::nullopt;
  return loaded.takeFirst().at(0).toBool();
}

bool openCsvText(gbui::MainWindow& w, const QString& name, const QByteArray& text) {
  const QString path = scratchPath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
  f.write(text);
  f.close();
  return openCsvAndWait(w, path).value_or(false);
}

QByteArray rareEventsCsv(int rows, int events, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  QByteArray data = "y,x1\n";
  for (int i = 0; i < rows; ++i)
    data += QByteArray(i < events ? "yes," : "no,") + QByteArray::number(u(rng), 'g', 12) + '\n';
  return data;
}

void chooseFamily(gbui::MainWindow& w, const char* family, int mstop) {
  QComboBox* box = w.modelPanel()->familyBox();
  box->setCurrentIndex(box->findData(QString(family)));
  w.modelPanel()->mstopBox()->setValue(mstop);
}

}  // namespace gbtest

// The menus (View works, Help has About, the documents and the shortcuts), messages in the window's words, and the
// first start: the run command's demo data and settings; a restart reopens the last data file.
#include <QDockWidget>
#include <QFile>
#include <QGroupBox>
#include <QMenu>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QToolButton>
#include <QtTest>

#include "common/MessageSink.hpp"
#include "common/WindowWords.hpp"
#include "data/DataPanel.hpp"
#include "model/ModelPanel.hpp"
#include "plots/RiskPlot.hpp"
#include "settings/ModelSettings.hpp"
#include "support/StudioFixture.hpp"

using namespace gbui;

namespace {

QAction* find(QMenu* menu, const QString& text) {
  for (QAction* a : menu->actions())
    if (QString(a->text()).remove('&') == text) return a;
  return nullptr;
}

QString runScript() {
  QFile f(QStringLiteral(GB_SOURCE_DIR) + "/scripts/run.sh");
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

}  // namespace

class MenusTest : public QObject {
  Q_OBJECT

 private slots:
  void viewMenuEntriesWork() {
    auto w = gbtest::makeWindow(300, 3, 10, 1, "view");
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QMenu* view = w->viewMenu();
    int entries = 0;
    for (QAction* a : view->actions()) {
      if (a->isSeparator()) continue;
      ++entries;
      QVERIFY2(a->isEnabled(), qPrintable(a->text()));
    }
    QVERIFY(entries >= 3 + w->plotTabs()->count());
    QAction* panels = find(view, "Data and model");
    QVERIFY(panels);
    auto* dock = w->findChild<QDockWidget*>("panelsDock");
    QVERIFY(dock->isVisible());
    panels->trigger();
    QVERIFY(!dock->isVisible());
    panels->trigger();
    QVERIFY(dock->isVisible());
    find(view, "Risk")->trigger();
    QCOMPARE(w->plotTabs()->currentWidget(), static_cast<QWidget*>(w->riskPlot()));
  }

  void helpMenuHasAboutDocumentsAndShortcuts() {
    auto w = gbtest::makeWindow(300, 3, 10, 1, "help");
    QMenu* help = w->helpMenu();
    QVERIFY(help);
    QVERIFY(find(help, "About GAMBoost Studio"));
    QAction* keys = find(help, "Keyboard shortcuts");
    QVERIFY(keys);
    QSignalSpy posted(w->messages(), &MessageSink::posted);
    keys->trigger();
    QCOMPARE(posted.count(), 1);
    const QString text = posted.at(0).at(1).toString();
    for (const QString& line : QStringList{"F5  —  Fit", "F6  —  Pause", "F10  —  Step", "Esc  —  Cancel",
                                           "Ctrl+2  —  Risk", "Ctrl+3  —  Cross-validation"})
      QVERIFY2(text.contains(line), qPrintable(line + " not in:\n" + text));
    const auto docs = w->documents();
    QVERIFY(docs.size() >= 3);
    QVERIFY(docs.front().second.endsWith("README.md"));
    QAction* docsMenu = find(help, "Documentation");
    QVERIFY(docsMenu && docsMenu->menu() && docsMenu->isEnabled());
    QCOMPARE(docsMenu->menu()->actions().size(), int(docs.size()));
    docsMenu->menu()->actions().at(1)->trigger();
    QCOMPARE(w->lastOpenedDocument(), docs.at(1).second);
    QVERIFY(QFile::exists(w->lastOpenedDocument()));
  }

  void messagesUseTheWindowsWords() {
    QCOMPARE(inWindowWords("--edf: x1: edf 1 must exceed 2 (no lambda reaches it; raise --edf or lower --differences)"),
             QString("edf: x1: edf 1 must exceed 2 (no lambda reaches it; raise edf or lower Differences)"));
    QCOMPARE(inWindowWords("--precision: the CPU backend computes in double only (float: --backend opencl)"),
             QString("Precision: the CPU backend computes in double only (float: Backend OpenCL)"));
    QCOMPARE(inWindowWords("use --kernel compact_x"), QString("use Kernel compact_x"));
    QCOMPARE(inWindowWords("--edf-def and --linear-edf"), QString("edf definition and Linear edf"));
    // A real engine refusal, through the window: no option of the command line is left.
    auto w = gbtest::makeWindow(300, 3, 5, 1, "words");
    gb::ComputeSettings c;
    c.precision = gb::Precision::Float;
    w->controller()->setSettings(w->modelPanel()->settings(), c);
    QSignalSpy finished(w->controller(), &FitController::jobFinished);
    QVERIFY(w->controller()->fit());
    QVERIFY(finished.wait(30000));
    const QString error = w->messages()->lastError();
    QVERIFY2(error.contains("Precision") && !error.contains(QRegularExpression("--[a-z]")), qPrintable(error));
  }

  void firstStartIsTheRunCommandsDemo() {
    const QString script = runScript();
    QVERIFY(script.contains("generate --rows 10000 --seed 1"));
    QVERIFY(script.contains("--mstop cv --kfold 5 --nu 0.1"));  // it chooses 1000 on this data
    MainWindow w(gbtest::testOptions("first"));
    const gb::ModelSettings s = w.modelPanel()->settings();
    const gb::ModelSettings cli;  // the CLI's defaults (mboost's)
    QCOMPARE(s.mstop, 1000);
    QCOMPARE(s.nu, 0.1);
    QCOMPARE(s.spline.knots, cli.spline.knots);
    QCOMPARE(s.edf, cli.edf);
    QVERIFY(s.penalty == cli.penalty && s.spline.boundary == cli.spline.boundary);
    QCOMPARE(w.dataPanel()->generatorSpec().rows, std::size_t(10000));
    QCOMPARE(w.dataPanel()->generatorSpec().seed, std::uint64_t(1));
    QCOMPARE(w.dataPanel()->generatorSpec().covariates, 100);
    // And its device: the default OpenCL device (as `fit --backend opencl`), once the devices are known.
    gb::ComputeDeviceList devices;
    devices.devices.push_back({"cpu", "", "CPU", "host"});
    gb::ComputeDeviceInfo other, gpu;
    other.backend = gpu.backend = "opencl";
    other.name = "a CPU device";
    gpu.name = "a GPU";
    gpu.isDefault = true;
    devices.devices.push_back(other);
    devices.devices.push_back(gpu);
    QVERIFY(w.modelPanel()->compute().backend == gb::BackendKind::Cpu);
    w.useDevices(devices);
    QVERIFY(w.modelPanel()->compute().backend == gb::BackendKind::OpenCl);
    QCOMPARE(w.modelPanel()->compute().device, std::string("a GPU"));
    // A later start with saved settings keeps the user's choice.
    StudioOptions o = gbtest::testOptions("saved");
    o.restoreSettings = true;
    {
      MainWindow before(o);
      before.close();
    }
    MainWindow after(o);
    after.useDevices(devices);
    QVERIFY(after.modelPanel()->compute().backend == gb::BackendKind::Cpu);
  }

  // The demo's mstop 1000 is for the paper's data; a first start that opens a CSV of the user's own gives it
  // mboost's 100 and says so. A mstop the user chose stays, and so does the one the window set, on the next file.
  void theDemosMstopIsNotForTheUsersData() {
    auto w = gbtest::emptyWindow("demo-mstop");
    QStringList infos;
    connect(w->messages(), &MessageSink::posted, this,
            [&](Severity, const QString& text, const QString&) { infos << text; });
    QCOMPARE(w->modelPanel()->settings().mstop, 1000);
    QVERIFY(w->dataPanel()->generateNow());  // generated data keeps the demo's mstop
    QCOMPARE(w->modelPanel()->settings().mstop, 1000);
    DataPanel* data = w->dataPanel();
    QVERIFY(data->generatorBox()->title().endsWith("(in use)") && !data->fileBox()->title().endsWith("(in use)"));
    QVERIFY(data->generatorSettingsToggle()->isChecked());
    QVERIFY(data->memoryEstimateLabel()->isVisibleTo(data));
    const QByteArray table = "y,a,b\n1,2,3\n2,3,1\n3,1,2\n4,5,6\n5,4,4\n";
    QVERIFY(gbtest::openCsvText(*w, "own.csv", table));
    QCOMPARE(w->modelPanel()->settings().mstop, gb::ModelSettings{}.mstop);
    QCOMPARE(w->fitProgress()->maximum(), gb::ModelSettings{}.mstop);
    QVERIFY2(infos.filter("mstop 100 (mboost's default)").size() == 1, qPrintable(infos.join("|")));
    // The Data tab says the file is in use, and the generator's settings fold away (its Generate button stays).
    QVERIFY(data->fileBox()->title().endsWith("(in use)") && !data->generatorBox()->title().endsWith("(in use)"));
    QVERIFY(!data->memoryEstimateLabel()->isVisibleTo(data));
    QVERIFY(data->generateButton()->isVisibleTo(data));
    data->generatorSettingsToggle()->click();
    QVERIFY(data->memoryEstimateLabel()->isVisibleTo(data));
    w->modelPanel()->mstopBox()->setValue(1000);  // the user's own 1000 stays on the next file
    QVERIFY(gbtest::openCsvText(*w, "own2.csv", table));
    QCOMPARE(w->modelPanel()->settings().mstop, 1000);

    auto chosen = gbtest::emptyWindow("demo-mstop-chosen");  // chosen before the first file: kept
    chosen->modelPanel()->mstopBox()->setValue(250);
    QVERIFY(gbtest::openCsvText(*chosen, "own3.csv", table));
    QCOMPARE(chosen->modelPanel()->settings().mstop, 250);
  }

  // The demo's device fits in float (OpenCL's default); data of the user's own is fitted in double where the device
  // has it, whichever comes first (the device list or the file), once, and never over a precision the user chose.
  void theDemosFloatIsNotForTheUsersData() {
    gb::ComputeDeviceList devices;
    devices.devices.push_back({"cpu", "", "CPU", "host"});
    gb::ComputeDeviceInfo gpu;
    gpu.backend = "opencl";
    gpu.name = "a GPU";
    gpu.isDefault = true;
    gpu.fp64 = true;
    devices.devices.push_back(gpu);
    const QByteArray table = "y,a,b\n1,2,3\n2,3,1\n3,1,2\n4,5,6\n5,4,4\n";
    auto precision = [](MainWindow& w) { return w.modelPanel()->compute().precision; };

    auto devicesFirst = gbtest::emptyWindow("demo-float");
    devicesFirst->useDevices(devices);
    QVERIFY(devicesFirst->dataPanel()->generateNow());  // the demo's own data keeps float
    QVERIFY(precision(*devicesFirst) == gb::Precision::Default);
    QVERIFY(gbtest::openCsvText(*devicesFirst, "own.csv", table));
    QVERIFY(precision(*devicesFirst) == gb::Precision::Double);
    QCOMPARE(devicesFirst->modelPanel()->compute().device, std::string("a GPU"));

    auto fileFirst = gbtest::emptyWindow("demo-float-file");
    QVERIFY(gbtest::openCsvText(*fileFirst, "own.csv", table));
    fileFirst->useDevices(devices);
    QVERIFY(fileFirst->modelPanel()->compute().backend == gb::BackendKind::OpenCl);
    QVERIFY(precision(*fileFirst) == gb::Precision::Double);

    auto chosen = gbtest::emptyWindow("demo-float-chosen");  // float chosen before the file: kept
    chosen->useDevices(devices);
    gb::ComputeSettings c = chosen->modelPanel()->compute();
    c.precision = gb::Precision::Float;
    chosen->modelPanel()->setCompute(c);
    QVERIFY(gbtest::openCsvText(*chosen, "own.csv", table));
    QVERIFY(precision(*chosen) == gb::Precision::Float);

    gb::ComputeDeviceList floatOnly = devices;  // no fp64: float it is
    floatOnly.devices.back().fp64 = false;
    auto noDouble = gbtest::emptyWindow("demo-float-only");
    noDouble->useDevices(floatOnly);
    QVERIFY(gbtest::openCsvText(*noDouble, "own.csv", table));
    QVERIFY(precision(*noDouble) == gb::Precision::Default);
  }

  void aRestartReopensTheLastDataFile() {
    const QString csv = gbtest::scratchPath("last.csv");
    QFile f(csv);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QByteArray text = "y,a,b\n";
    for (int i = 0; i < 50; ++i) text += QByteArray::number(i % 7) + "," + QByteArray::number(i) + ",1\n";
    f.write(text);
    f.close();
    StudioOptions o = gbtest::testOptions("restart");
    o.restoreSettings = true;
    QFile::remove(o.settingsFile);
    {
      MainWindow first(o);
      QSignalSpy loaded(first.dataPanel(), &DataPanel::loadFinished);
      QVERIFY(first.dataPanel()->openCsv(csv));
      QVERIFY(loaded.wait(10000));
      ColumnRoles roles = first.dataPanel()->roles();
      QCOMPARE(roles.response, QString("y"));  // the default: the first column
      roles.response = "a";
      roles.learners = QStringList{"y"};
      roles.linears.clear();
      roles.factors.clear();
      roles.ignored = QStringList{"b"};
      first.dataPanel()->setRoles(roles);
      QCOMPARE(first.dataPanel()->roles().response, QString("a"));
      first.close();  // saves the settings
    }
    o.generateOnStart = true;
    MainWindow second(o);
    QSignalSpy loaded(second.dataPanel(), &DataPanel::loadFinished);
    QVERIFY(second.dataPanel()->isLoading() || second.dataPanel()->dataset());
    if (!second.dataPanel()->dataset()) QVERIFY(loaded.wait(10000));
    QCOMPARE(second.dataPanel()->source().kind, DataSourceSpec::Kind::Csv);
    QCOMPARE(QFileInfo(second.dataPanel()->source().path).canonicalFilePath(), QFileInfo(csv).canonicalFilePath());
    QCOMPARE(second.dataPanel()->dataset()->rows(), std::size_t(50));
    // With the roles it had at the close (the default made y the response again).
    QCOMPARE(second.dataPanel()->roles().response, QString("a"));
    QCOMPARE(second.dataPanel()->roles().learners, QStringList{"y"});
    QVERIFY(gbtest::fitAndWait(second));  // and the fit takes them
    QCOMPARE(second.controller()->booster()->settings().response, std::string("a"));
  }
};

QTEST_MAIN(MenusTest)
#include "test_menus.moc"

// All-or-nothing outputs (issue "Hardened inputs and outputs"): an output never replaces an input, symbolic links
// are followed, a disk that fills up or a SIGTERM in the middle of a write leaves no file (neither the target nor
// a temporary one), and limits derived from the machine (threads, memory) are applied before the work.
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QThread>
#include <QtTest>
#include <cmath>

#include "support/CliRunner.hpp"

using namespace gbtest;

namespace {

// Every entry of the scratch directory, hidden ones included (temporary files start with a dot).
QStringList entries(const Scratch& scratch) {
  return QDir(scratch.root())
      .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDir::Name);
}

// Runs gamboost and sends it `signal` as soon as a file whose name contains `marker` is created in `dir`
// (inotify: microseconds after the creation, while the large write that follows it is under way). Returns
// whether the signal was sent while the process was still running, and how it ended.
struct Killed {
  bool signalled = false;
  bool endedBySignal = false;
  int exitCode = -1;
  QString err;
};

Killed runAndTerminateOnCreate(const QStringList& args, const QString& dir, const QString& marker, int signal) {
  Killed result;
  const int watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (watch < 0) return result;
  inotify_add_watch(watch, dir.toLocal8Bit().constData(), IN_CREATE);
  QProcess process;
  process.setProgram(QStringLiteral(GB_CLI_PATH));
  process.setArguments(args);
  process.start();
  if (!process.waitForStarted(10000)) {
    ::close(watch);
    return result;
  }
  QElapsedTimer clock;
  clock.start();
  alignas(inotify_event) char buffer[4096];
  while (!result.signalled && clock.elapsed() < 120000 && process.state() == QProcess::Running) {
    pollfd p{watch, POLLIN, 0};
    if (::poll(&p, 1, 20) <= 0) {
      process.waitForFinished(0);
      continue;
    }
    const ssize_t got = ::read(watch, buffer, sizeof buffer);
    for (ssize_t at = 0; at < got;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
      if (event->len > 0 && QString::fromLocal8Bit(event->name).contains(marker)) {
        result.signalled = ::kill(static_cast<pid_t>(process.processId()), signal) == 0;
        break;
      }
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
    }
  }
  ::close(watch);
  process.waitForFinished(60000);
  result.endedBySignal = process.exitStatus() == QProcess::CrashExit;
  result.exitCode = process.exitCode();
  result.err = QString::fromUtf8(process.readAllStandardError());
  return result;
}

QJsonObject readJson(const QString& path) { return QJsonDocument::fromJson(readFile(path)).object(); }

// d.csv in scratch: the paper's data, `rows` rows, 3 covariates (1 informative).
bool generated(const Scratch& scratch, const char* rows) {
  return runGamboost({"generate", "--rows", rows, "--covariates", "3", "--informative", "1", "--out",
                      scratch.path("d.csv"), "--quiet"})
             .exitCode == 0;
}

// Under `limit`, args (with an --out) either succeed and write the output, or are refused (exit 2, `refusal`) and
// write nothing: never a crash or exit 1. The output is removed after.
void runsOrIsRefused(const char* limit, const QStringList& args, const QString& refusal) {
  const CliResult r = runGamboostLimited(limit, args);
  QVERIFY2(r.finished && !r.crashed && (r.exitCode == 0 || r.exitCode == 2),
           qPrintable(QString(limit) + ": " + r.describe()));
  if (r.exitCode == 2) verifyRejected(r, refusal);
  QCOMPARE(QFileInfo::exists(args.at(args.indexOf("--out") + 1)), r.exitCode == 0);
  QFile::remove(args.at(args.indexOf("--out") + 1));
}

}  // namespace

class CliOutputsTest : public QObject {
  Q_OBJECT

 private slots:
  void outputNamingTheInputIsRefused() {
    Scratch scratch;
    const QByteArray csv = smallCsv(40);
    writeFile(scratch.path("data.csv"), csv);
    QVERIFY(QFile::link(scratch.path("data.csv"), scratch.path("alias.csv")));
    QVERIFY(::link(scratch.path("data.csv").toLocal8Bit().constData(),
                   scratch.path("hard.csv").toLocal8Bit().constData()) == 0);
    for (const QString& out : {scratch.path("data.csv"), scratch.path("alias.csv"), scratch.path("hard.csv"),
                               scratch.root() + "/./data.csv"}) {
      const CliResult r = runGamboost({"fit", "--data", scratch.path("data.csv"), "--out", out, "--quiet"});
      verifyRejected(r, "--out.*--data");
      if (QTest::currentTestFailed()) return;
      QCOMPARE(readFile(scratch.path("data.csv")), csv);  // the input is untouched
    }
    // predict: neither the model nor the data may be the output.
    QVERIFY(runGamboost({"fit", "--data", scratch.path("data.csv"), "--out", scratch.path("r.json"), "--model",
                         scratch.path("m.json"), "--knots", "4", "--mstop", "5", "--quiet"})
                .exitCode == 0);
    const QByteArray model = readFile(scratch.path("m.json"));
    verifyRejected(runGamboost({"predict", "--model", scratch.path("m.json"), "--data", scratch.path("data.csv"),
                                "--out", scratch.path("m.json")}),
                   "--out.*--model");
    QCOMPARE(readFile(scratch.path("m.json")), model);
    verifyRejected(runGamboost({"fit", "--data", scratch.path("data.csv"), "--out", scratch.root()}),
                   "--out.*directory");
    // fit --summary reads generate's truth file beside the data: neither output may replace it.
    const QByteArray truth = "{\"informative\": [\"x1\"]}\n";
    writeFile(scratch.path("data.csv.truth.json"), truth);
    for (const char* option : {"--out", "--model"}) {
      QStringList args{"fit", "--data", scratch.path("data.csv"), "--summary", "--quiet", "--mstop", "5"};
      args << (option == QString("--out")
                   ? QStringList{"--out", scratch.path("data.csv.truth.json")}
                   : QStringList{"--out", scratch.path("r2.json"), "--model", scratch.path("data.csv.truth.json")});
      verifyRejected(runGamboost(args), QString(option) + ".*--summary \\(the data's truth file\\)");
      QCOMPARE(readFile(scratch.path("data.csv.truth.json")), truth);
    }
    // A truth "file" that is a pipe is not read: the summary would wait on it for ever (runGamboost's time limit).
    QVERIFY(QFile::remove(scratch.path("data.csv.truth.json")));
    QCOMPARE(::mkfifo(scratch.path("data.csv.truth.json").toLocal8Bit().constData(), 0600), 0);
    const CliResult piped = runGamboost({"fit", "--data", scratch.path("data.csv"), "--summary", "--quiet", "--mstop",
                                         "5", "--out", scratch.path("r3.json")});
    QVERIFY2(piped.finished && piped.exitCode == 0, qPrintable(piped.describe()));
    QVERIFY2(piped.out.contains("data.csv.truth.json not read: not a regular file"), qPrintable(piped.out));
  }

  // fit --mstop cv declared its --folds-file after the outputs, so --out naming it replaced the folds with
  // result.json, exit 0 (cv refused the same).
  void theFoldsFileIsNeverAnOutput() {
    Scratch scratch;
    writeFile(scratch.path("data.csv"), smallCsv(40));
    QByteArray folds = "f1,f2\n";
    for (int i = 0; i < 40; ++i) folds += (i % 2 ? "1,0\n" : "0,1\n");
    writeFile(scratch.path("folds.csv"), folds);
    for (const char* option : {"--out", "--model"}) {
      QStringList args{"fit", "--data",       scratch.path("data.csv"),  "--mstop", "cv", "--cv-grid",
                       "10",  "--folds-file", scratch.path("folds.csv"), "--knots", "4",  "--quiet"};
      args << (option == QString("--out")
                   ? QStringList{"--out", scratch.path("folds.csv")}
                   : QStringList{"--out", scratch.path("r.json"), "--model", scratch.path("folds.csv")});
      verifyRejected(runGamboost(args), QString(option) + ".*is also the input --folds-file");
      QCOMPARE(readFile(scratch.path("folds.csv")), folds);
      QVERIFY(!QFileInfo::exists(scratch.path("r.json")));
    }
  }

  // A report on stdout that cannot be written (a full disk, a closed stdout) passed as success with an empty file.
  void standardOutputFailuresAreReported() {
    Scratch scratch;
    writeFile(scratch.path("data.csv"), smallCsv(40));
    const QStringList fit{"fit",
                          "--data",
                          scratch.path("data.csv"),
                          "--out",
                          scratch.path("r.json"),
                          "--knots",
                          "4",
                          "--mstop",
                          "5",
                          "--summary",
                          "--quiet"};
    QProcess full;
    full.setProgram(QStringLiteral(GB_CLI_PATH));
    full.setArguments(fit);
    full.setStandardOutputFile("/dev/full");
    full.start();
    QVERIFY(full.waitForFinished(60000));
    const QString fullErr = QString::fromUtf8(full.readAllStandardError());
    QCOMPARE(full.exitCode(), 2);
    QVERIFY2(fullErr.contains("gamboost: standard output: cannot write: No space left on device"), qPrintable(fullErr));
    // Closed: the report must neither vanish unnoticed nor land in a file opened later (fd 1 reused).
    QProcess closed;
    closed.setProgram("/bin/sh");
    closed.setArguments(QStringList{"-c", "exec 1>&-; exec \"$0\" \"$@\"", QStringLiteral(GB_CLI_PATH)} + fit);
    closed.start();
    QVERIFY(closed.waitForFinished(60000));
    const QString closedErr = QString::fromUtf8(closed.readAllStandardError());
    QCOMPARE(closed.exitCode(), 2);
    QVERIFY2(closedErr.contains("gamboost: standard output: cannot write: Bad file descriptor"), qPrintable(closedErr));
    const nlohmann::json result = readJsonFile(scratch.path("r.json"));  // written, and valid JSON
    QVERIFY(result.contains("path"));
  }

  void symlinkedOutputIsFollowed() {
    Scratch scratch;
    writeFile(scratch.path("data.csv"), smallCsv(40));
    QDir(scratch.root()).mkdir("results");
    writeFile(scratch.path("results/old.json"), "old contents\n");
    QVERIFY(QFile::link(scratch.path("results/old.json"), scratch.path("latest.json")));
    const CliResult r = runGamboost({"fit", "--data", scratch.path("data.csv"), "--out", scratch.path("latest.json"),
                                     "--knots", "4", "--mstop", "5", "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    // The link stays a link; the file it points to holds the new result.
    QVERIFY(QFileInfo(scratch.path("latest.json")).isSymLink());
    QVERIFY(readJson(scratch.path("results/old.json")).contains("fitted"));
    QCOMPARE(QDir(scratch.path("results")).entryList(QDir::Files | QDir::Hidden), QStringList{"old.json"});
    // A loop of links cannot be followed: refused, both links left as they were (the rename replaced the first).
    QVERIFY(QFile::link("loop2", scratch.path("loop1")) && QFile::link("loop1", scratch.path("loop2")));
    verifyRejected(runGamboost({"fit", "--data", scratch.path("data.csv"), "--out", scratch.path("loop1"), "--quiet",
                                "--mstop", "5"}),
                   "--out: .*loop1: cannot write: a loop of symbolic links");
    QCOMPARE(QFileInfo(scratch.path("loop1")).symLinkTarget(), scratch.path("loop2"));
  }

  // A disk that fills while the second file is written: neither file may appear (the first was complete).
  // RLIMIT_FSIZE stands in for the full disk: a write past it fails with EFBIG, as one fails with ENOSPC.
  void fullDiskLeavesNothing() {
    Scratch scratch;
    // Many learners and few rows: model.json (indented) is larger than result.json, so the model fails second.
    QVERIFY(runGamboost({"generate", "--rows", "100", "--covariates", "60", "--informative", "5", "--out",
                         scratch.path("d.csv")})
                .exitCode == 0);
    const QStringList fit{"fit",
                          "--data",
                          scratch.path("d.csv"),
                          "--out",
                          scratch.path("r.json"),
                          "--model",
                          scratch.path("m.json"),
                          "--knots",
                          "5",
                          "--mstop",
                          "300",
                          "--quiet"};
    const CliResult ok = runGamboost(fit);
    QVERIFY2(ok.exitCode == 0, qPrintable(ok.describe()));
    const qint64 result = QFileInfo(scratch.path("r.json")).size(), model = QFileInfo(scratch.path("m.json")).size();
    qInfo("result.json %lld bytes, model.json %lld bytes", result, model);
    QVERIFY(QFile::remove(scratch.path("r.json")) && QFile::remove(scratch.path("m.json")));
    // ulimit -f counts 512-byte blocks in dash: a limit between the two sizes.
    const qint64 blocks = (std::min(result, model) + std::max(result, model)) / 2 / 512;
    const CliResult r = runGamboostLimited(QString("ulimit -f %1").arg(blocks), fit);
    verifyRejected(r, std::max(result, model) == model ? "--model: .*m\\.json: cannot write" : "--out: .*cannot write");
    QCOMPARE(entries(scratch), (QStringList{"d.csv", "d.csv.truth.json"}));
  }

  // generate: the disk fills while the CSV is written; its truth file must not appear either.
  void fullDiskDuringGenerateLeavesNothing() {
    Scratch scratch;
    const CliResult r =
        runGamboostLimited("ulimit -f 200", {"generate", "--rows", "20000", "--covariates", "10", "--informative", "2",
                                             "--out", scratch.path("g.csv"), "--quiet"});
    verifyRejected(r, "--out: .*g\\.csv: cannot write: File too large");
    QCOMPARE(entries(scratch), QStringList{});
  }

  // The path stores learner indices: a column name of a megabyte appears a few times in result.json, not once
  // per iteration (a 4.6 MB name used to make a 468 MB result.json).
  void longNamesKeepTheResultSmall() {
    Scratch scratch;
    const QByteArray name(1 << 20, 'n');
    QByteArray csv = "y," + name + "\n";
    for (int i = 0; i < 50; ++i) csv += QByteArray::number(std::sin(i * 0.3)) + "," + QByteArray::number(i) + "\n";
    writeFile(scratch.path("data.csv"), csv);
    const CliResult r = runGamboost({"fit", "--data", scratch.path("data.csv"), "--out", scratch.path("r.json"),
                                     "--knots", "4", "--mstop", "200", "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe().left(2000)));
    const qint64 size = QFileInfo(scratch.path("r.json")).size();
    qInfo("result.json: %lld bytes for a %d-byte name and 200 iterations", size, static_cast<int>(name.size()));
    QVERIFY2(size < 4 * name.size(), qPrintable(QString::number(size)));
  }

  void sigtermDuringTheWriteLeavesNothing_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("marker");  // the temporary file whose creation triggers the signal
    QTest::addColumn<int>("signal");
    // generate: a 60 MB CSV written while it is generated.
    QTest::newRow("generate") << QStringList{"generate",      "--rows", "3000000", "--covariates", "3",
                                             "--informative", "2",      "--out",   "{dir}/g.csv",  "--quiet"}
                              << ".g.csv.tmp-" << int(SIGTERM);
    // fit: a result.json of about 20 MB (one fitted value per row of a million rows).
    const QStringList fit{"fit",     "--data", "{dir}/big.csv", "--out", "{dir}/r.json",
                          "--knots", "4",      "--mstop",       "2",     "--quiet"};
    QTest::newRow("fit result of 20 MB") << fit << ".r.json.tmp-" << int(SIGTERM);
    // Other signals that end a process by default: they left the temporary file behind.
    QTest::newRow("fit, SIGUSR1") << fit << ".r.json.tmp-" << int(SIGUSR1);
    QTest::newRow("fit, SIGXCPU (ulimit -t)") << fit << ".r.json.tmp-" << int(SIGXCPU);
  }

  void sigtermDuringTheWriteLeavesNothing() {
    QFETCH(QStringList, args);
    QFETCH(QString, marker);
    QFETCH(int, signal);
    Scratch scratch;
    QStringList before;
    if (args.contains("{dir}/big.csv")) {
      QVERIFY(runGamboost({"generate", "--rows", "1000000", "--covariates", "1", "--informative", "1", "--out",
                           scratch.path("big.csv"), "--quiet"})
                  .exitCode == 0);
      before = entries(scratch);
    }
    for (QString& a : args) a.replace("{dir}", scratch.root());
    const Killed k = runAndTerminateOnCreate(args, scratch.root(), marker, signal);
    QVERIFY2(k.signalled, qPrintable("the temporary file never appeared; stderr: " + k.err));
    QVERIFY2(k.endedBySignal, qPrintable(QString("exit %1, stderr: %2").arg(k.exitCode).arg(k.err)));
    QCOMPARE(entries(scratch), before);
  }

  void threadsAreCappedWithANote() {
    Scratch scratch;
    writeFile(scratch.path("data.csv"), smallCsv(40));
    const CliResult r = runGamboost({"fit", "--data", scratch.path("data.csv"), "--out", scratch.path("r.json"),
                                     "--knots", "4", "--mstop", "5", "--threads", "20000", "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY2(r.err.contains("--threads 20000 capped at"), qPrintable(r.err));
    const int used = readJson(scratch.path("r.json"))["settings"].toObject()["compute"].toObject()["threads"].toInt();
    QVERIFY2(used >= 1 && used <= 2 * QThread::idealThreadCount(), qPrintable(QString::number(used)));
  }

  // A fit whose k x k matrices alone need about 600 GB is refused before set-up, whatever the machine.
  void memoryBeyondTheMachineIsRefusedUpFront() {
    Scratch scratch;
    QVERIFY(runGamboost({"generate", "--rows", "50010", "--covariates", "3", "--informative", "1", "--out",
                         scratch.path("d.csv"), "--quiet"})
                .exitCode == 0);
    const CliResult r = runGamboost(
        {"fit", "--data", scratch.path("d.csv"), "--out", scratch.path("r.json"), "--knots", "50000", "--quiet"});
    verifyRejected(r, "--knots: the fit needs about .* of memory .* only .* available");
    QVERIFY(!QFileInfo::exists(scratch.path("r.json")));
  }

  // Under an address-space limit (ulimit -v), a fit whose matrices need ~6 GB is refused before set-up. Not under
  // AddressSanitizer: its shadow memory reserves terabytes of address space, so no such limit lets it start.
  void addressSpaceLimitIsRespected() {
#ifdef GB_SANITIZED
    QSKIP("AddressSanitizer cannot run under ulimit -v (its shadow memory needs terabytes of address space)");
#endif
    Scratch scratch;
    QVERIFY(generated(scratch, "6000"));
    const CliResult r = runGamboostLimited("ulimit -v 3000000", {"fit", "--data", scratch.path("d.csv"), "--out",
                                                                 scratch.path("r.json"), "--knots", "5000", "--quiet"});
    verifyRejected(r, "--knots: the fit needs about .* of memory .* only .* available");
    QVERIFY(!QFileInfo::exists(scratch.path("r.json")));
  }

  // Folds and bootstrap refits run two at a time, each checking only its own footprint: under a limit that passes
  // one fit but not two, a std::bad_alloc in a worker thread's parallel region used to abort the program (exit
  // 134). Now as many run at once as fit, and what does not fit even alone is refused, naming --knots.
  void foldsUnderAnAddressSpaceLimitNeverAbort() {
#ifdef GB_SANITIZED
    QSKIP("AddressSanitizer cannot run under ulimit -v (its shadow memory needs terabytes of address space)");
#endif
    Scratch scratch;
    QVERIFY(generated(scratch, "200"));
    const QStringList common{"--data", scratch.path("d.csv"), "--knots", "1200",   "--mstop",
                             "5",      "--threads",           "2",       "--quiet"};
    for (const QStringList& args : {QStringList{"cv", "--kfold", "2", "--out", scratch.path("cv.json")} + common,
                                    QStringList{"fit", "--bands", "2", "--out", scratch.path("r.json")} + common}) {
      // 4 folds at 800000 aborted 4 times in 4 before
      runsOrIsRefused("ulimit -v 800000", args, "--knots: the fit needs about .* of memory");
    }
  }

  // A long path on few rows: its step log (8 k bytes an iteration) and result.json's path are in the footprint, and a
  // batch of fast iterations holds at most 4096 deltas. Under this limit a fit of mstop 1e6 on 10 rows aborted in
  // result.json's document (std::bad_alloc thrown inside nlohmann's destructor: exit 134), and cv hung or ended
  // with exit 1; now both are refused naming --mstop, or run within the limit.
  void longPathsUnderAnAddressSpaceLimit() {
#ifdef GB_SANITIZED
    QSKIP("AddressSanitizer cannot run under ulimit -v (its shadow memory needs terabytes of address space)");
#endif
    Scratch scratch;
    QVERIFY(generated(scratch, "10"));
    const QStringList common{"--data", scratch.path("d.csv"), "--mstop", "1000000", "--threads", "2", "--quiet"};
    for (const QStringList& args : {QStringList{"fit", "--out", scratch.path("r.json")} + common,
                                    QStringList{"cv", "--kfold", "2", "--out", scratch.path("cv.json")} + common}) {
      for (const char* limit : {"ulimit -v 300000", "ulimit -v 450000"})
        runsOrIsRefused(limit, args, "--mstop: the fit needs about .* of memory");
    }
  }

  void benchCsvWithAMissingFile() {
    Scratch scratch;
    verifyRejected(runGamboost({"bench", "csv", "--file", scratch.path("nope.csv")}), "--file: .*nope\\.csv");
  }
};

QTEST_GUILESS_MAIN(CliOutputsTest)
#include "test_cli_outputs.moc"

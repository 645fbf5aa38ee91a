#include "support/CliRunner.hpp"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>
#include <cmath>

namespace gbtest {

QStringList CliResult::errLines() const {
  QStringList lines;
  for (const QString& line : err.split('\n'))
    if (!line.trimmed().isEmpty()) lines << line;
  return lines;
}

QString CliResult::describe() const {
  return QStringLiteral("exit %1%2\n--- stdout:\n%3--- stderr:\n%4")
      .arg(exitCode)
      .arg(finished ? (crashed ? " (crashed)" : "") : " (did not finish)")
      .arg(out, err);
}

namespace {

CliResult runProcess(const QString& program, const QStringList& arguments, int timeoutMs) {
  QProcess process;
  process.setProgram(program);
  process.setArguments(arguments);
  process.start();
  CliResult result;
  if (!process.waitForStarted(10000)) {
    result.err = QStringLiteral("could not start ") + GB_CLI_PATH;
    return result;
  }
  result.finished = process.waitForFinished(timeoutMs);
  if (!result.finished) {
    process.kill();
    process.waitForFinished(5000);
  }
  result.crashed = process.exitStatus() == QProcess::CrashExit;
  result.exitCode = process.exitCode();
  result.out = QString::fromUtf8(process.readAllStandardOutput());
  result.err = QString::fromUtf8(process.readAllStandardError());
  return result;
}

}  // namespace

CliResult runGamboost(const QStringList& arguments, int timeoutMs) {
  return runProcess(QStringLiteral(GB_CLI_PATH), arguments, timeoutMs);
}

CliResult runGamboostLimited(const QString& limits, const QStringList& arguments, int timeoutMs) {
  // sh -c 'LIMITS; exec "$0" "$@"' gamboost ARGS: the arguments reach gamboost unquoted and untouched.
  return runProcess(QStringLiteral("/bin/sh"),
                    QStringList{"-c", limits + "; exec \"$0\" \"$@\"", QStringLiteral(GB_CLI_PATH)} + arguments,
                    timeoutMs);
}

void verifyRejected(const CliResult& r, const QString& pattern) {
  QVERIFY2(r.finished && !r.crashed, qPrintable(r.describe()));
  QVERIFY2(r.exitCode == 2, qPrintable(r.describe()));
  const QStringList lines = r.errLines();
  QVERIFY2(lines.size() == 1, qPrintable(r.describe()));
  QVERIFY2(lines.front().startsWith("gamboost: "), qPrintable(r.describe()));
  QVERIFY2(QRegularExpression(pattern).match(lines.front()).hasMatch(),
           qPrintable("expected /" + pattern + "/ in: " + lines.front()));
  QVERIFY2(r.out.trimmed().isEmpty(), qPrintable(r.describe()));
}

Scratch::Scratch() {
  QString base = qEnvironmentVariable("GB_TEST_TMP");
  if (base.isEmpty()) base = QDir::tempPath();
  QDir().mkpath(base);
  dir_ = std::make_unique<QTemporaryDir>(base + QStringLiteral("/cli-XXXXXX"));
}

void writeFile(const QString& path, const QByteArray& contents) {
  QFile file(path);
  QVERIFY2(file.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
  QCOMPARE(file.write(contents), contents.size());
}

QByteArray readFile(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return file.readAll();
}

nlohmann::json readJsonFile(const QString& path) {
  const QByteArray text = readFile(path);
  return nlohmann::json::parse(text.constData(), text.constData() + text.size());
}

QByteArray smallCsv(int rows) {
  QByteArray csv = "y,x1,x2,x3\n";
  for (int i = 0; i < rows; ++i) {
    const double x1 = static_cast<double>(i) / (rows - 1);
    // A golden-ratio sequence fills [0,1) evenly without following x1; the ends are pinned to 0 and 1.
    double x2 = std::fmod(i * 0.6180339887498949, 1.0);
    if (i == 1) x2 = 1.0;
    const double x3 = std::fmod(i * 0.4142135623730951 + 0.5, 1.0);
    const double y = 2.0 + std::sin(2.0 * M_PI * x1) + x2 * x2;
    csv += QByteArray::number(y, 'g', 17) + ',' + QByteArray::number(x1, 'g', 17) + ',' +
           QByteArray::number(x2, 'g', 17) + ',' + QByteArray::number(x3, 'g', 17) + '\n';
  }
  return csv;
}

std::vector<double> readColumn(const QString& path, QString* header) {
  std::vector<double> values;
  const QList<QByteArray> lines = readFile(path).split('\n');
  for (int i = 0; i < lines.size(); ++i) {
    const QByteArray line = lines[i].trimmed();
    if (line.isEmpty()) continue;
    if (i == 0) {
      if (header) *header = QString::fromUtf8(line);
      continue;
    }
    bool ok = false;
    values.push_back(line.toDouble(&ok));
    if (!ok) values.back() = std::nan("");
  }
  return values;
}

}  // namespace gbtest

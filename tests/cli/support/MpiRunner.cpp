#include "support/MpiRunner.hpp"

#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

namespace gbtest {

QString findMpirun() { return QStandardPaths::findExecutable("mpirun"); }

QString defaultOpenClAddress() {
  const CliResult r = runGamboost({"devices", "--json"});
  if (r.exitCode != 0) return {};
  const QByteArray text = r.out.toUtf8();
  const nlohmann::json list = nlohmann::json::parse(text.constData(), text.constData() + text.size());
  for (const nlohmann::json& d : list["devices"])
    if (d["backend"] == "opencl" && d["default"].get<bool>()) return QString::fromStdString(d["address"]);
  return {};
}

CliResult runMpirun(const QString& mpirun, const QStringList& arguments, int timeoutMs) {
  QProcess process;
  process.setProgram(mpirun);
  process.setArguments(QStringList{"--oversubscribe", "--allow-run-as-root"} + arguments);
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("OMPI_MCA_btl_vader_single_copy_mechanism", "none");  // containers often forbid cross-memory attach
  // Each mpirun gets its own session directory. They all default to /tmp/ompi.<host>.<uid>, and one mpirun of a test
  // (ctest -j runs the two MPI tests side by side) failed with "mkdir /tmp/ompi.vm.0: File exists" while another
  // created or removed it.
  QTemporaryDir session;
  if (!session.isValid()) {
    CliResult failed;
    failed.err = "cannot create a temporary directory for mpirun's session: " + session.errorString();
    return failed;
  }
  env.insert("OMPI_MCA_orte_tmpdir_base", session.path());
  process.setProcessEnvironment(env);
  process.start();
  CliResult result;
  if (!process.waitForStarted(10000)) return result;
  result.finished = process.waitForFinished(timeoutMs);
  if (!result.finished) process.kill();  // a rank left waiting: the test fails (finished is false)
  result.crashed = process.exitStatus() == QProcess::CrashExit;
  result.exitCode = process.exitCode();
  result.out = QString::fromUtf8(process.readAllStandardOutput());
  result.err = QString::fromUtf8(process.readAllStandardError());
  return result;
}

CliResult runRanks(const QString& mpirun, int ranks, const QStringList& arguments) {
  return runMpirun(mpirun, QStringList{"-np", QString::number(ranks), GB_CLI_PATH} + arguments);
}

nlohmann::json readJson(const QString& path) {
  const QByteArray text = readFile(path);
  return nlohmann::json::parse(text.constData(), text.constData() + text.size());
}

double relativeDifference(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.size() != b.size() || a.empty()) return INFINITY;
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].is_null() != b[i].is_null()) return INFINITY;
    if (a[i].is_null()) continue;
    const double x = a[i].get<double>(), y = b[i].get<double>();
    diff += (x - y) * (x - y);
    norm += x * x;
  }
  return std::sqrt(diff / norm);
}

void verifyPartsRead(const nlohmann::json& record, int ranks, qint64 fileBytes, std::size_t rows) {
  const QString text = QString::fromStdString(record.dump());
  QVERIFY2(record.is_object() && record["ranks"] == ranks && record["read"] == "parts", qPrintable(text));
  const nlohmann::json& parts = record["parts"];
  QVERIFY2(parts.size() == static_cast<std::size_t>(ranks), qPrintable(text));
  std::uint64_t row = 0;
  for (std::size_t r = 0; r < parts.size(); ++r) {
    const nlohmann::json& p = parts[r];
    const std::uint64_t count = p["rows"][1];
    QVERIFY2(p["rank"] == r && p["rows"][0] == row && p["rows_read"] == count, qPrintable(text));
    QVERIFY2(ranks == 1 || count < rows, qPrintable(text));
    if (r > 0) QVERIFY2(p["bytes"][0] == parts[r - 1]["bytes"][1], qPrintable(text));
    row += count;
  }
  QVERIFY2(row == rows, qPrintable(text));
  QVERIFY2(parts.back()["bytes"][1] == static_cast<std::uint64_t>(fileBytes), qPrintable(text));
  QVERIFY2(parts.front()["bytes"][0] > 0, qPrintable(text));  // after the header
}

QStringList gamboostLines(const CliResult& r) {
  QStringList lines;
  for (const QString& line : r.errLines())
    if (line.startsWith("gamboost: ") && !lines.contains(line)) lines.push_back(line);
  return lines;
}

}  // namespace gbtest

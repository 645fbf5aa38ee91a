#pragma once
// Runs the gamboost binary (GB_CLI_PATH) in a child process and collects its exit status and output,
// plus a scratch directory under $GB_TEST_TMP that disappears with the test.
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

namespace gbtest {

struct CliResult {
  int exitCode = -1;
  bool finished = false;  // false: timed out or crashed (exitCode is then meaningless)
  bool crashed = false;
  QString out;
  QString err;
  QStringList errLines() const;  // non-empty stderr lines
  QString describe() const;      // for failure messages
};

CliResult runGamboost(const QStringList& arguments, int timeoutMs = 60000);
// The same under a shell's resource limits, e.g. "ulimit -f 100" (a file-size limit: a disk that fills up) or
// "ulimit -v 2000000" (an address-space limit).
CliResult runGamboostLimited(const QString& limits, const QStringList& arguments, int timeoutMs = 60000);

// The rejection contract of every command: exit status 2, stdout empty, exactly one stderr line
// "gamboost: ..." matching `pattern` (the file:line:column or the --option it must name).
// A QVERIFY helper: callers check QTest::currentTestFailed() before going on.
void verifyRejected(const CliResult& result, const QString& pattern);

class Scratch {
 public:
  Scratch();
  bool isValid() const { return dir_->isValid(); }
  QString path(const QString& name) const { return dir_->filePath(name); }
  QString root() const { return dir_->path(); }

 private:
  std::unique_ptr<QTemporaryDir> dir_;
};

void writeFile(const QString& path, const QByteArray& contents);
QByteArray readFile(const QString& path);
// The file parsed as JSON (nlohmann::json throws on a missing or broken file, which fails the test with its message).
nlohmann::json readJsonFile(const QString& path);

// Small deterministic data (no random numbers, so nothing to seed): y = 2 + sin(2 pi x1) + x2^2, x3 pure noise-free
// filler. `rows` data rows, header "y,x1,x2,x3"; x values span [0, 1] exactly (first and last rows hit the ends).
QByteArray smallCsv(int rows);

// Numbers of a one-column CSV written by `gamboost predict` (header line skipped).
std::vector<double> readColumn(const QString& path, QString* header = nullptr);

}  // namespace gbtest

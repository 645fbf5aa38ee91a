// OutputFiles: several outputs appear together or not at all; inputs are never outputs; links are followed;
// nothing temporary is left behind whatever fails.
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>
#include <stdexcept>

#include "common/Error.hpp"
#include "data/OutputFiles.hpp"

namespace {

QStringList entries(const QTemporaryDir& dir) {
  return QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name);
}

std::string path(const QTemporaryDir& dir, const char* name) { return dir.filePath(name).toStdString(); }

QByteArray contents(const std::string& file) {
  QFile f(QString::fromStdString(file));
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Writes `text` to dir/name; false if the file could not be written.
bool writeText(const QTemporaryDir& dir, const char* name, const QByteArray& text) {
  QFile f(dir.filePath(name));
  return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

// Runs f, expecting an InputError whose message contains `part`.
template <typename F>
void expectInputError(F f, const QString& part) {
  try {
    f();
    QFAIL(qPrintable("no error, expected one containing " + part));
  } catch (const gb::InputError& e) {
    QVERIFY2(QString(e.what()).contains(part), e.what());
  }
}

}  // namespace

class OutputFilesTest : public QObject {
  Q_OBJECT

 private slots:
  void allAppearAtCommit() {
    QTemporaryDir dir;
    gb::OutputFiles out;
    out.addOutput(path(dir, "a.json"), "--out");
    out.addOutput(path(dir, "b.json"), "--model");
    out.write(path(dir, "a.json"), [](std::ostream& s) { s << "A"; });
    out.write(path(dir, "b.json"), [](std::ostream& s) { s << "B"; });
    QCOMPARE(entries(dir).size(), 2);  // both still temporary
    QVERIFY(!entries(dir).contains("a.json"));
    out.commit();
    QCOMPARE(entries(dir), (QStringList{"a.json", "b.json"}));
    QCOMPARE(contents(path(dir, "a.json")), QByteArray("A"));
  }

  void aFailedWriteLeavesNoFile() {
    QTemporaryDir dir;
    {
      gb::OutputFiles out;
      out.addOutput(path(dir, "a.json"), "--out");
      out.addOutput(path(dir, "b.json"), "--model");
      out.write(path(dir, "a.json"), [](std::ostream& s) { s << "A"; });
      QVERIFY_THROWS_EXCEPTION(std::runtime_error, out.write(path(dir, "b.json"), [](std::ostream&) {
        throw std::runtime_error("the writer failed");
      }));
    }  // destroyed without commit
    QCOMPARE(entries(dir), QStringList{});
  }

  void anExistingTargetIsKeptUntilCommit() {
    QTemporaryDir dir;
    QVERIFY(writeText(dir, "a.json", "old"));
    {
      gb::OutputFiles out;
      out.addOutput(path(dir, "a.json"), "--out");
      out.write(path(dir, "a.json"), [](std::ostream& s) { s << "new"; });
      QCOMPARE(contents(path(dir, "a.json")), QByteArray("old"));
    }
    QCOMPARE(contents(path(dir, "a.json")), QByteArray("old"));
    QCOMPARE(entries(dir), QStringList{"a.json"});
  }

  void inputsAreNeverOutputs() {
    QTemporaryDir dir;
    QVERIFY(writeText(dir, "data.csv", "y\n1\n"));
    QVERIFY(QFile::link(dir.filePath("data.csv"), dir.filePath("link.csv")));
    QVERIFY(::link(path(dir, "data.csv").c_str(), path(dir, "hard.csv").c_str()) == 0);
    for (const char* name : {"data.csv", "link.csv", "hard.csv"}) {
      gb::OutputFiles out;
      out.addInput(path(dir, "data.csv"), "--data");
      expectInputError([&] { out.addOutput(path(dir, name), "--out"); }, "--out");
    }
  }

  // fit --mstop cv declared its --folds-file after its outputs, and the clash went unseen.
  void anInputDeclaredAfterAnOutputIsStillChecked() {
    QTemporaryDir dir;
    QVERIFY(writeText(dir, "folds.csv", "f1\n1\n"));
    gb::OutputFiles out;
    out.addOutput(path(dir, "folds.csv"), "--out");
    expectInputError([&] { out.addInput(path(dir, "folds.csv"), "--folds-file"); },
                     "--out: " + dir.filePath("folds.csv") + " is also the input --folds-file");
  }

  // The second rename fails (its target became a directory during the work): the first target, already replaced,
  // is put back, and one that did not exist is removed. Nothing temporary stays.
  void aFailedRenameUndoesTheEarlierOnes() {
    QTemporaryDir dir;
    QVERIFY(writeText(dir, "a.json", "old a"));
    {
      gb::OutputFiles out;
      out.addOutput(path(dir, "a.json"), "--out");
      out.addOutput(path(dir, "new.json"), "--bands");
      out.addOutput(path(dir, "b.json"), "--model");
      for (const char* name : {"a.json", "new.json", "b.json"})
        out.write(path(dir, name), [](std::ostream& s) { s << "new"; });
      QVERIFY(QDir(dir.path()).mkdir("b.json"));
      expectInputError([&] { out.commit(); }, "--model: " + dir.filePath("b.json") + ": cannot write");
    }
    QCOMPARE(contents(path(dir, "a.json")), QByteArray("old a"));
    QCOMPARE(entries(dir), (QStringList{"a.json", "b.json"}));
  }

  // A private file stays private when replaced (it became 0644).
  void aReplacedFileKeepsItsPermissions() {
    QTemporaryDir dir;
    QVERIFY(writeText(dir, "a.json", ""));
    QVERIFY(QFile::setPermissions(dir.filePath("a.json"), QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    gb::OutputFiles out;
    out.addOutput(path(dir, "a.json"), "--out");
    out.write(path(dir, "a.json"), [](std::ostream& s) { s << "new"; });
    out.commit();
    QCOMPARE(contents(path(dir, "a.json")), QByteArray("new"));
    struct stat st {};
    QCOMPARE(::stat(path(dir, "a.json").c_str(), &st), 0);
    QCOMPARE(st.st_mode & 07777, 0600u);
  }

  void twoOptionsNamingOneFileAreRefused() {
    QTemporaryDir dir;
    gb::OutputFiles out;
    out.addOutput(path(dir, "r.json"), "--out");
    expectInputError([&] { out.addOutput(dir.path().toStdString() + "/./r.json", "--model"); }, "--model");
  }

  // Relative names of a file that does not exist yet: "r.json" and "./r.json" (fit --out r.json --model ./r.json
  // exited 0 with the model alone in r.json), and an absolute spelling beside a relative one.
  void relativeSpellingsOfOneMissingFileAreRefused() {
    QTemporaryDir dir;
    const QString before = QDir::currentPath();
    QVERIFY(QDir::setCurrent(dir.path()));
    struct Restore {
      QString path;
      ~Restore() { QDir::setCurrent(path); }
    } restore{before};
    gb::OutputFiles out;
    out.addOutput("r.json", "--out");
    expectInputError([&] { out.addOutput("./r.json", "--model"); }, "--model: ./r.json is also the output --out");
    expectInputError([&] { out.addOutput(path(dir, "r.json"), "--refit"); }, "is also the output --out");
    expectInputError([&] { out.addOutput("sub/../r.json", "--bands"); }, "is also the output --out");
  }

  void badTargetsAreRefusedUpFront() {
    QTemporaryDir dir;
    gb::OutputFiles out;
    expectInputError([&] { out.addOutput("", "--out"); }, "--out: empty");
    expectInputError([&] { out.addOutput(dir.path().toStdString(), "--out"); }, "directory");
    expectInputError([&] { out.addOutput(path(dir, "missing/r.json"), "--out"); }, "missing/r.json");
    expectInputError([&] { out.addOutput("/dev/null", "--out"); }, "regular file");
    QCOMPARE(entries(dir), QStringList{});
  }

  void linksAreFollowed() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir("sub"));
    QVERIFY(QFile::link("sub/target.json", dir.filePath("relative.json")));  // relative to the link's folder
    QCOMPARE(gb::resolveOutputPath(path(dir, "relative.json")), path(dir, "sub/target.json"));
    gb::OutputFiles out;
    out.addOutput(path(dir, "relative.json"), "--out");
    out.write(path(dir, "relative.json"), [](std::ostream& s) { s << "via the link"; });
    out.commit();
    QVERIFY(QFileInfo(dir.filePath("relative.json")).isSymLink());
    QCOMPARE(contents(path(dir, "sub/target.json")), QByteArray("via the link"));
  }

  void spaceBeyondTheDiskIsRefused() {
    QTemporaryDir dir;
    gb::OutputFiles out;
    out.addOutput(path(dir, "huge.csv"), "--out", std::uint64_t{1} << 62);  // 4 EiB
    expectInputError([&] { out.checkSpace(); }, "--out: about");
  }
};

QTEST_GUILESS_MAIN(OutputFilesTest)
#include "test_output_files.moc"

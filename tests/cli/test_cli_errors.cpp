// Acceptance point 4: every bad input or option ends with exit status 2, exactly one line on stderr that
// names the file:line:column or the option, and no output file (nor a temporary one) left behind.
#include <QDir>
#include <QFileInfo>
#include <QtTest>

#include "support/CliRunner.hpp"

using namespace gbtest;

namespace {

QString expand(QString text, const Scratch& scratch) { return text.replace("{dir}", scratch.root()); }

QStringList expand(const QStringList& list, const Scratch& scratch) {
  QStringList out;
  for (const QString& s : list) out << expand(s, scratch);
  return out;
}

// The rejection contract, checked the same way for every command.
void expectRejected(const CliResult& r, const QString& pattern, const QStringList& mustNotExist, const Scratch& scratch,
                    const QStringList& allowedFiles) {
  verifyRejected(r, pattern);
  if (QTest::currentTestFailed()) return;
  for (const QString& path : mustNotExist) QVERIFY2(!QFileInfo::exists(path), qPrintable(path + " exists"));
  // Nothing else either: a failed atomic write must also remove its temporary file.
  const QStringList left = QDir(scratch.root()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
  for (const QString& name : left)
    QVERIFY2(allowedFiles.contains(name), qPrintable("unexpected file left behind: " + name));
}

QByteArray constantColumnCsv() {
  QByteArray csv = "y,x1,x2\n";
  for (int i = 0; i < 40; ++i) csv += QByteArray::number(i % 7) + "," + QByteArray::number(i * 0.025) + ",3.5\n";
  return csv;
}

}  // namespace

class CliErrorsTest : public QObject {
  Q_OBJECT

 private slots:
  void fitRejects_data();
  void fitRejects();
  void generateRejects_data();
  void generateRejects();
  void predictRejects_data();
  void predictRejects();
  void absurdOpenMpThreadCountIsCapped();
  void misspeltOptionIsNamedBeforeMissingOnes();
};

void CliErrorsTest::fitRejects_data() {
  QTest::addColumn<QString>("file");  // data file name inside the scratch dir
  QTest::addColumn<bool>("create");   // write `contents` to it (false: the file is missing)
  QTest::addColumn<QByteArray>("contents");
  QTest::addColumn<QStringList>("options");  // extra options; {dir} is the scratch dir
  QTest::addColumn<QString>("out");
  QTest::addColumn<QString>("pattern");  // what the one stderr line must name

  const QByteArray good = smallCsv(40);
  const QString out = "{dir}/out.json";
  const QStringList none;
  // Bad files: the message names file:line:column (line 3 = the second data row).
  QTest::newRow("missing file") << "missing.csv" << false << QByteArray() << none << out << R"(missing\.csv)";
  QTest::newRow("empty file") << "empty.csv" << true << QByteArray() << none << out << R"(empty\.csv)";
  QTest::newRow("header only") << "header.csv" << true << QByteArray("y,x1,x2\n") << none << out << R"(header\.csv)";
  QTest::newRow("ragged row") << "ragged.csv" << true << QByteArray("y,x1,x2\n1,2,3\n4,5\n6,7,8\n") << none << out
                              << R"(ragged\.csv:3\b)";
  // A text cell makes a factor column and NA / NaN / empty cells are missing values (R's write.csv): they are
  // errors only where a number is needed or with --missing fail.
  QTest::newRow("text cell in a spline") << "text.csv" << true << QByteArray("y,x1,x2\n1,2,3\n4,abc,6\n")
                                         << QStringList{"--spline", "x1,x2"} << out
                                         << R"(text\.csv:3:2: --spline: column 'x1' holds text \('abc'\))";
  // An empty file name was ignored (--model) or read as the file "" ("gamboost: : cannot open").
  QTest::newRow("--model ''") << "good.csv" << true << good << QStringList{"--model", ""} << out
                              << R"(--model: empty file name)";
  QTest::newRow("NaN, --missing fail") << "nan.csv" << true << QByteArray("y,x1,x2\n1,2,3\n4,NaN,6\n")
                                       << QStringList{"--missing", "fail"} << out << R"(nan\.csv:3:2: column 'x1')";
  QTest::newRow("Inf") << "inf.csv" << true << QByteArray("y,x1,x2\n1,2,3\n4,5,inf\n") << none << out
                       << R"(inf\.csv:3:\d+)";
  QTest::newRow("empty cell, --missing fail")
      << "hole.csv" << true << QByteArray("y,x1,x2\n1,2,3\n4,,6\n") << QStringList{"--missing", "fail"} << out
      << R"(hole\.csv:3:2: column 'x1')";
  QTest::newRow("duplicate column names")
      << "dup.csv" << true << QByteArray("y,x1,x1\n1,2,3\n4,5,6\n") << none << out << R"(dup\.csv:1\b)";
  // Bad columns for this data.
  QTest::newRow("unknown response") << "data.csv" << true << good << QStringList{"--response", "nosuch"} << out
                                    << "nosuch";
  // No header row (R's write.table(col.names = FALSE)): the first data row became the names.
  QTest::newRow("no header row") << "nohead.csv" << true << QByteArray("1,0.5,2\n3,0.25,4\n5,0.75,1\n") << none << out
                                 << R"(--response: no column named 'y' .*is the header row missing)";
  QTest::newRow("unknown learner") << "data.csv" << true << good << QStringList{"--learners", "x1,x9"} << out
                                   << R"(\bx9\b)";
  // Two rows fit (unpenalised, with a note); held out to one, x1's spline has one value: the holdout, the file and the
  // learner are named.
  QTest::newRow("one distinct value left")
      << "two.csv" << true << QByteArray("y,x1\n1,0.5\n2,0.7\n") << QStringList{"--holdout", "0.5", "--seed", "1"}
      << out
      << R"(--holdout: the fit on the 1 used rows it keeps fails: \S*two\.csv: learner 'x1': basis columns are not )"
         R"(identifiable)";
  // One row of positive weight: B'WB + S is singular, yet its Cholesky factor succeeded on rounding-level pivots
  // and the fit took steps that were not least squares (the row fitted 43 off its y at nu 1, exit 0).
  QTest::newRow("one weighted row")
      << "one.csv" << true
      << QByteArray(
             "y,x1,w\n-11.76828213040418,0.5822366932241867,0\n0.08705405503095272,0.8519186788087267,0\n"
             "-11.349882465287969,0.701367561000227,0\n-11.141565638715303,0.8787315594909788,0\n"
             "14.008362791996564,0.8251797521810806,1\n")
      << QStringList{"--weights", "w", "--spline", "x1", "--offset", "100", "--nu", "1"} << out
      << R"(one\.csv: learner 'x1': basis columns are not identifiable)";
  QTest::newRow("seed without resampling")
      << "data.csv" << true << good << QStringList{"--seed", "3"} << out << "--seed: draws the folds of --mstop cv";
  QTest::newRow("constant covariate") << "const.csv" << true << constantColumnCsv() << none << out << R"(\bx2\b)";
  // Bad options.
  QTest::newRow("knots 0") << "data.csv" << true << good << QStringList{"--knots", "0"} << out << "--knots";
  QTest::newRow("knots not a number") << "data.csv" << true << good << QStringList{"--knots", "abc"} << out
                                      << "--knots";
  QTest::newRow("knots fractional") << "data.csv" << true << good << QStringList{"--knots", "2.5"} << out << "--knots";
  QTest::newRow("degree 0") << "data.csv" << true << good << QStringList{"--degree", "0"} << out << "--degree";
  QTest::newRow("degree 6") << "data.csv" << true << good << QStringList{"--degree", "6"} << out << "--degree";
  QTest::newRow("edf at null space (2)") << "data.csv" << true << good << QStringList{"--edf", "2"} << out << "--edf";
  QTest::newRow("edf below null space (1.5)")
      << "data.csv" << true << good << QStringList{"--edf", "1.5"} << out << "--edf";
  QTest::newRow("nu 0") << "data.csv" << true << good << QStringList{"--nu", "0"} << out << "--nu";
  QTest::newRow("nu 1.5") << "data.csv" << true << good << QStringList{"--nu", "1.5"} << out << "--nu";
  QTest::newRow("nu nan") << "data.csv" << true << good << QStringList{"--nu", "nan"} << out << "--nu";
  QTest::newRow("mstop 0") << "data.csv" << true << good << QStringList{"--mstop", "0"} << out << "--mstop";
  QTest::newRow("unknown boundary") << "data.csv" << true << good << QStringList{"--boundary", "open"} << out
                                    << "--boundary";
  // CLI11 said "Could not convert: --threads = 99999999999"; "gpu" was one edit from "did you mean 'cpu'?".
  QTest::newRow("threads beyond int") << "data.csv" << true << good << QStringList{"--threads", "99999999999"} << out
                                      << R"(--threads: '99999999999' is too large \(at most 2147483647\))";
  QTest::newRow("backend gpu") << "data.csv" << true << good << QStringList{"--backend", "gpu"} << out
                               << "--backend: .*the GPU backend is 'opencl'";
  QTest::newRow("unknown option") << "data.csv" << true << good << QStringList{"--lambda", "3"} << out << "--lambda";
  // The CPU backend computes in double with its own method: result.json must not record a float or a kernel
  // that were not used.
  QTest::newRow("cpu in float") << "data.csv" << true << good << QStringList{"--precision", "float"} << out
                                << "--precision";
  QTest::newRow("cpu with a kernel") << "data.csv" << true << good << QStringList{"--kernel", "splitk"} << out
                                     << "--kernel";
  // Unwritable outputs: root ignores directory permissions, but nobody can create a file under a regular file.
  QTest::newRow("--out in missing directory") << "data.csv" << true << good << none << "{dir}/nodir/out.json"
                                              << R"(nodir/out\.json)";
  QTest::newRow("--out under a file") << "data.csv" << true << good << none << "{dir}/data.csv/out.json"
                                      << R"(data\.csv/out\.json)";
  QTest::newRow("--model under a file") << "data.csv" << true << good
                                        << QStringList{"--model", "{dir}/data.csv/model.json"} << out
                                        << R"(data\.csv/model\.json)";
  // Outputs that no file can be (an output naming an input: test_cli_outputs.cpp).
  QTest::newRow("--out is an empty name") << "data.csv" << true << good << none << ""
                                          << "--out: empty";
  QTest::newRow("--model is --out") << "data.csv" << true << good << QStringList{"--model", "{dir}/out.json"} << out
                                    << "--model.*--out";
  // Data whose squares overflow: the risk would be inf and every fitted value NaN.
  QByteArray huge = "y,x1\n";
  for (int i = 0; i < 40; ++i) huge += (i % 2 ? "1e308," : "-1e308,") + QByteArray::number(i) + "\n";
  QTest::newRow("response 1e308") << "huge.csv" << true << huge << none << out << R"(huge\.csv.*'y'.*rescale)";
  QByteArray large = "y,x1\n";
  for (int i = 0; i < 40; ++i) large += QByteArray::number(i * 1e170) + "," + QByteArray::number(i) + "\n";
  QTest::newRow("response 1e170 (squares overflow)")
      << "large.csv" << true << large << none << out << R"(large\.csv.*'y')";
  // Weights or a Huber d that make the risk inf or 0 are named, not the response (they blamed 'y').
  QByteArray heavy = "y,x1,w\n";
  for (int i = 0; i < 40; ++i)
    heavy += QByteArray::number(i % 7) + "," + QByteArray::number(i) + (i == 3 ? ",1e300\n" : ",1\n");
  QTest::newRow("one weight 1e300") << "heavy.csv" << true << heavy << QStringList{"--weights", "w"} << out
                                    << R"(--weights: the positive weights range from 1 to 1e\+300)";
  QTest::newRow("one weight 1e308") << "heavier.csv" << true << QByteArray(heavy).replace("1e300", "1e308")
                                    << QStringList{"--weights", "w"} << out
                                    << R"(--weights: the gaussian offset is inf with these weights)";
  // A given offset, the rows' own risk finite and the weighted one not: the weights are named, not 'y'.
  QByteArray heaviest = "y,x1,w\n";
  for (int i = 0; i < 200; ++i)
    heaviest +=
        QByteArray::number((i * 37) % 11) + "," + QByteArray::number(i / 200.0) + (i == 4 ? ",1.7e308\n" : ",1\n");
  QTest::newRow("one weight 1.7e308, a given offset")
      << "heaviest.csv" << true << heaviest << QStringList{"--weights", "w", "--offset", "3"} << out
      << R"(--weights: the weighted risk at the offset overflows a double \(the largest weight is 1.7e\+308\))";
  QTest::newRow("--huber-delta 1e-320") << "data.csv" << true << good
                                        << QStringList{"--family", "huber", "--huber-delta", "1e-320"} << out
                                        << R"(--huber-delta: .* is too small for residuals up to)";
  QTest::newRow("--holdout 1e-320 (std::stod threw: 'gamboost: stod')")
      << "data.csv" << true << good << QStringList{"--holdout", "1e-320"} << out << R"(--holdout: .*holds out 0 rows)";
  // Learners whose k x k matrices would not fit in memory are refused before any basis is built.
  QTest::newRow("knots 1000000 on 40 rows")
      << "data.csv" << true << good << QStringList{"--knots", "1000000"} << out << "--knots: the fit needs about";
  QTest::newRow("knots 100000000") << "data.csv" << true << good << QStringList{"--knots", "100000000"} << out
                                   << R"(--knots: must be in 1\.\.1000000)";
  // An option given twice: a sentence, not CLI11's "At Most 1 required but received 2".
  QTest::newRow("knots twice") << "data.csv" << true << good << QStringList{"--knots", "5", "--knots", "6"} << out
                               << "^gamboost: --knots: given 2 times; give it once$";
  // --device names an OpenCL device: on the CPU backend it was accepted and ignored (and recorded as used).
  QTest::newRow("device on the cpu backend") << "data.csv" << true << good << QStringList{"--device", "no-such-gpu"}
                                             << out << "^gamboost: --device: names an OpenCL device, and the CPU";
  // An option without its value: a sentence, not CLI11's "1 required INT|cv missing".
  QTest::newRow("mstop without a value") << "data.csv" << true << good << QStringList{"--mstop"} << out
                                         << R"(^gamboost: --mstop: needs a value \(INT\|cv\)$)";
  // 0 is the settings' word for "unpenalised": given as an option it is an edf of 0, refused as --edf 0 is.
  QTest::newRow("linear edf 0") << "data.csv" << true << good << QStringList{"--linear", "x1", "--linear-edf", "0"}
                                << out
                                << R"(^gamboost: --linear-edf: must be a finite number greater than 0 \(got 0\))";
  QTest::newRow("factor edf -0") << "data.csv" << true << good << QStringList{"--factor-edf", "-0"} << out
                                 << R"(^gamboost: --factor-edf: must be a finite number greater than 0 \(got -0\))";
  // A stray comma in a list of names, and a name that holds one but was not quoted.
  QTest::newRow("empty name in a list")
      << "data.csv" << true << good << QStringList{"--spline", "x1,"} << out
      << R"(^gamboost: --spline: an empty entry in the list 'x1,' \(a comma at an end)";
  QTest::newRow("empty list") << "data.csv" << true << good << QStringList{"--linear", ""} << out
                              << R"(^gamboost: --linear: an empty entry in the list '' )";
  QTest::newRow("unquoted name with a comma")
      << "comma.csv" << true << QByteArray("y,\"a,b\"\n1,2\n3,4\n5,7\n") << QStringList{"--spline", "a,b"} << out
      << R"(--spline: no column named 'a' in .*comma\.csv; the column 'a,b' holds a comma: in a list of names write )"
         R"(it in double quotes, "a,b"$)";
}

void CliErrorsTest::fitRejects() {
  QFETCH(QString, file);
  QFETCH(bool, create);
  QFETCH(QByteArray, contents);
  QFETCH(QStringList, options);
  QFETCH(QString, out);
  QFETCH(QString, pattern);

  Scratch scratch;
  QVERIFY(scratch.isValid());
  if (create) writeFile(scratch.path(file), contents);
  QStringList args{"fit", "--data", scratch.path(file), "--out", expand(out, scratch), "--quiet"};
  if (!options.contains("--model")) args << "--model" << scratch.path("model.json");
  args << expand(options, scratch);
  const CliResult r = runGamboost(args);
  expectRejected(r, pattern, {expand(out, scratch), scratch.path("model.json"), scratch.path("out.json")}, scratch,
                 create ? QStringList{file} : QStringList{});
}

void CliErrorsTest::generateRejects_data() {
  QTest::addColumn<QStringList>("options");
  QTest::addColumn<QString>("out");
  QTest::addColumn<QString>("pattern");
  const QString out = "{dir}/gen.csv";
  QTest::newRow("rows missing") << QStringList{} << out << "--rows";
  QTest::newRow("rows not a number") << QStringList{"--rows", "1e3"} << out << "--rows";
  QTest::newRow("rows negative") << QStringList{"--rows", "-5"} << out << "--rows";
  QTest::newRow("informative > covariates")
      << QStringList{"--rows", "50", "--covariates", "3", "--informative", "5"} << out << "--informative";
  QTest::newRow("negative noise") << QStringList{"--rows", "50", "--noise-var", "-1"} << out << "--noise-var";
  // 1e12 rows of 101 columns is about 2 PB: refused by the free disk space, before anything is generated.
  QTest::newRow("rows beyond the disk") << QStringList{"--rows", "1000000000000"} << out << "--out: about .* free";
  QTest::newRow("covariates 2e9") << QStringList{"--rows", "10", "--covariates", "2000000000"} << out << "--covariates";
  QTest::newRow("--out under a file") << QStringList{"--rows", "50"} << "{dir}/blocker/gen.csv"
                                      << R"(blocker/gen\.csv)";
}

void CliErrorsTest::generateRejects() {
  QFETCH(QStringList, options);
  QFETCH(QString, out);
  QFETCH(QString, pattern);
  Scratch scratch;
  QVERIFY(scratch.isValid());
  writeFile(scratch.path("blocker"), "a regular file\n");
  const QString target = expand(out, scratch);
  const CliResult r = runGamboost(QStringList{"generate", "--out", target} + options);
  expectRejected(r, pattern, {target, target + ".truth.json"}, scratch, {"blocker"});
}

void CliErrorsTest::predictRejects_data() {
  QTest::addColumn<QByteArray>("model");  // contents of model.json
  QTest::addColumn<QByteArray>("data");   // contents of new.csv
  QTest::addColumn<QString>("out");
  QTest::addColumn<QString>("pattern");
  const QString out = "{dir}/pred.csv";
  QTest::newRow("model not JSON") << QByteArray("{not json") << smallCsv(20) << out << R"(model\.json)";
  QTest::newRow("model without learners") << QByteArray(R"({"offset": 1})") << smallCsv(20) << out << R"(model\.json)";
  // x1 (a full sine period) is the learner the 10 iterations select first; a learner never selected is not read.
  QTest::newRow("data with a text cell") << QByteArray() << QByteArray("x1,x2,x3\n0.5,0.5,0.5\nx,0.1,0.3\n") << out
                                         << R"(new\.csv:3:1: 'x1' holds text)";
  QTest::newRow("data lacking a learner column")
      << QByteArray() << QByteArray("x2,x3\n0.5,0.5\n") << out << R"(\bx1\b)";
  QTest::newRow("--out under a file") << QByteArray() << smallCsv(20) << "{dir}/new.csv/pred.csv"
                                      << R"(new\.csv/pred\.csv)";
}

void CliErrorsTest::predictRejects() {
  QFETCH(QByteArray, model);
  QFETCH(QByteArray, data);
  QFETCH(QString, out);
  QFETCH(QString, pattern);
  Scratch scratch;
  QVERIFY(scratch.isValid());
  if (model.isEmpty()) {  // a real model, fitted here (small and quick)
    writeFile(scratch.path("train.csv"), smallCsv(60));
    const CliResult fit =
        runGamboost({"fit", "--data", scratch.path("train.csv"), "--knots", "6", "--mstop", "10", "--out",
                     scratch.path("result.json"), "--model", scratch.path("model.json"), "--quiet"});
    QVERIFY2(fit.exitCode == 0, qPrintable(fit.describe()));
  } else {
    writeFile(scratch.path("model.json"), model);
  }
  writeFile(scratch.path("new.csv"), data);
  const QString target = expand(out, scratch);
  const CliResult r = runGamboost(
      {"predict", "--model", scratch.path("model.json"), "--data", scratch.path("new.csv"), "--out", target});
  expectRejected(r, pattern, {target}, scratch, {"model.json", "new.csv", "train.csv", "result.json"});
}

QTEST_GUILESS_MAIN(CliErrorsTest)
// OMP_NUM_THREADS=100000 crashed libgomp (SIGSEGV) in the first parallel region; 50000 ended with its own
// "Thread creation failed". The team is cut to one thread a core, with a note, and the fit runs.
void CliErrorsTest::absurdOpenMpThreadCountIsCapped() {
  Scratch scratch;
  writeFile(scratch.path("d.csv"), smallCsv(40));
  const CliResult r = runGamboostLimited(
      "export OMP_NUM_THREADS=100000",
      {"fit", "--data", scratch.path("d.csv"), "--out", scratch.path("r.json"), "--quiet", "--threads", "1"});
  QVERIFY2(r.finished && !r.crashed && r.exitCode == 0, qPrintable(r.describe()));
  QVERIFY2(r.err.contains("note: OMP_NUM_THREADS asks for 100000 threads"), qPrintable(r.describe()));
  QVERIFY(QFileInfo::exists(scratch.path("r.json")));
}

// CLI11 checks required options before unknown ones: "fit --dta d.csv" said "--data is required", not what
// was wrong. A missing option is reported only when nothing else is.
void CliErrorsTest::misspeltOptionIsNamedBeforeMissingOnes() {
  Scratch scratch;
  writeFile(scratch.path("d.csv"), smallCsv(40));
  const CliResult misspelt = runGamboost({"fit", "--dta", scratch.path("d.csv"), "--out", scratch.path("r.json")});
  verifyRejected(misspelt, "not expected: .*--dta");
  QVERIFY2(!misspelt.err.contains("required"), qPrintable(misspelt.describe()));
  const CliResult missing = runGamboost({"fit", "--out", scratch.path("r.json")});
  verifyRejected(missing, "--data is required");
  const CliResult cv = runGamboost({"cv", "--kfold", "3", "--foldz", "2"});
  verifyRejected(cv, "not expected: .*--foldz");
  // Named first, in the order given, with the command (CLI11 listed them last first: "0.5 --holdout").
  verifyRejected(runGamboost({"cv", "--holdout", "0.5", "--kfold", "3"}),
                 "^gamboost: --holdout: not an option of 'cv' \\(arguments not expected: --holdout 0.5\\); "
                 "'gamboost cv --help' lists the options$");
  verifyRejected(runGamboost({"cv", "--kfold", "3", "--holdout"}), "^gamboost: --holdout: not an option of 'cv'");
  QVERIFY(!QFileInfo::exists(scratch.path("r.json")));
  // A misspelt command was not named ("A subcommand is required").
  verifyRejected(runGamboost({"fitt", "--data", scratch.path("d.csv")}),
                 "^gamboost: 'fitt' is not a command; the commands: devices, generate, fit, predict, cv, bench$");
}

#include "test_cli_errors.moc"

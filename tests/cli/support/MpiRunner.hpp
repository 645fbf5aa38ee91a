#pragma once
// What the `fit --distributed` tests share: mpirun with the options CI containers need, the default OpenCL device,
// and comparisons of result.json arrays.
#include <QString>
#include <QStringList>
#include <nlohmann/json.hpp>

#include "support/CliRunner.hpp"

namespace gbtest {

// mpirun's path, "" when it is missing.
QString findMpirun();
// The default OpenCL device's address ("P:D"), "" when there is none.
QString defaultOpenClAddress();
// mpirun --oversubscribe --allow-run-as-root <arguments> (root: CI containers; any number of ranks on any cores).
CliResult runMpirun(const QString& mpirun, const QStringList& arguments, int timeoutMs = 180000);
// mpirun -np <ranks> gamboost <arguments>.
CliResult runRanks(const QString& mpirun, int ranks, const QStringList& arguments);

nlohmann::json readJson(const QString& path);
// sqrt(sum (a - b)^2 / sum a^2) over two JSON arrays of the same length whose nulls (omitted rows) sit in the same
// places; infinity when the lengths or the nulls differ.
double relativeDifference(const nlohmann::json& a, const nlohmann::json& b);
// Checks result.json's "distributed" record of a run whose ranks each read only their part of the file: `ranks`
// parts, "read": "parts", byte ranges laid end to end up to the file's end, row ranges laid end to end over all
// `rows`, and every rank having parsed its own rows only (rows_read == its count, fewer than all). QVERIFY-style:
// callers check QTest::currentTestFailed().
void verifyPartsRead(const nlohmann::json& record, int ranks, qint64 fileBytes, std::size_t rows);
// The distinct "gamboost: ..." lines of stderr.
QStringList gamboostLines(const CliResult& r);

}  // namespace gbtest

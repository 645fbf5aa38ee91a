#include "plots/KernelReportFile.hpp"

#include <QCoreApplication>
#include <QFile>
#include <QSaveFile>

#include "common/Error.hpp"
#include "common/QtConvert.hpp"

namespace gbui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("KernelReportFile", text); }

bool has(const nlohmann::json& j, const char* key) { return j.is_object() && j.contains(key); }

// The first entry of "timings", when there is one.
const nlohmann::json* firstTiming(const nlohmann::json& j) {
  if (!has(j, "timings") || !j.at("timings").is_array() || j.at("timings").empty()) return nullptr;
  return &j.at("timings").front();
}

}  // namespace

QString reportKind(const nlohmann::json& j) {
  if (!j.is_object()) return tr("JSON that is not an object, so no benchmark report");
  const nlohmann::json* t = firstTiming(j);
  if (has(j, "candidates") && has(j, "best"))
    return tr("a kernel tuning report (bench tune: the compact B'g's launch shapes searched on one device)");
  if (has(j, "runs") && has(j, "write_csv"))
    return tr("a benchmark report of every stage from CSV to result.json (bench e2e)");
  if (has(j, "platform") || has(j, "copy_gb_per_s") || (t && has(*t, "gb_per_s"))) return {};
  if (t && (has(*t, "fit_s") || has(*t, "seconds_per_iteration")))
    return tr("a fit benchmark report (bench fit: seconds per iteration of whole fits)");
  if (has(j, "timings") && j.at("timings").is_array() && j.at("timings").empty())
    return tr("a benchmark report with no timings");
  if (has(j, "megabytes_per_s")) return tr("a CSV reading benchmark report (bench csv: MB/s)");
  if (has(j, "format") && j.at("format") == "gamboost-model") return tr("a saved model (Save model)");
  if (has(j, "offset") && has(j, "learners")) return tr("a fit result (the fit's result.json)");
  if (has(j, "folds") && has(j, "mean")) return tr("a cross-validation result (cv.json)");
  return tr("JSON of an unknown kind (no \"platform\", \"copy_gb_per_s\" or kernel \"timings\")");
}

gb::KernelBenchReport readKernelReport(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) throw gb::InputError(ss(path + ": cannot read: " + file.errorString()));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(file.readAll().toStdString());
  } catch (const nlohmann::json::exception& e) {
    throw gb::InputError(ss(path) + ": not JSON: " + e.what());
  }
  const QString kind = reportKind(j);
  if (!kind.isEmpty())
    throw gb::InputError(ss(tr("%1 is %2; the Kernel timings tab shows kernel reports (bench kernels, or Run "
                               "benchmark here).")
                                .arg(path, kind)));
  try {
    return gb::KernelBenchReport::fromJson(j);
  } catch (const gb::InputError& e) {
    throw gb::InputError(ss(path) + ": " + e.what());
  }
}

void writeKernelReport(const QString& path, const gb::KernelBenchReport& report) {
  QSaveFile file(path);
  // As the CLI writes it (gamboost bench kernels): indent 2, invalid UTF-8 in a device name replaced.
  const std::string text = report.toJson().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size()) ||
      !file.commit())
    throw gb::InputError(ss(path + ": cannot write: " + file.errorString()));
}

}  // namespace gbui

#include "common/WindowWords.hpp"

#include <QHash>
#include <QObject>
#include <QRegularExpression>

namespace gbui {

namespace {

// CLI option -> the window's word for it (the label of its control, and where it is when that is not obvious).
const QHash<QString, QString>& controlNames() {
  static const QHash<QString, QString> names{
      {"--response", QObject::tr("the response role (Data tab)")},
      {"--learners", QObject::tr("the spline role (Data tab)")},
      {"--spline", QObject::tr("the spline role (Data tab)")},
      {"--linear", QObject::tr("the linear role (Data tab)")},
      {"--factor", QObject::tr("the factor role (Data tab)")},
      {"--weights", QObject::tr("the weights role (Data tab)")},
      {"--knots", QObject::tr("Knots")},
      {"--degree", QObject::tr("Degree")},
      {"--boundary", QObject::tr("Boundary")},
      {"--penalty", QObject::tr("Penalty")},
      {"--differences", QObject::tr("Differences")},
      {"--edf", QObject::tr("edf")},
      {"--edf-def", QObject::tr("edf definition")},
      {"--nu", QObject::tr("nu")},
      {"--mstop", QObject::tr("mstop")},
      {"--family", QObject::tr("Family")},
      {"--link", QObject::tr("Link")},
      {"--huber-delta", QObject::tr("Huber delta")},
      {"--tau", QObject::tr("Tau")},
      {"--offset", QObject::tr("Offset")},
      {"--linear-edf", QObject::tr("Linear edf")},
      {"--factor-edf", QObject::tr("Factor edf")},
      {"--missing", QObject::tr("Missing values")},
      {"--bands", QObject::tr("Bands (bootstrap B)")},
      {"--backend", QObject::tr("Backend")},
      {"--device", QObject::tr("Device")},
      {"--kernel", QObject::tr("Kernel")},
      {"--precision", QObject::tr("Precision")},
      {"--threads", QObject::tr("CPU threads")},
      {"--rows", QObject::tr("Rows")},
      {"--covariates", QObject::tr("Covariates")},
      {"--informative", QObject::tr("Informative")},
      {"--noise-var", QObject::tr("Noise variance")},
      {"--intercept", QObject::tr("the intercept")},
      {"--data", QObject::tr("the data")},
      {"--delimiter", QObject::tr("the delimiter")},
      {"--kfold", QObject::tr("Count (k-fold, Cross-validation tab)")},
      {"--bootstrap", QObject::tr("Count (bootstrap, Cross-validation tab)")},
      {"--subsample", QObject::tr("Count (subsample, Cross-validation tab)")},
      {"--prob", QObject::tr("Prob (Cross-validation tab)")},
      {"--folds-file", QObject::tr("the folds File (Cross-validation tab)")},
      {"--holdout", QObject::tr("the holdout fraction")},
  };
  return names;
}

}  // namespace

QString inWindowWords(const QString& message) {
  static const QRegularExpression option(QStringLiteral("--[a-z][a-z-]*[a-z]"));
  QString out;
  qsizetype from = 0;
  for (auto it = option.globalMatch(message); it.hasNext();) {
    const QRegularExpressionMatch m = it.next();
    const auto name = controlNames().constFind(m.captured());
    if (name == controlNames().constEnd()) continue;
    out += message.mid(from, m.capturedStart() - from) + *name;
    from = m.capturedEnd();
  }
  out += message.mid(from);
  // The backends' values, as the Backend box shows them.
  out.replace(QObject::tr("Backend opencl"), QObject::tr("Backend OpenCL"));
  out.replace(QObject::tr("Backend cpu"), QObject::tr("Backend CPU"));
  return out;
}

}  // namespace gbui

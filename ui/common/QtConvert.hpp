#pragma once
// The engine speaks std::string and std::vector; Qt speaks QString and QVector. Conversions live here only.
#include <QString>
#include <QVector>
#include <string>
#include <vector>

namespace gbui {

inline QString qs(const std::string& s) { return QString::fromStdString(s); }
inline std::string ss(const QString& s) { return s.toStdString(); }
inline QVector<double> qvec(const std::vector<double>& v) { return QVector<double>(v.begin(), v.end()); }

// A factor level as a label: quoted where it is empty or has blanks at an end ("" and " A" are levels of their own,
// as R's read.csv reads them, and would not show apart from "A" unquoted).
inline QString levelLabel(const std::string& level) {
  const QString text = qs(level);
  const bool bare = !text.isEmpty() && !text.front().isSpace() && !text.back().isSpace();
  return bare ? text : QLatin1Char('"') + text + QLatin1Char('"');
}

}  // namespace gbui

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

}  // namespace gbui

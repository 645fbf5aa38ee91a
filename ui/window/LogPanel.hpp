#pragma once
// Every message of the session, timestamped, with details (such as an OpenCL build log) indented below.
#include <QPlainTextEdit>

#include "common/MessageSink.hpp"

namespace gbui {

class LogPanel : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit LogPanel(QWidget* parent = nullptr);
  void append(gbui::Severity severity, const QString& text, const QString& details);
};

}  // namespace gbui

#pragma once
// The line a view of the fit on show carries while the data or settings differ from that fit, as the status bar
// says too: the Model summary and the edf / lambda explorer; the Cross-validation tab sets its own words; one over
// the tabs serves the other views of the fit (MainWindow::fitStaleNote).
#include <QLabel>

namespace gbui {

class StaleNote : public QLabel {
 public:
  explicit StaleNote(QWidget* parent = nullptr);
  // Shown while `changed`: the data or model settings differ from the fit on show.
  void setChanged(bool changed) { setHidden(!changed); }
};

}  // namespace gbui

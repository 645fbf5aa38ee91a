#pragma once
// The iteration scrubber above the plot tabs (teaching): drag to replay the fit at any past iteration from its
// recorded steps (no refit), "Latest" to come back, "Reset" to drop the fit and start again at iteration 0. While a
// job runs the slider follows the fit and is disabled.
#include <QWidget>

class QLabel;
class QPushButton;
class QSlider;

namespace gbui {

class ReplayBar : public QWidget {
  Q_OBJECT
 public:
  explicit ReplayBar(QWidget* parent = nullptr);
  // The fit's latest iteration; replayable: idle with recorded steps. Moves the slider to the latest iteration.
  // whyNot: why the slider is off ("" where it is on), added to its tooltip (a model opened from a file has no
  // recorded steps; the slider did nothing and its tooltip still offered to replay).
  void follow(int latest, bool replayable, bool canReset, const QString& whyNot = QString());
  QString sliderToolTip() const;
  int shown() const;  // the iteration on show (latest when not replaying)
  bool replaying() const;

  QSlider* slider() const { return slider_; }
  QPushButton* latestButton() const { return latest_; }
  QPushButton* resetButton() const { return reset_; }
  QLabel* label() const { return label_; }

 signals:
  // m: the iteration to show; -1: the latest.
  void iterationChosen(int m);
  void resetRequested();

 private:
  void describe();

  QLabel* label_;
  QSlider* slider_;
  QPushButton* latest_;
  QPushButton* reset_;
  int latestIteration_ = 0;
};

}  // namespace gbui

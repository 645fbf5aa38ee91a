#pragma once
// Teaching mode: the RSS reduction g'g - RSS_j every candidate learner achieves on the residuals of one
// iteration (Booster::candidates()), best first, the winner highlighted and its margin to the runner-up stated.
#include <QWidget>

#include "fit/FitSnapshot.hpp"

class QCPBars;
class QLabel;
class QSpinBox;

namespace gbui {

class MessageSink;
class PlotWidget;

class LearnerRaceView : public QWidget {
  Q_OBJECT
 public:
  explicit LearnerRaceView(MessageSink* sink, QWidget* parent = nullptr);
  void showSnapshot(const FitSnapshot& snapshot);
  // No race drawn; `why` (default: how to get one) in its caption.
  void clear(const QString& why = QString());
  PlotWidget* plot() const { return plot_; }
  QString summary() const;
  // Learner indices in the drawn order (best first).
  const std::vector<int>& order() const { return order_; }
  const std::optional<RaceSnapshot>& race() const { return race_; }

 private:
  static QString idleText();
  void redraw();

  PlotWidget* plot_;
  QCPBars* others_;
  QCPBars* winner_;
  QLabel* summary_;
  QSpinBox* shown_;
  std::shared_ptr<const FitSetup> setup_;
  std::optional<RaceSnapshot> race_;
  std::vector<int> order_;
};

}  // namespace gbui

#pragma once
// edf(lambda) of one learner under both definitions (trace: tr H; mboost: tr(2H - H'H)) on a log lambda axis,
// from the learner's gram and penalty (gb::EdfFunction), with the lambda in use and the target edf marked.
#include <QWidget>

#include "fit/FitSnapshot.hpp"

class QComboBox;
class QCPGraph;
class QCPItemStraightLine;
class QLabel;

namespace gbui {

class MessageSink;
class PlotWidget;
class StaleNote;

class EdfExplorer : public QWidget {
  Q_OBJECT
 public:
  explicit EdfExplorer(MessageSink* sink, QWidget* parent = nullptr);
  void setSetup(std::shared_ptr<const FitSetup> setup);
  void clear();
  void showLearner(int learner);
  PlotWidget* plot() const { return plot_; }
  QComboBox* learnerCombo() const { return learners_; }
  QCPGraph* traceGraph() const { return trace_; }
  QCPGraph* mboostGraph() const { return mboost_; }
  QLabel* infoLabel() const { return info_; }
  // The note that the data or settings changed since the fit whose learners are shown (MainWindow::refreshSession).
  void setChangedSinceFit(bool changed);
  QLabel* staleNote() const;

 private:
  MessageSink* sink_;
  QComboBox* learners_;
  QLabel* info_;
  StaleNote* stale_;
  PlotWidget* plot_;
  QCPGraph* trace_;
  QCPGraph* mboost_;
  QCPItemStraightLine* lambdaLine_;
  QCPItemStraightLine* targetLine_;
  std::shared_ptr<const FitSetup> setup_;
  bool changed_ = false;
};

}  // namespace gbui

#pragma once
// The Model summary tab: what `gamboost fit --summary` prints, as a panel (rows, family, learners, lambda,
// compute, risk, selected), and the variable importance (mboost's varimp): every learner's share of the risk
// reduction and its selection frequency, the largest share first.
#include <QWidget>

#include "fit/FitSnapshot.hpp"
#include "model/Model.hpp"

class QLabel;
class QTableWidget;

namespace gbui {

class StaleNote;

// The fitted model a snapshot describes (offset, settings, learners with lambda, edf, counts and coefficients,
// the path): what engine/model/ModelSummary summarises.
gb::Model modelOfSnapshot(const FitSnapshot& snapshot);

class ModelSummaryView : public QWidget {
  Q_OBJECT
 public:
  explicit ModelSummaryView(QWidget* parent = nullptr);
  void showSnapshot(const FitSnapshot& snapshot);
  void clear();

  // The note that the data or settings changed since the fit on show (MainWindow::refreshSession).
  void setChangedSinceFit(bool changed);
  QLabel* staleNote() const;
  QTableWidget* summaryTable() const { return summary_; }
  QTableWidget* importanceTable() const { return importance_; }

 private:
  QLabel* heading_;
  StaleNote* stale_;
  QTableWidget* summary_;
  QTableWidget* importance_;
  bool changed_ = false;
};

}  // namespace gbui

#include "plots/ModelSummaryView.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "common/QtConvert.hpp"
#include "model/ModelSummary.hpp"
#include "plots/StaleNote.hpp"

namespace gbui {
namespace {

QTableWidget* makeTable(const QStringList& header) {
  auto* table = new QTableWidget(0, header.size());
  table->setHorizontalHeaderLabels(header);
  table->verticalHeader()->setVisible(false);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->horizontalHeader()->setStretchLastSection(true);
  table->setWordWrap(false);
  table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);  // compact rows
  return table;
}

void setRow(QTableWidget* table, int row, const QStringList& cells, bool alignRight = false) {
  for (int c = 0; c < cells.size(); ++c) {
    auto* item = new QTableWidgetItem(cells[c]);
    item->setToolTip(cells[c]);
    if (alignRight && c > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table->setItem(row, c, item);
  }
}

QString percent(double share) { return QString::number(100.0 * share, 'f', 1) + QStringLiteral(" %"); }

}  // namespace

gb::Model modelOfSnapshot(const FitSnapshot& s) {
  gb::Model m;
  if (!s.setup) return m;
  const FitSetup& setup = *s.setup;
  m.offset = setup.offset;
  m.settings = setup.settings;
  m.responseLevels = setup.responseLevels;
  for (std::size_t j = 0; j < setup.learners.size(); ++j)
    m.learners.push_back(gb::learnerModelOf(setup.learners[j],
                                            j < s.coefficients.size() ? s.coefficients[j] : Eigen::VectorXd(),
                                            j < s.counts.size() ? s.counts[j] : 0));
  m.pathLearner = s.pathLearner;
  m.pathRisk = s.pathRisk;
  return m;
}

ModelSummaryView::ModelSummaryView(QWidget* parent) : QWidget(parent) {
  heading_ = new QLabel(tr("No model yet: fit one, or open a saved model."));
  heading_->setWordWrap(true);
  stale_ = new StaleNote;
  summary_ = makeTable({tr("Item"), tr("Value")});
  importance_ = makeTable({tr("Learner"), tr("Share of risk reduction"), tr("Selection frequency"), tr("Selected")});
  importance_->setToolTip(
      tr("Variable importance as mboost's varimp: the in-bag risk each learner removed over the iterations that "
         "selected it, as a share of the whole reduction; the largest first."));
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(summary_);
  split->addWidget(importance_);
  split->setStretchFactor(1, 2);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(heading_);
  layout->addWidget(stale_);
  layout->addWidget(split, 1);
}

void ModelSummaryView::setChangedSinceFit(bool changed) {
  changed_ = changed;
  stale_->setChanged(changed_ && importance_->rowCount() > 0);
}
QLabel* ModelSummaryView::staleNote() const { return stale_; }

void ModelSummaryView::clear() {
  heading_->setText(tr("No model yet: fit one, or open a saved model."));
  stale_->setChanged(false);
  summary_->setRowCount(0);
  summary_->setMinimumHeight(0);
  importance_->setRowCount(0);
}

void ModelSummaryView::showSnapshot(const FitSnapshot& s) {
  if (!s.setup) return clear();
  const FitSetup& setup = *s.setup;
  const gb::Model model = modelOfSnapshot(s);
  const int mstop = setup.settings.mstop;
  heading_->setText(s.iteration <= mstop
                        ? tr("Model at iteration %1 of %2").arg(s.iteration).arg(mstop)
                        : tr("Model at iteration %1 (mstop %2 and %3 past it)")
                              .arg(s.iteration)
                              .arg(mstop)
                              .arg(s.iteration - mstop == 1 ? tr("1 Step") : tr("%1 Steps").arg(s.iteration - mstop)));
  QList<QStringList> lines;
  QString rows = QString::number(static_cast<qulonglong>(setup.rows));
  if (!setup.omissionNote.empty()) rows += QStringLiteral(" (") + qs(setup.omissionNote) + QStringLiteral(")");
  lines.append({tr("rows"), rows});
  for (const gb::SummaryLine& l : gb::modelSummaryLines(model)) lines.append({qs(l.label), qs(l.value)});
  const gb::BackendInfo& b = setup.backend;
  lines.append({tr("compute"), qs(b.backend + " / " + b.device + " / kernel " + b.kernel + " / " + b.precision)});
  summary_->setRowCount(static_cast<int>(lines.size()));
  for (int r = 0; r < lines.size(); ++r) setRow(summary_, r, lines[r]);
  summary_->resizeColumnToContents(0);
  // Every summary line on show (the splitter gives the rest to the importance table, which scrolls).
  int height = summary_->horizontalHeader()->sizeHint().height() + 2 * summary_->frameWidth();
  for (int r = 0; r < summary_->rowCount(); ++r) height += summary_->rowHeight(r);
  summary_->setMinimumHeight(height);

  const std::vector<gb::LearnerImportance> importance = gb::variableImportance(model);
  importance_->setRowCount(static_cast<int>(importance.size()));
  for (int r = 0; r < static_cast<int>(importance.size()); ++r) {
    const gb::LearnerImportance& l = importance[static_cast<std::size_t>(r)];
    setRow(importance_, r, {qs(l.name), percent(l.share), percent(l.selectionShare), QString::number(l.selected)},
           true);
  }
  importance_->resizeColumnsToContents();
  stale_->setChanged(changed_);
}

}  // namespace gbui

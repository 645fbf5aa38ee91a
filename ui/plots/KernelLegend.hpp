#pragma once
// The kernel chart's legend: a side list, one entry per kernel (its colour) and one per report (its line style),
// instead of one tiny entry per (kernel, report) series inside the plot. Clicking an entry hides or shows its
// series on both plots; what is hidden stays hidden when the chart is redrawn (a new report, partial results).
#include <QListWidget>
#include <QPen>
#include <QSet>

namespace gbui {

class KernelLegend : public QListWidget {
  Q_OBJECT
 public:
  enum class Group { Kernel, Report };
  // Side: one column beside the plots, as wide as its longest entry. Below: entries flow in rows under the plots.
  enum class Placement { Side, Below };
  struct Entry {
    QString key;   // series name (kernel) or report label
    QString text;  // what the list shows
    QString tip;
    QPen pen;
  };

  explicit KernelLegend(QWidget* parent = nullptr);

  // Rebuilds the list (scroll position kept); entries hidden before stay hidden.
  void setEntries(const QList<Entry>& kernels, const QList<Entry>& reports);
  bool isShown(Group group, const QString& key) const;
  // The entry's item (nullptr if absent), e.g. to click it in a test.
  QListWidgetItem* item(Group group, const QString& key) const;
  using QListWidget::item;
  void setPlacement(Placement placement);
  // The width the side placement takes for the current entries.
  int sideWidth() const { return sideWidth_; }
  // Shows every entry of the group again (also a click on the group's heading).
  void showAll(Group group);

 signals:
  void visibilityChanged();

 private:
  static constexpr int kMinimumWidth = 130, kMaximumWidth = 260, kBelowHeight = 96;

  void addHeader(Group group, const QString& text, const QString& tip);
  void addEntry(Group group, const Entry& e);
  void toggle(QListWidgetItem* item);
  void fitWidth(const QList<Entry>& entries);

  QSet<QString> hidden_[2];
  Placement placement_ = Placement::Side;
  int sideWidth_ = kMinimumWidth;
  QSize cell_;  // grid cell of the Below placement
};

}  // namespace gbui

#include "plots/KernelLegend.hpp"

#include <QPainter>
#include <QScrollBar>
#include <QStyle>
#include <algorithm>

namespace gbui {

namespace {

constexpr int kKeyRole = Qt::UserRole;
constexpr int kGroupRole = Qt::UserRole + 1;
constexpr int kHeaderRole = Qt::UserRole + 2;  // on a heading: the group it heads

// A short stretch of the series' line with a marker, like an in-plot legend's icon.
QIcon lineIcon(const QPen& pen) {
  QPixmap pixmap(30, 12);
  pixmap.fill(Qt::transparent);
  QPainter p(&pixmap);
  p.setRenderHint(QPainter::Antialiasing);
  QPen line = pen;
  line.setWidthF(std::max(1.6, pen.widthF()));
  p.setPen(line);
  p.drawLine(1, 6, 29, 6);
  return QIcon(pixmap);
}

}  // namespace

KernelLegend::KernelLegend(QWidget* parent) : QListWidget(parent) {
  setToolTip(tr("Click an entry to hide or show its series on both plots"));
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setTextElideMode(Qt::ElideMiddle);
  setSelectionMode(QAbstractItemView::NoSelection);
  setIconSize(QSize(30, 12));
  connect(this, &QListWidget::itemClicked, this, &KernelLegend::toggle);
}

void KernelLegend::setEntries(const QList<Entry>& kernels, const QList<Entry>& reports) {
  const int scroll = verticalScrollBar()->value();
  clear();
  if (!kernels.isEmpty())
    addHeader(Group::Kernel, tr("Kernels (colour)"),
              tr("One colour per kernel, the same on both plots. Click here to show every kernel again"));
  for (const Entry& e : kernels) addEntry(Group::Kernel, e);
  if (!reports.isEmpty())
    addHeader(Group::Report, tr("Reports (line style)"),
              tr("One line style per report; the grey line of the same style on the bandwidth plot is that device's "
                 "measured copy bandwidth. Click here to show every report again"));
  for (const Entry& e : reports) addEntry(Group::Report, e);
  verticalScrollBar()->setValue(scroll);
  fitWidth(kernels + reports);
}

// As wide as the longest entry needs (check box, icon, text, a scroll bar), within bounds: kernel names never
// elide; a very long report label elides in the middle, with its full text in the tooltip.
void KernelLegend::fitWidth(const QList<Entry>& entries) {
  const QFontMetrics fm(font());
  int text = fm.horizontalAdvance(tr("Reports (line style)")) + 8;
  for (const Entry& e : entries) text = std::max(text, fm.horizontalAdvance(e.text));
  const int chrome = style()->pixelMetric(QStyle::PM_IndicatorWidth) + iconSize().width() + 24 +
                     style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 2 * frameWidth();
  sideWidth_ = std::clamp(text + chrome, kMinimumWidth, kMaximumWidth);
  // Below the plots: entries in aligned columns, each as wide as the longest.
  cell_ = QSize(text + chrome - style()->pixelMetric(QStyle::PM_ScrollBarExtent), fm.height() + 6);
  if (placement_ == Placement::Below) setGridSize(cell_);
  if (placement_ == Placement::Side) setFixedWidth(sideWidth_);
}

void KernelLegend::setPlacement(Placement placement) {
  placement_ = placement;
  const bool side = placement == Placement::Side;
  setFlow(side ? QListView::TopToBottom : QListView::LeftToRight);
  setWrapping(!side);
  setResizeMode(side ? QListView::Fixed : QListView::Adjust);
  setGridSize(side ? QSize() : cell_);
  if (side) {
    setMinimumHeight(0);
    setMaximumHeight(QWIDGETSIZE_MAX);
    setFixedWidth(sideWidth_);
  } else {
    setMinimumWidth(0);
    setMaximumWidth(QWIDGETSIZE_MAX);
    setFixedHeight(kBelowHeight);
  }
}

void KernelLegend::addHeader(Group group, const QString& text, const QString& tip) {
  auto* header = new QListWidgetItem(text, this);
  header->setData(kHeaderRole, int(group));
  QFont bold = font();
  bold.setBold(true);
  header->setFont(bold);
  header->setToolTip(tip);
  header->setFlags(Qt::ItemIsEnabled);
}

void KernelLegend::addEntry(Group group, const Entry& e) {
  auto* it = new QListWidgetItem(lineIcon(e.pen), e.text, this);
  it->setData(kKeyRole, e.key);
  it->setData(kGroupRole, int(group));
  it->setToolTip(e.tip.isEmpty() ? e.text : e.tip);
  // Not user-checkable: a click anywhere on the entry toggles it (toggle()), the box only shows the state.
  it->setFlags(Qt::ItemIsEnabled);
  const bool shown = !hidden_[int(group)].contains(e.key);
  it->setCheckState(shown ? Qt::Checked : Qt::Unchecked);
  if (!shown) it->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
}

bool KernelLegend::isShown(Group group, const QString& key) const { return !hidden_[int(group)].contains(key); }

QListWidgetItem* KernelLegend::item(Group group, const QString& key) const {
  for (int i = 0; i < count(); ++i) {
    QListWidgetItem* it = QListWidget::item(i);
    if (it->data(kGroupRole) == QVariant(int(group)) && it->data(kKeyRole).toString() == key) return it;
  }
  return nullptr;
}

void KernelLegend::showAll(Group group) {
  hidden_[int(group)].clear();
  emit visibilityChanged();
}

void KernelLegend::toggle(QListWidgetItem* it) {
  if (!it) return;
  if (it->data(kHeaderRole).isValid()) return showAll(Group(it->data(kHeaderRole).toInt()));
  QSet<QString>& hidden = hidden_[it->data(kGroupRole).toInt()];
  const QString key = it->data(kKeyRole).toString();
  if (!hidden.remove(key)) hidden.insert(key);
  emit visibilityChanged();
}

}  // namespace gbui

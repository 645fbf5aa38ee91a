#include "plots/PlotWidget.hpp"

#include <QContextMenuEvent>
#include <QFileDialog>
#include <QMenu>
#include <QResizeEvent>
#include <algorithm>
#include <cmath>

#include "common/MessageSink.hpp"
#include "plots/PlotExport.hpp"

namespace gbui {

PlotWidget::PlotWidget(QWidget* parent) : QCustomPlot(parent) {
  setNoAntialiasingOnDrag(true);
  setToolTip(tr("Right-click to export the picture (PNG, SVG, PDF) or the data (CSV)"));
  styleAxes(axisRect());
}

void PlotWidget::setTitle(const QString& text) {
  if (!title_) {
    plotLayout()->insertRow(0);
    title_ = new QCPTextElement(this, text, QFont(font().family(), 9, QFont::Bold));
    plotLayout()->addElement(0, 0, title_);
  }
  title_->setText(text);
}

void PlotWidget::setTitleMuted(bool muted) {
  if (!title_) setTitle(QString());
  title_->setTextColor(muted ? QColor(150, 150, 150) : QColor(Qt::black));
}

QString PlotWidget::title() const { return title_ ? title_->text() : QString(); }

bool PlotWidget::titleMuted() const { return title_ && title_->textColor() != QColor(Qt::black); }

void PlotWidget::resizeEvent(QResizeEvent* event) {
  const int ticks = std::clamp(event->size().width() / 60, 2, 5);
  for (QCPAxis* axis : {xAxis, xAxis2})
    if (axis && axis->ticker()) axis->ticker()->setTickCount(ticks);
  QCustomPlot::resizeEvent(event);
}

void PlotWidget::contextMenuEvent(QContextMenuEvent* event) {
  QMenu menu(this);
  menu.addAction(tr("Export PNG..."), this, [this] { exportInteractively(tr("PNG image (*.png)"), "png"); });
  menu.addAction(tr("Export SVG..."), this, [this] { exportInteractively(tr("SVG image (*.svg)"), "svg"); });
  menu.addAction(tr("Export PDF..."), this, [this] { exportInteractively(tr("PDF document (*.pdf)"), "pdf"); });
  menu.addAction(tr("Export data as CSV..."), this, [this] { exportInteractively(tr("CSV table (*.csv)"), "csv"); });
  menu.exec(event->globalPos());
}

void PlotWidget::exportInteractively(const QString& filter, const QString& suffix) {
  QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), defaultExportPath(exportName_, suffix), filter);
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += "." + suffix;
  rememberExportFolder(path);
  try {
    exportPlot(*this, path);
    if (sink_) sink_->info(tr("Exported %1").arg(path));
  } catch (const std::exception& e) {
    if (!sink_) throw;
    sink_->exception(tr("Export"), e);
  }
}

void styleAxes(QCPAxisRect* rect, int fontPointSize) {
  for (QCPAxis* axis : rect->axes()) {
    QFont f = axis->labelFont();
    f.setPointSize(fontPointSize);
    axis->setLabelFont(f);
    f.setPointSize(fontPointSize - 1);
    axis->setTickLabelFont(f);
    axis->grid()->setPen(QPen(QColor(220, 220, 220), 0, Qt::DotLine));
  }
}

namespace {

// Log ticks as powers (10^-5) or with as many digits as they need, up to 2 after the point (1.25·10^-5): over less
// than about 1.6 decades QCustomPlot's log ticker falls back to linear ticks between the powers, which one fixed
// precision of 0 printed alike. Zoomed in further than 3 significant digits tell apart, two ticks can still read
// alike.
class LogTicker : public QCPAxisTickerLog {
 protected:
  QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override {
    int digits = precision;
    if (tick != 0 && std::isfinite(tick)) {
      const double size = std::abs(tick), mantissa = size / std::pow(10.0, std::floor(std::log10(size)));
      while (digits < 2 &&
             std::abs(mantissa * std::pow(10.0, digits) - std::round(mantissa * std::pow(10.0, digits))) > 1e-6)
        ++digits;
    }
    return QCPAxisTickerLog::getTickLabel(tick, locale, formatChar, digits);
  }
};

}  // namespace

void setLogAxis(QCPAxis* axis, bool log) {
  if (log) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new LogTicker);
    axis->setTicker(ticker);
    axis->setNumberFormat("eb");
    axis->setNumberPrecision(0);  // LogTicker gives each label the digits it needs
  } else {
    axis->setScaleType(QCPAxis::stLinear);
    axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    axis->setNumberFormat("gb");
    axis->setNumberPrecision(6);
  }
}

}  // namespace gbui

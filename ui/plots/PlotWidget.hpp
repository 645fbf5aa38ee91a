#pragma once
// A QCustomPlot with the export actions every plot of the studio offers (right-click: PNG, SVG, PDF, CSV),
// the studio's fonts, and queued replots (several updates in one event-loop turn draw once).
#include <qcustomplot.h>

#include <functional>

namespace gbui {

class MessageSink;

class PlotWidget : public QCustomPlot {
  Q_OBJECT
 public:
  explicit PlotWidget(QWidget* parent = nullptr);
  // Where export errors go (none: exceptions propagate to the caller of exportTo()).
  void setMessageSink(MessageSink* sink) { sink_ = sink; }
  // A short name used in default export file names, e.g. "risk".
  void setExportName(const QString& name) { exportName_ = name; }
  QString exportName() const { return exportName_; }
  // Called with true before a picture of this plot (PNG, SVG or PDF, alone or in a sheet, PlotExport.hpp) is painted
  // and with false after (also when painting fails): what only a picture needs, such as a legend that a side widget
  // gives on screen. Null: nothing.
  void setPictureHook(std::function<void(bool)> hook) { pictureHook_ = std::move(hook); }
  const std::function<void(bool)>& pictureHook() const { return pictureHook_; }
  void requestReplot() { replot(QCustomPlot::rpQueuedReplot); }
  // An emptied plot's axes: 0 to 1 on both, not the last model's ranges (a new user read them as the new data's).
  void resetRanges() {
    xAxis->setRange(0, 1);
    yAxis->setRange(0, 1);
  }

  // Title row above the axis rect (created on first use); grey for a plot that shows nothing fitted yet.
  void setTitle(const QString& text);
  void setTitleMuted(bool muted);
  QString title() const;
  bool titleMuted() const;

 protected:
  void contextMenuEvent(QContextMenuEvent* event) override;
  // About one x tick per 60 pixels (at most QCustomPlot's 5): a narrow plot's tick labels ran into each other.
  void resizeEvent(QResizeEvent* event) override;

 private:
  void exportInteractively(const QString& filter, const QString& suffix);

  MessageSink* sink_ = nullptr;
  QString exportName_ = QStringLiteral("plot");
  std::function<void(bool)> pictureHook_;
  QCPTextElement* title_ = nullptr;
};

// Studio look: DejaVu-friendly font sizes, light grid.
void styleAxes(QCPAxisRect* rect, int fontPointSize = 9);
void setLogAxis(QCPAxis* axis, bool log);

}  // namespace gbui

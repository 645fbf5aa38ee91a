#pragma once
// Exporting plots: one plot, or a sheet of plots drawn together in rows and columns (a tab's whole grid, both plots
// of a tab), as PNG, SVG (QSvgGenerator + QCPPainter) or PDF, and their data as CSV. Throws
// gb::InputError("<path>: cannot write ...") on failure so the caller reports it like any other error.
// Also where export dialogs start: a file named after the plot, in the folder last exported to (QSettings).
#include <QSize>
#include <QString>
#include <QVector>

class QCustomPlot;
class QCPAbstractPlottable;

namespace gbui {

// By the file's suffix: .png .svg .pdf .csv. A picture, alone or of a sheet below, turns each PlotWidget's picture
// hook (PlotWidget::setPictureHook) on while it is painted.
void exportPlot(QCustomPlot& plot, const QString& path);
void exportPng(QCustomPlot& plot, const QString& path);
void exportSvg(QCustomPlot& plot, const QString& path);
void exportPdf(QCustomPlot& plot, const QString& path);
// Long format: series,x,y (one row per point of every graph, bar and curve, in drawing order, decorations left
// out). A bar chart's x is its category's name when the axis names its categories.
void exportCsv(QCustomPlot& plot, const QString& path);
QString plotDataCsv(QCustomPlot& plot);

// A plottable drawn for orientation only (a data rug): pictures show it, the CSV leaves it out.
void markDecoration(QCPAbstractPlottable* plottable);
bool isDecoration(const QCPAbstractPlottable* plottable);

// Plots exported together, row by row in `columns` columns, as on screen: each column as wide as its widest plot,
// each row as tall as its tallest (scaled to the export's size).
struct PlotSheet {
  QVector<QCustomPlot*> plots;
  int columns = 1;
  QString name;  // for the default file name, e.g. "partial-effects"
  int rows() const { return columns > 0 ? (static_cast<int>(plots.size()) + columns - 1) / columns : 0; }
  // The size the plots take on screen together (each at least its minimum size).
  QSize naturalSize() const;
};

// By the file's suffix, the picture at `size` pixels (empty: the natural size); .csv: every plot's data in one table.
void exportSheet(const PlotSheet& sheet, const QString& path, QSize size = {});
QString sheetDataCsv(const PlotSheet& sheet);

// Where "the folder last exported to" is remembered (an INI file; empty: the platform's settings).
void setExportSettingsFile(const QString& iniPath);
// `<last folder>/<name>.<suffix>`; the last folder is the home folder until something was exported.
QString defaultExportPath(const QString& name, const QString& suffix);
void rememberExportFolder(const QString& exportedPath);

}  // namespace gbui

#include "plots/PlotExport.hpp"

#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSettings>
#include <QSvgGenerator>
#include <QTextStream>
#include <algorithm>
#include <memory>

#include "common/Error.hpp"
#include "plots/PlotWidget.hpp"

namespace gbui {

namespace {

[[noreturn]] void cannotWrite(const QString& path, const QString& why) {
  throw gb::InputError((path + ": cannot write: " + why).toStdString());
}

QString seriesName(const QCPAbstractPlottable* p, int index) {
  const QString name = p->name().isEmpty() ? QStringLiteral("series %1").arg(index + 1) : p->name();
  QString quoted = name;
  quoted.replace('"', "\"\"");
  return '"' + quoted + '"';
}

QString quote(QString text) {
  text.replace('"', "\"\"");
  return '"' + text + '"';
}

// The category's name where the key axis names its categories (bar charts), else the number.
QString keyText(const QCPAbstractPlottable* p, double key) {
  const auto names = p->keyAxis() ? p->keyAxis()->ticker().dynamicCast<QCPAxisTickerText>() : nullptr;
  if (names && names->ticks().contains(key)) return quote(names->ticks().value(key));
  return QString::number(key, 'g', 17);
}

template <class Container>
void appendRows(QTextStream& out, const QCPAbstractPlottable* p, const QString& name, const Container& data) {
  for (auto it = data.constBegin(); it != data.constEnd(); ++it)
    out << name << ',' << keyText(p, it->mainKey()) << ',' << QString::number(it->mainValue(), 'g', 17) << '\n';
}

void appendPlotRows(QTextStream& out, QCustomPlot& plot) {
  for (int i = 0; i < plot.plottableCount(); ++i) {
    QCPAbstractPlottable* p = plot.plottable(i);
    if (isDecoration(p)) continue;
    const QString name = seriesName(p, i);
    if (auto* g = qobject_cast<QCPGraph*>(p))
      appendRows(out, p, name, *g->data());
    else if (auto* b = qobject_cast<QCPBars*>(p))
      appendRows(out, p, name, *b->data());
    else if (auto* c = qobject_cast<QCPCurve*>(p))
      for (auto it = c->data()->constBegin(); it != c->data()->constEnd(); ++it)
        out << name << ',' << QString::number(it->key, 'g', 17) << ',' << QString::number(it->value, 'g', 17) << '\n';
  }
}

void saveText(const QString& path, const QString& text) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) cannotWrite(path, file.errorString());
  file.write(text.toUtf8());
  if (!file.commit()) cannotWrite(path, file.errorString());
}

QString& exportSettingsFile() {
  static QString path;
  return path;
}

std::unique_ptr<QSettings> exportSettings() {
  const QString& path = exportSettingsFile();
  return path.isEmpty() ? std::make_unique<QSettings>() : std::make_unique<QSettings>(path, QSettings::IniFormat);
}

// The picture hooks of the plots being exported, on while a picture (not a CSV) is painted, off after (also when
// painting throws).
class PictureHooks {
 public:
  PictureHooks(const QVector<QCustomPlot*>& plots, const QString& suffix) {
    if (suffix != "png" && suffix != "svg" && suffix != "pdf") return;
    for (QCustomPlot* plot : plots)
      if (auto* widget = qobject_cast<PlotWidget*>(plot); widget && widget->pictureHook()) hooks_.push_back(widget);
    for (PlotWidget* widget : hooks_) widget->pictureHook()(true);
  }
  ~PictureHooks() {
    for (PlotWidget* widget : hooks_) widget->pictureHook()(false);
  }
  PictureHooks(const PictureHooks&) = delete;
  PictureHooks& operator=(const PictureHooks&) = delete;

 private:
  QVector<PlotWidget*> hooks_;
};

}  // namespace

void exportPng(QCustomPlot& plot, const QString& path) {
  if (!plot.savePng(path, 0, 0, 2.0)) cannotWrite(path, "PNG export failed");
}

void exportPdf(QCustomPlot& plot, const QString& path) {
  if (!plot.savePdf(path)) cannotWrite(path, "PDF export failed");
}

void exportSvg(QCustomPlot& plot, const QString& path) {
  const int w = plot.width() > 0 ? plot.width() : 800;
  const int h = plot.height() > 0 ? plot.height() : 600;
  QSvgGenerator generator;
  generator.setFileName(path);
  generator.setSize(QSize(w, h));
  generator.setViewBox(QRect(0, 0, w, h));
  generator.setTitle(plot.windowTitle());
  QCPPainter painter;
  if (!painter.begin(&generator)) cannotWrite(path, "cannot start the SVG painter");
  plot.toPainter(&painter, w, h);
  painter.end();
  if (!QFileInfo(path).exists() || QFileInfo(path).size() == 0) cannotWrite(path, "SVG export produced nothing");
}

QString plotDataCsv(QCustomPlot& plot) {
  QString text;
  QTextStream out(&text);
  out << "series,x,y\n";
  appendPlotRows(out, plot);
  return text;
}

void exportCsv(QCustomPlot& plot, const QString& path) { saveText(path, plotDataCsv(plot)); }

void exportPlot(QCustomPlot& plot, const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  const PictureHooks picture({&plot}, suffix);
  if (suffix == "png")
    exportPng(plot, path);
  else if (suffix == "svg")
    exportSvg(plot, path);
  else if (suffix == "pdf")
    exportPdf(plot, path);
  else if (suffix == "csv")
    exportCsv(plot, path);
  else
    throw gb::InputError(
        (path + ": unknown export format '" + suffix + "' (use .png, .svg, .pdf or .csv)").toStdString());
}

}  // namespace gbui

namespace gbui {

void markDecoration(QCPAbstractPlottable* plottable) { plottable->setProperty("gbDecoration", true); }

bool isDecoration(const QCPAbstractPlottable* plottable) { return plottable->property("gbDecoration").toBool(); }

namespace {

// A plot's size on screen (at least its minimum; 400 x 300 if it was never laid out).
QSize screenSize(const QCustomPlot* plot) {
  const QSize size = plot->size().expandedTo(plot->minimumSize());
  return size.width() < 50 || size.height() < 50 ? size.expandedTo(QSize(400, 300)) : size;
}

// Each column as wide as its widest plot, each row as tall as its tallest, in screen pixels.
void cellEdges(const PlotSheet& sheet, QVector<int>& left, QVector<int>& top) {
  const int columns = std::max(1, sheet.columns);
  QVector<int> width(columns, 0), height(sheet.rows(), 0);
  for (int i = 0; i < sheet.plots.size(); ++i) {
    const QSize size = screenSize(sheet.plots[i]);
    width[i % columns] = std::max(width[i % columns], size.width());
    height[i / columns] = std::max(height[i / columns], size.height());
  }
  left = {0};
  for (int w : width) left.append(left.back() + w);
  top = {0};
  for (int h : height) top.append(top.back() + h);
}

}  // namespace

QSize PlotSheet::naturalSize() const {
  QVector<int> left, top;
  cellEdges(*this, left, top);
  return QSize(left.back(), top.back());
}

namespace {

// Every plot in its cell (the screen layout scaled to `size`); each is drawn at its cell's size.
void paintSheet(QCPPainter& painter, const PlotSheet& sheet, QSize size) {
  QVector<int> left, top;
  cellEdges(sheet, left, top);
  const double sx = double(size.width()) / left.back(), sy = double(size.height()) / top.back();
  const int columns = std::max(1, sheet.columns);
  painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
  for (int i = 0; i < sheet.plots.size(); ++i) {
    const int c = i % columns, r = i / columns;
    const QRect cell(QPoint(qRound(left[c] * sx), qRound(top[r] * sy)),
                     QPoint(qRound(left[c + 1] * sx) - 1, qRound(top[r + 1] * sy) - 1));
    painter.save();
    painter.translate(cell.topLeft());
    painter.setClipRect(QRect(QPoint(0, 0), cell.size()));
    sheet.plots[i]->toPainter(&painter, cell.width(), cell.height());
    painter.restore();
  }
  // toPainter leaves each plot laid out for the export's size: draw them again at their own.
  for (QCustomPlot* plot : sheet.plots) plot->replot(QCustomPlot::rpQueuedReplot);
}

void exportSheetPng(const PlotSheet& sheet, const QString& path, QSize size) {
  QImage image(size, QImage::Format_ARGB32);
  image.fill(Qt::white);
  QCPPainter painter(&image);
  paintSheet(painter, sheet, size);
  painter.end();
  if (!image.save(path, "PNG")) cannotWrite(path, "PNG export failed");
}

void exportSheetSvg(const PlotSheet& sheet, const QString& path, QSize size) {
  QSvgGenerator generator;
  generator.setFileName(path);
  generator.setSize(size);
  generator.setViewBox(QRect(QPoint(0, 0), size));
  generator.setTitle(sheet.name);
  QCPPainter painter;
  if (!painter.begin(&generator)) cannotWrite(path, "cannot start the SVG painter");
  paintSheet(painter, sheet, size);
  painter.end();
  if (!QFileInfo(path).exists() || QFileInfo(path).size() == 0) cannotWrite(path, "SVG export produced nothing");
}

void exportSheetPdf(const PlotSheet& sheet, const QString& path, QSize size) {
  QPdfWriter pdf(path);
  pdf.setResolution(72);  // one pixel of the sheet = one point of the page
  pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point, sheet.name, QPageSize::ExactMatch));
  pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
  QCPPainter painter;
  if (!painter.begin(&pdf)) cannotWrite(path, "cannot start the PDF painter");
  paintSheet(painter, sheet, size);
  painter.end();
  if (!QFileInfo(path).exists() || QFileInfo(path).size() == 0) cannotWrite(path, "PDF export produced nothing");
}

}  // namespace

QString sheetDataCsv(const PlotSheet& sheet) {
  QString text;
  QTextStream out(&text);
  out << "series,x,y\n";
  for (QCustomPlot* plot : sheet.plots) appendPlotRows(out, *plot);
  return text;
}

void exportSheet(const PlotSheet& sheet, const QString& path, QSize size) {
  if (sheet.plots.isEmpty()) throw gb::InputError((path + ": nothing to export").toStdString());
  if (size.isEmpty()) size = sheet.naturalSize();
  if (size.width() > 20000 || size.height() > 20000)
    throw gb::InputError((path + ": the picture may be at most 20000 x 20000 pixels").toStdString());
  const QString suffix = QFileInfo(path).suffix().toLower();
  const PictureHooks picture(sheet.plots, suffix);
  if (suffix == "png")
    exportSheetPng(sheet, path, size);
  else if (suffix == "svg")
    exportSheetSvg(sheet, path, size);
  else if (suffix == "pdf")
    exportSheetPdf(sheet, path, size);
  else if (suffix == "csv")
    saveText(path, sheetDataCsv(sheet));
  else
    throw gb::InputError(
        (path + ": unknown export format '" + suffix + "' (use .png, .svg, .pdf or .csv)").toStdString());
}

void setExportSettingsFile(const QString& iniPath) { exportSettingsFile() = iniPath; }

QString defaultExportPath(const QString& name, const QString& suffix) {
  QString folder = exportSettings()->value("export/lastFolder").toString();
  // Before any export: the working folder, where Save model and Save session start too (it was the home folder).
  if (folder.isEmpty() || !QFileInfo(folder).isDir()) folder = QDir::currentPath();
  return QDir(folder).filePath((name.isEmpty() ? QStringLiteral("plot") : name) + "." + suffix);
}

void rememberExportFolder(const QString& exportedPath) {
  exportSettings()->setValue("export/lastFolder", QFileInfo(exportedPath).absolutePath());
}

}  // namespace gbui

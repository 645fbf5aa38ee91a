#include "plots/PlotExport.hpp"

#include <qcustomplot.h>

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTextStream>

#include "common/Error.hpp"

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

template <class Container>
void appendRows(QTextStream& out, const QString& name, const Container& data) {
  for (auto it = data.constBegin(); it != data.constEnd(); ++it)
    out << name << ',' << QString::number(it->mainKey(), 'g', 17) << ',' << QString::number(it->mainValue(), 'g', 17)
        << '\n';
}

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
  for (int i = 0; i < plot.plottableCount(); ++i) {
    QCPAbstractPlottable* p = plot.plottable(i);
    const QString name = seriesName(p, i);
    if (auto* g = qobject_cast<QCPGraph*>(p))
      appendRows(out, name, *g->data());
    else if (auto* b = qobject_cast<QCPBars*>(p))
      appendRows(out, name, *b->data());
    else if (auto* c = qobject_cast<QCPCurve*>(p))
      for (auto it = c->data()->constBegin(); it != c->data()->constEnd(); ++it)
        out << name << ',' << QString::number(it->key, 'g', 17) << ',' << QString::number(it->value, 'g', 17) << '\n';
  }
  return text;
}

void exportCsv(QCustomPlot& plot, const QString& path) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) cannotWrite(path, file.errorString());
  file.write(plotDataCsv(plot).toUtf8());
  if (!file.commit()) cannotWrite(path, file.errorString());
}

void exportPlot(QCustomPlot& plot, const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
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

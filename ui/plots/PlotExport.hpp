#pragma once
// Exporting a plot: the picture as PNG, SVG (QSvgGenerator + QCPPainter) or PDF, and its data as CSV.
// Throws gb::InputError("<path>: cannot write ...") on failure so the caller reports it like any other error.
#include <QString>

class QCustomPlot;

namespace gbui {

// By the file's suffix: .png .svg .pdf .csv.
void exportPlot(QCustomPlot& plot, const QString& path);
void exportPng(QCustomPlot& plot, const QString& path);
void exportSvg(QCustomPlot& plot, const QString& path);
void exportPdf(QCustomPlot& plot, const QString& path);
// Long format: series,x,y (one row per point of every graph, bar and curve, in drawing order).
void exportCsv(QCustomPlot& plot, const QString& path);
QString plotDataCsv(QCustomPlot& plot);

}  // namespace gbui

#include "plots/FitDiagnostics.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "common/QtConvert.hpp"
#include "plots/PlotWidget.hpp"

namespace gbui {

namespace {

QCPGraph* pointCloud(PlotWidget* plot, const QString& name) {
  QCPGraph* g = plot->addGraph();
  g->setName(name);
  g->setLineStyle(QCPGraph::lsNone);
  const QColor fill(31, 119, 180, 90);
  g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, fill, fill, 4));
  return g;
}

QCPItemStraightLine* guide(PlotWidget* plot, double x0, double y0, double x1, double y1) {
  auto* line = new QCPItemStraightLine(plot);
  line->setPen(QPen(QColor(214, 39, 40, 160), 1, Qt::DashLine));
  line->point1->setCoords(x0, y0);
  line->point2->setCoords(x1, y1);
  return line;
}

// A range with a margin that is never empty (a constant fitted value still gets a visible axis).
QCPRange padded(QCPRange r) {
  const double pad = r.size() > 0 ? r.size() * 0.05 : std::max(1.0, std::abs(r.lower)) * 0.05;
  return {r.lower - pad, r.upper + pad};
}

}  // namespace

FitDiagnostics::FitDiagnostics(MessageSink* sink, QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  hint_ =
      new QLabel(tr("Fitted values against the data appear here when a fit stops or finishes (on the response "
                    "scale: the mean, the probability, the rate)."));
  hint_->setWordWrap(true);
  layout->addWidget(hint_);
  auto* row = new QHBoxLayout;
  fittedPlot_ = new PlotWidget;
  fittedPlot_->setMessageSink(sink);
  fittedPlot_->setExportName("fitted-vs-observed");
  fitted_ = pointCloud(fittedPlot_, tr("rows"));
  guide(fittedPlot_, 0, 0, 1, 1)->setObjectName("identity");
  residualPlot_ = new PlotWidget;
  residualPlot_->setMessageSink(sink);
  residualPlot_->setExportName("residuals");
  residuals_ = pointCloud(residualPlot_, tr("rows"));
  guide(residualPlot_, 0, 0, 1, 0);
  for (PlotWidget* p : {fittedPlot_, residualPlot_}) {
    p->setMinimumSize(300, 240);
    row->addWidget(p, 1);
  }
  layout->addLayout(row, 1);
  fittedPlot_->setTitle(tr("Fitted against observed"));
  residualPlot_->setTitle(tr("Residuals against fitted"));
}

void FitDiagnostics::clear() {
  fitted_->data()->clear();
  residuals_->data()->clear();
  drawn_.reset();
  hint_->show();
  // The last fit's titles and axes (its response, rows and iteration) go with its points.
  fittedPlot_->setTitle(tr("Fitted against observed"));
  residualPlot_->setTitle(tr("Residuals against fitted"));
  for (PlotWidget* p : {fittedPlot_, residualPlot_}) {
    p->xAxis->setLabel(QString());
    p->yAxis->setLabel(QString());
    p->setToolTip(QString());
    p->resetRanges();
  }
  fittedPlot_->requestReplot();
  residualPlot_->requestReplot();
}

void FitDiagnostics::label(const FitSetup& setup, int iteration) {
  const QString y = qs(setup.responseName);
  const bool binomial = gb::isBinary(setup.family.family);
  const QString event = setup.responseLevels.size() == 2 ? qs(setup.responseLevels[1]) : QString("1");
  QString observed = tr("observed %1").arg(y);
  if (binomial) observed += event == "1" ? tr(" (0 or 1)") : tr(" (1: %1 = %2, else 0)").arg(y, event);
  const QString fitted =
      binomial ? tr("fitted probability of %1 = %2").arg(y, event) : tr("fitted %1 (response scale)").arg(y);
  fittedPlot_->xAxis->setLabel(observed);
  fittedPlot_->yAxis->setLabel(fitted);
  residualPlot_->xAxis->setLabel(fitted);
  residualPlot_->yAxis->setLabel(tr("residual: observed - fitted"));
  const QString rows = tr("%1 used rows").arg(setup.rows);
  // Two lines: on one the title outgrew a half-width plot at 1280 x 800 and was clipped at both ends.
  fittedPlot_->setTitle(tr("Fitted against observed (%4)\n%1 %2 at iteration %3")
                            .arg(qs(gb::toString(setup.family.family)), y)
                            .arg(iteration)
                            .arg(rows));
  residualPlot_->setTitle(tr("Residuals against fitted (%1)").arg(rows));
  fittedPlot_->setToolTip(tr("One point per used row; dashed: fitted = observed. %1")
                              .arg(setup.omissionNote.empty() ? QString() : qs(setup.omissionNote)));
}

void FitDiagnostics::showSnapshot(const FitSnapshot& s) {
  if (!s.setup || !s.fitted || s.fitted == drawn_) return;
  const FitSetup& setup = *s.setup;
  const std::vector<double>& f = *s.fitted;
  const std::size_t n = std::min(f.size(), setup.observed.size());
  QVector<double> observed(static_cast<int>(n)), fitted(static_cast<int>(n)), residual(static_cast<int>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const int k = static_cast<int>(i);
    observed[k] = setup.observed[i];
    fitted[k] = setup.family.response(f[i]);
    residual[k] = observed[k] - fitted[k];
  }
  fitted_->setData(observed, fitted);
  residuals_->setData(fitted, residual);
  drawn_ = s.fitted;
  hint_->hide();
  label(setup, s.iteration);
  bool found = false;
  // One range for both axes of the first plot, so the dashed identity line runs at 45 degrees.
  QCPRange r = fitted_->getKeyRange(found);
  const QCPRange v = fitted_->getValueRange(found);
  r.expand(v);
  fittedPlot_->xAxis->setRange(padded(r));
  fittedPlot_->yAxis->setRange(padded(r));
  residualPlot_->xAxis->setRange(padded(residuals_->getKeyRange(found)));
  residualPlot_->yAxis->setRange(padded(residuals_->getValueRange(found)));
  fittedPlot_->requestReplot();
  residualPlot_->requestReplot();
}

PlotSheet FitDiagnostics::exportSheet() const {
  return {{fittedPlot_, residualPlot_}, 2, QStringLiteral("fit-diagnostics")};
}

}  // namespace gbui

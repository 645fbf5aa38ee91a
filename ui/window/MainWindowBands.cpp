// The main window's bootstrap bands: after a fit that reached mstop, with "Bands (bootstrap B)" checked in the model
// panel, B refits run on the bands' own worker (BandsController) while the window stays usable; the Fit group's
// progress bar counts the refits, Cancel stops them, and the partial effects shade the bands when all are done. A
// new fit or new data cancels a run and drops the bands on show.
#include <QAction>
#include <QLabel>
#include <QProgressBar>

#include "data/DataPanel.hpp"
#include "fit/BandsController.hpp"
#include "model/ModelPanel.hpp"
#include "plots/PartialEffectsView.hpp"
#include "window/ElidedLabel.hpp"
#include "window/MainWindow.hpp"

namespace gbui {

void MainWindow::connectBands() {
  bands_ = new BandsController(&sink_, this);
  connect(controller_, &FitController::jobFinished, this, [this](bool ok) {
    if (ok && controller_->state() == FitState::Finished && modelPanel_->bandReplicates() > 0) startBands();
  });
  connect(controller_, &FitController::stateChanged, this, [this](FitState state) {
    if (state != FitState::Running) return;
    bands_->cancel();
    effects_->setBands(nullptr);
  });
  connect(dataPanel_, &DataPanel::dataChanged, bands_, &BandsController::cancel);
  connect(cancelAction_, &QAction::triggered, bands_, &BandsController::cancel);
  connect(bands_, &BandsController::progress, this, [this](int done, int total) {
    cancelAction_->setEnabled(true);
    fitProgress_->setMaximum(total);
    fitProgress_->setValue(done);
    fitStatus_->setFullText(tr("Bootstrap bands: %1 of %2 refits done (Cancel stops them).").arg(done).arg(total));
  });
  connect(bands_, &BandsController::finished, this, [this](bool) {
    cancelAction_->setEnabled(controller_->isRunning());
    const std::shared_ptr<const gb::EffectBands> bands = bands_->bands();
    if (!bands) {  // the fit's own bar and line again (the bar kept "3 / 25" refits), and why no bands
      refreshSession();
      fitStatus_->setFullText(fitStatus_->fullText() + QStringLiteral(" ") +
                              tr("Bootstrap bands stopped; none shown."));
      sink_.info(tr("Bootstrap bands stopped before all refits were done; none shown"));
      return;
    }
    effects_->showSnapshot(controller_->lastSnapshot());  // the bands belong to the set-up on show
    effects_->setBands(bands);
    const QString text = tr("Bootstrap bands from %1 refits at mstop %2: 95% (lighter) and 90% (darker) pointwise "
                            "percentile intervals.")
                             .arg(bands->replicates - bands->unfitted)
                             .arg(bands->mstop);
    // Samples that cannot be fitted (a binomial sample of one class) are in no band: say so beside the count.
    fitStatus_->setFullText(bands->unfitted == 0 ? text
                                                 : text + QStringLiteral(" ") +
                                                       tr("%1 of %2 samples could not be fitted and are left out (%3).")
                                                           .arg(bands->unfitted)
                                                           .arg(bands->replicates)
                                                           .arg(QString::fromStdString(bands->unfittedReason)));
  });
}

void MainWindow::startBands() {
  const std::shared_ptr<const FitSetup> setup = controller_->setup();
  if (!setup || !controller_->data()) return;
  BandsRequest request;
  request.data = controller_->data();
  request.settings = setup->settings;
  request.settings.mstop = controller_->iteration();
  request.compute = controller_->computeSettings();
  request.replicates = modelPanel_->bandReplicates();
  bands_->start(std::move(request));
}

}  // namespace gbui

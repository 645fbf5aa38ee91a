#pragma once
// `gamboost-studio --screenshot-dir DIR` (scripts/screenshots.sh, under xvfb-run) drives the window and grabs it
// into DIR as PNG files. At 1280x800 and 1024x700 (<name>-1280.png, <name>-1024.png): the lesson of
// docs/teaching.md on small generated data (learner-race, learner-fit and lesson-step3 after three Steps;
// lesson-finished and model-summary after the fit; cross-validation after a 5-fold run; model-summary-cv after a
// fit at the chosen mstop), kernel-chart (the saved H100 and PoCL reports) and main-window (R's bodyfat fitted);
// effects-grid.png (Export plot of that grid at 1200x900). At 1280x800 only: the R data sets' and a binomial fit's
// views for the README.
#include <QString>

namespace gbui {

struct ScreenshotOptions {
  QString directory;
  QString benchDirectory;  // where saved kernel reports live (default: <source>/docs/bench if it exists)
};

int runScreenshots(const ScreenshotOptions& options);

}  // namespace gbui

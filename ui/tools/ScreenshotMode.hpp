#pragma once
// `gamboost-studio --screenshot-dir DIR` (scripts/screenshots.sh, under xvfb-run): generates the paper's data,
// fits, and grabs the main window, the learner race and the kernel chart into DIR as PNG files; then a binomial
// fit of a generated 0/1 response (a spline, a linear and a factor learner): its effects, fitted probabilities and the
// model panel.
#include <QString>

namespace gbui {

struct ScreenshotOptions {
  QString directory;
  QString benchDirectory;  // where saved kernel reports live (default: <source>/docs/bench if it exists)
};

int runScreenshots(const ScreenshotOptions& options);

}  // namespace gbui

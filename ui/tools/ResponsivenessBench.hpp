#pragma once
// `gamboost-studio --bench-responsiveness`: runs a large fit in the window (offscreen) and measures what a user
// feels: the UI thread's event-loop latency (a 10 ms QTimer probe), the live view's refresh rate, and the fit's
// time against the same fit through the Booster directly. Prints JSON. A benchmark, never a test.
#include <QString>
#include <cstddef>

namespace gbui {

struct ResponsivenessOptions {
  std::size_t rows = 100000;
  int covariates = 100;
  int knots = 12;
  int mstop = 1000;
  QString backend = "cpu";
  int rounds = 5;  // direct and GUI fits alternate this many times
};

int runResponsivenessBench(const ResponsivenessOptions& options);

}  // namespace gbui

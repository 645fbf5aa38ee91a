// gamboost-studio: the desktop application (design.md section 6). Thin: parse, wire, run.
//   gamboost-studio                          the window
//   gamboost-studio --screenshot-dir DIR     fit, grab the main views into DIR, exit (scripts/screenshots.sh)
//   gamboost-studio --bench-responsiveness [--rows N --mstop M]   UI latency during a fit, JSON on stdout
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>
#include <string>

#include "common/OpenMpPolicy.hpp"
#include "tools/ResponsivenessBench.hpp"
#include "tools/ScreenshotMode.hpp"
#include "window/MainWindow.hpp"

int main(int argc, char** argv) {
  gb::preferPassiveOpenMpWait(argv);  // the fit's OpenMP threads must not spin against the UI thread
  if (const std::string note = gb::capOpenMpThreads(); !note.empty()) std::fprintf(stderr, "%s\n", note.c_str());
  // The benchmark runs the window offscreen unless a platform was chosen (it measures the event loop, not X).
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--bench-responsiveness" && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
      qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName("GAMBoost");
  QApplication::setOrganizationDomain("gamboost.example.org");
  QApplication::setApplicationName("GAMBoost Studio");
  QApplication::setApplicationVersion("0.1.0");
  QApplication::setDesktopFileName("gamboost-studio");

  QCommandLineParser parser;
  parser.setApplicationDescription("GAMBoost Studio: gradient-boosted GAMs with penalised B-spline learners.");
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption shots("screenshot-dir", "Fit, save screenshots of the main views into <dir>, then exit.", "dir");
  QCommandLineOption bench("bench-responsiveness", "Measure UI responsiveness during a fit; print JSON; exit.");
  QCommandLineOption rows("rows", "Rows for --bench-responsiveness (default 100000).", "n", "100000");
  QCommandLineOption mstop("mstop", "Iterations for --bench-responsiveness (default 1000).", "m", "1000");
  QCommandLineOption backend("backend", "Backend for --bench-responsiveness: cpu or opencl (default cpu).", "name",
                             "cpu");
  QCommandLineOption rounds("rounds", "Direct/GUI fit pairs for --bench-responsiveness (default 5).", "r", "5");
  QCommandLineOption bench_json("bench-dir", "Kernel reports (*.json) for --screenshot-dir's kernel chart.", "dir");
  parser.addOptions({shots, bench, rows, mstop, backend, rounds, bench_json});
  parser.addPositionalArgument("files",
                               "A CSV file to open, optionally with a model.json or result.json fitted to it, "
                               "or a session (*.gbs.json).",
                               "[data.csv [model.json]]");
  parser.process(app);

  if (parser.isSet(bench)) {
    gbui::ResponsivenessOptions o;
    o.rows = parser.value(rows).toULongLong();
    o.mstop = parser.value(mstop).toInt();
    o.backend = parser.value(backend);
    o.rounds = parser.value(rounds).toInt();
    return gbui::runResponsivenessBench(o);
  }
  if (parser.isSet(shots)) {
    gbui::ScreenshotOptions o;
    o.directory = parser.value(shots);
    o.benchDirectory = parser.value(bench_json);
    return gbui::runScreenshots(o);
  }
  // Files named on the command line are the data: no paper data generated (nor the last file reopened) first.
  gbui::StudioOptions options;
  options.generateOnStart = parser.positionalArguments().isEmpty();
  gbui::MainWindow window(options);
  window.show();
  if (!parser.positionalArguments().isEmpty()) window.openPaths(parser.positionalArguments());
  return app.exec();
}

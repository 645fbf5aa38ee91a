#include "tools/ResponsivenessBench.hpp"

#include <sys/resource.h>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "common/QtConvert.hpp"
#include "compute/Booster.hpp"
#include "data/DataPanel.hpp"
#include "model/ModelPanel.hpp"
#include "tools/EventLoopWait.hpp"
#include "window/MainWindow.hpp"

namespace gbui {

namespace {

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(p / 100.0 * (v.size() - 1) + 0.5));
  return v[i];
}

gb::ModelSettings benchSettings(const ResponsivenessOptions& o) {
  gb::ModelSettings s = gb::ModelSettings::paperPreset();
  s.spline.knots = o.knots;
  s.mstop = o.mstop;
  return s;
}

struct DirectFit {
  double setupSeconds = 0, fitSeconds = 0, wallSeconds = 0;
};

DirectFit fitDirectly(std::shared_ptr<const gb::Dataset> data, const gb::ModelSettings& s,
                      const gb::ComputeSettings& c) {
  const auto t0 = std::chrono::steady_clock::now();
  gb::Booster booster(data, s, gb::makeBackend(c));
  booster.run(s.mstop);
  DirectFit r;
  r.setupSeconds = booster.setupSeconds();
  r.fitSeconds = booster.fitSeconds();
  r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

// CPU seconds the calling thread has used (Linux RUSAGE_THREAD): the UI thread's own drawing cost, which unlike
// latency does not depend on how busy the rest of the machine is.
double threadCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_THREAD, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

struct GuiFit {
  double setupSeconds = 0, fitSeconds = 0, wallSeconds = 0, jobSeconds = 0, uiCpuSeconds = 0;
  std::vector<double> lateMs;
  int refreshes = 0;
  unsigned long published = 0;
  bool ok = false;
};

GuiFit fitInWindow(MainWindow& w) {
  GuiFit r;
  int refreshes = 0;
  auto counter = QObject::connect(w.controller(), &FitController::snapshotReady, [&] { ++refreshes; });
  // Probe: a 10 ms timer; how late each timeout arrives is how long the UI thread was busy with something else.
  QTimer probe;
  probe.setTimerType(Qt::PreciseTimer);
  probe.setInterval(10);
  QElapsedTimer clock;
  qint64 last = 0;
  QObject::connect(&probe, &QTimer::timeout, [&] {
    const qint64 now = clock.nsecsElapsed();
    r.lateMs.push_back(std::max(0.0, (now - last) / 1e6 - 10.0));
    last = now;
  });
  const unsigned long publishedBefore = w.controller()->snapshotsPublished();
  const double cpuBefore = threadCpuSeconds();
  QElapsedTimer wall;
  wall.start();
  clock.start();
  probe.start();
  w.fitAction()->trigger();
  r.ok = waitForSignal(w.controller(), &FitController::jobFinished, 30 * 60 * 1000);
  r.wallSeconds = wall.nsecsElapsed() / 1e9;
  r.uiCpuSeconds = threadCpuSeconds() - cpuBefore;
  probe.stop();
  QObject::disconnect(counter);
  r.refreshes = refreshes;
  r.published = w.controller()->snapshotsPublished() - publishedBefore;
  if (auto b = w.controller()->booster()) {
    r.fitSeconds = b->fitSeconds();
    r.setupSeconds = b->setupSeconds();
  }
  r.jobSeconds = w.controller()->lastSnapshot().jobSeconds;
  return r;
}

}  // namespace

int runResponsivenessBench(const ResponsivenessOptions& o) {
  QTemporaryDir scratch;
  StudioOptions so;
  so.interactive = false;
  so.settingsFile = scratch.filePath("settings.ini");
  so.restoreSettings = false;
  so.generateOnStart = false;
  so.listDevices = false;
  MainWindow w(so);
  w.resize(1280, 820);
  w.show();
  gb::PaperDataSpec spec;
  spec.rows = o.rows;
  spec.covariates = o.covariates;
  w.dataPanel()->setGeneratorSpec(spec);
  if (!w.dataPanel()->generateNow()) {
    std::fprintf(stderr, "gamboost-studio: %s\n", qPrintable(w.messages()->lastError()));
    return 2;
  }
  const gb::ModelSettings settings = benchSettings(o);
  w.modelPanel()->setSettings(settings);
  gb::ComputeSettings compute;
  compute.backend = gb::backendFromString(ss(o.backend));
  w.modelPanel()->setCompute(compute);
  processEventsFor(200);

  // Alternate direct and GUI fits so drift (turbo, other load) hits both alike; report each and the best.
  std::vector<DirectFit> direct;
  std::vector<GuiFit> gui;
  gb::ModelSettings directSettings = settings;
  directSettings.response = "y";
  for (int round = 0; round < std::max(1, o.rounds); ++round) {
    direct.push_back(fitDirectly(w.dataPanel()->dataset(), directSettings, compute));
    gui.push_back(fitInWindow(w));
    if (!gui.back().ok || w.controller()->state() != FitState::Finished) {
      std::fprintf(stderr, "gamboost-studio: the GUI fit did not finish: %s\n", qPrintable(w.messages()->lastError()));
      return 1;
    }
  }
  auto bestDirect =
      std::min_element(direct.begin(), direct.end(), [](auto& a, auto& b) { return a.fitSeconds < b.fitSeconds; });
  auto bestGui = std::min_element(gui.begin(), gui.end(), [](auto& a, auto& b) { return a.fitSeconds < b.fitSeconds; });
  std::vector<double> late;
  for (const GuiFit& g : gui) late.insert(late.end(), g.lateMs.begin(), g.lateMs.end());
  QJsonArray rounds;
  for (std::size_t i = 0; i < gui.size(); ++i)
    rounds.append(
        QJsonObject{{"direct_fit_s", direct[i].fitSeconds},
                    {"direct_setup_s", direct[i].setupSeconds},
                    {"gui_fit_s", gui[i].fitSeconds},
                    {"gui_setup_s", gui[i].setupSeconds},
                    {"gui_click_to_finished_s", gui[i].wallSeconds},
                    {"ui_thread_cpu_s", gui[i].uiCpuSeconds},
                    {"ui_thread_cpu_ms_per_refresh", 1e3 * gui[i].uiCpuSeconds / std::max(1, gui[i].refreshes)},
                    {"refreshes", gui[i].refreshes},
                    {"snapshots_published", double(gui[i].published)},
                    {"refresh_per_s", gui[i].refreshes / std::max(1e-9, gui[i].jobSeconds)},
                    {"probe_p99_ms", percentile(gui[i].lateMs, 99)}});
  const double ratio = bestGui->fitSeconds / bestDirect->fitSeconds;
  std::vector<double> directTimes, guiTimes;
  for (const auto& d : direct) directTimes.push_back(d.fitSeconds);
  for (const auto& g : gui) guiTimes.push_back(g.fitSeconds);
  const double medianRatio = percentile(guiTimes, 50) / percentile(directTimes, 50);
  const double refreshRate = bestGui->refreshes / std::max(1e-9, bestGui->jobSeconds);
  const double p99 = percentile(late, 99);
  QJsonObject out{{"benchmark", "gui-responsiveness"},
                  {"rows", double(o.rows)},
                  {"covariates", o.covariates},
                  {"knots", o.knots},
                  {"mstop", o.mstop},
                  {"backend", o.backend},
                  {"device", qs(w.controller()->setup() ? w.controller()->setup()->backend.device : std::string())},
                  {"latency_ms", QJsonObject{{"samples", double(late.size())},
                                             {"p50", percentile(late, 50)},
                                             {"p90", percentile(late, 90)},
                                             {"p99", p99},
                                             {"max", percentile(late, 100)}}},
                  {"refresh_per_s", refreshRate},
                  {"fit_s", QJsonObject{{"direct_best", bestDirect->fitSeconds},
                                        {"gui_best", bestGui->fitSeconds},
                                        {"gui_over_direct", ratio},
                                        {"direct_median", percentile(directTimes, 50)},
                                        {"gui_median", percentile(guiTimes, 50)},
                                        {"median_gui_over_direct", medianRatio}}},
                  {"rounds", rounds},
                  {"pass", QJsonObject{{"latency_p99_below_50ms", p99 < 50},
                                       {"refresh_at_least_10_per_s", refreshRate >= 10},
                                       {"fit_at_most_10pct_slower", ratio <= 1.10 && medianRatio <= 1.10}}}};
  std::printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Indented).constData());
  w.close();
  return 0;
}

}  // namespace gbui

#pragma once
#include <QString>

namespace gbui {

// How the window starts: the app uses the defaults; tests, benchmarks and screenshots switch dialogs off and
// keep their settings in a file of their own.
struct StudioOptions {
  bool interactive = true;      // false: no dialogs (messages go to the log and MessageSink::lastError)
  QString settingsFile;         // empty: the platform's QSettings
  bool restoreSettings = true;  // read the saved settings and window geometry
  bool generateOnStart = true;  // generate the paper's data at start-up (a fit is one click away)
  bool listDevices = true;      // query OpenCL devices at start (in the background)
};

}  // namespace gbui

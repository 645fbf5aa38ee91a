#pragma once
// Shared set-up for the GUI tests: a window that never opens a dialog (messages go to MessageSink::lastError),
// keeps its QSettings in the test's scratch directory, and helpers that drive it like a user.
#include <QByteArray>
#include <QPushButton>
#include <QString>
#include <memory>
#include <optional>

#include "data/PaperData.hpp"
#include "window/MainWindow.hpp"

namespace gbtest {

// Scratch file path under GB_TEST_TMP (created), unique per test executable and name.
QString scratchPath(const QString& name);

gbui::StudioOptions testOptions(const QString& settingsName);

// The paper's data spec with these sizes (the other fields at their defaults).
gb::PaperDataSpec paperSpec(std::size_t rows, int covariates, int informative, std::uint64_t seed);

// A shown 1280 x 820 window without data (its settings in the test's scratch directory as `settingsName`).
std::unique_ptr<gbui::MainWindow> emptyWindow(const QString& settingsName);

// A shown window with the paper's data generated (p covariates, 20 informative or fewer) and `mstop` set.
std::unique_ptr<gbui::MainWindow> makeWindow(std::size_t rows, int covariates, int mstop, std::uint64_t seed = 1,
                                             const QString& settingsName = "settings");

// Opens a session and waits until its data is generated or read (its roles and Cross-validation tab are then in
// place); false when openSession refuses or on timeout.
bool openSessionAndWait(gbui::MainWindow& w, const QString& path, int timeoutMs = 20000);

// Opens `path` like File > Open and waits for the read: its outcome (loadFinished's ok), or nullopt when openCsv
// refused to start or the read did not end within 10 s.
std::optional<bool> openCsvAndWait(gbui::MainWindow& w, const QString& path);

// Writes `text` to a scratch CSV `name` and loads it like File > Open; false if the read failed or timed out.
bool openCsvText(gbui::MainWindow& w, const QString& name, const QByteArray& text);

// A rare-events CSV "y,x1": `events` rows of "yes" first, then "no", x1 ~ U(0, 1) drawn from `seed`.
QByteArray rareEventsCsv(int rows, int events, std::uint64_t seed);

// Picks `family` (its data value in the model panel's family box, e.g. "binomial") and sets mstop.
void chooseFamily(gbui::MainWindow& w, const char* family, int mstop);

// Triggers Fit (or Step) and waits for the job to end; false on timeout.
bool fitAndWait(gbui::MainWindow& w, int timeoutMs = 20000);
bool stepAndWait(gbui::MainWindow& w, int timeoutMs = 20000);

}  // namespace gbtest

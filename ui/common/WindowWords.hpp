#pragma once
// The engine's messages name the CLI's options ("raise --edf", "--kernel compact_x"); in the window they must name
// the controls the user sees ("raise edf", "Kernel compact_x"). inWindowWords() rewrites every "--option" the
// engine uses into its control's label; MessageSink applies it to everything it shows or logs.
#include <QString>

namespace gbui {

QString inWindowWords(const QString& message);

}  // namespace gbui

#pragma once
// Asks for the pixel size of an exported picture, proposing the size the plots have on screen.
#include <QSize>
#include <optional>

class QWidget;

namespace gbui {

// The chosen size, or nothing when the user cancels.
std::optional<QSize> askExportSize(QWidget* parent, QSize proposed);

}  // namespace gbui

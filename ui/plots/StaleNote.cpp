#include "plots/StaleNote.hpp"

namespace gbui {

StaleNote::StaleNote(QWidget* parent)
    : QLabel(tr("The data or settings changed since this fit: this view still describes the fit on show. Fit (or "
                "Step) to see the new model."),
             parent) {
  setWordWrap(true);
  setStyleSheet("color: #b35c00");
  setHidden(true);
}

}  // namespace gbui

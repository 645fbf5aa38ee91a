#include "window/InternalTooltips.hpp"

#include <QAbstractButton>
#include <QCoreApplication>
#include <QWidget>

namespace gbui {

void tooltipQtInternals(QWidget* root) {
  auto tr = [](const char* s) { return QCoreApplication::translate("gbui::MainWindow", s); };
  for (QAbstractButton* b : root->findChildren<QAbstractButton*>()) {
    if (!b->toolTip().isEmpty()) continue;
    const QString name = b->objectName();
    const QString cls = b->metaObject()->className();
    if (name == "qt_dockwidget_floatbutton")
      b->setToolTip(tr("Float or re-dock this panel"));
    else if (name == "qt_dockwidget_closebutton")
      b->setToolTip(tr("Close this panel (View menu brings it back)"));
    else if (name == "ScrollLeftButton")
      b->setToolTip(tr("Scroll the tabs left"));
    else if (name == "ScrollRightButton")
      b->setToolTip(tr("Scroll the tabs right"));
    else if (name == "qt_toolbar_ext_button" || name == "qt_menubar_ext_button")
      b->setToolTip(tr("More actions"));
    else if (cls == "QTableCornerButton")
      b->setToolTip(tr("Select the whole table"));
  }
}

}  // namespace gbui

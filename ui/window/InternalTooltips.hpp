#pragma once
class QWidget;

namespace gbui {

// Qt's composite widgets create small buttons of their own (dock title buttons, tab-bar scroll arrows, a table's
// select-all corner, the tool bar's overflow arrow) without tooltips; give them one, like every other control.
void tooltipQtInternals(QWidget* root);

}  // namespace gbui

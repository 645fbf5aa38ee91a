// Qt resources compiled into the static gb_ui library must be registered explicitly (Q_INIT_RESOURCE must sit
// outside any namespace), so the window calls this once.
#include <QtGlobal>

void gbInitStudioResources() {
  static const bool done = [] {
    Q_INIT_RESOURCE(studio);
    return true;
  }();
  (void)done;
}

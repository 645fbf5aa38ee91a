#include "plots/ExportSizeDialog.hpp"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QSpinBox>

namespace gbui {

namespace {

QSpinBox* pixelBox(int value, const QString& tip) {
  auto* box = new QSpinBox;
  box->setRange(100, 20000);
  box->setSuffix(QObject::tr(" px"));
  box->setValue(value);
  box->setToolTip(tip);
  return box;
}

}  // namespace

std::optional<QSize> askExportSize(QWidget* parent, QSize proposed) {
  QDialog dialog(parent);
  dialog.setWindowTitle(QObject::tr("Export size"));
  auto* form = new QFormLayout(&dialog);
  QSpinBox* width = pixelBox(proposed.width(),
                             QObject::tr("Width of the picture (the plots as on screen: %1 px)").arg(proposed.width()));
  QSpinBox* height = pixelBox(
      proposed.height(), QObject::tr("Height of the picture (the plots as on screen: %1 px)").arg(proposed.height()));
  form->addRow(QObject::tr("Width"), width);
  form->addRow(QObject::tr("Height"), height);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  form->addRow(buttons);
  if (dialog.exec() != QDialog::Accepted) return std::nullopt;
  return QSize(width->value(), height->value());
}

}  // namespace gbui

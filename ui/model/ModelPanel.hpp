#pragma once
// Model and compute settings: spline (knots, degree, boundary), penalty (kind, order), edf and its definition,
// nu, mstop; the family (with huber's delta and the quantile's tau, shown only for those), an optional fixed
// offset, the linear and factor learners' edf (unchecked: unpenalised), missing values (omit / fail); bootstrap
// bands for the partial effects after a fit (B, off by default); backend,
// device, kernel, precision; one-click presets (the paper's, mboost's defaults; both keep the family's options).
#include <QWidget>
#include <optional>

#include "compute/ComputeDevices.hpp"
#include "settings/ComputeSettings.hpp"
#include "settings/ModelSettings.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSpinBox;

namespace gbui {

class ModelPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ModelPanel(QWidget* parent = nullptr);

  // Response and learners are not set here (they come from the column roles).
  gb::ModelSettings settings() const;
  void setSettings(const gb::ModelSettings& s);
  gb::ComputeSettings compute() const;
  void setCompute(const gb::ComputeSettings& c);
  // The devices to choose from; keeps the choices on show, or applies settings that waited for the list.
  void setDevices(const gb::ComputeDeviceList& devices);
  bool devicesKnown() const { return devicesKnown_; }
  // What a settings or session file keeps: restored choices still waiting for the device list (compute() can show
  // only the CPU until it comes), else compute().
  gb::ComputeSettings computeToSave() const;  // a device list came (not only the constructor's CPU)
  QString openClStatus() const;

  void applyPaperPreset();
  void applyMboostPreset();
  QPushButton* paperPresetButton() const { return paper_; }
  QPushButton* mboostPresetButton() const { return mboost_; }
  QSpinBox* mstopBox() const { return mstop_; }
  QComboBox* precisionBox() const { return precision_; }
  QComboBox* kernelBox() const { return kernel_; }
  QComboBox* familyBox() const { return family_; }
  QComboBox* linkBox() const { return link_; }
  QDoubleSpinBox* huberDeltaBox() const { return huberDelta_; }
  QDoubleSpinBox* tauBox() const { return tau_; }
  QCheckBox* offsetCheck() const { return offsetOn_; }
  QCheckBox* linearEdfCheck() const { return linearEdfOn_; }
  QCheckBox* factorEdfCheck() const { return factorEdfOn_; }
  QComboBox* missingBox() const { return missing_; }
  // B of the bootstrap bands a finished fit gets (0: the option is off); not a model setting.
  int bandReplicates() const;
  void setBandReplicates(int replicates);  // 0: off (B stays as it was)
  QCheckBox* bandsCheck() const { return bandsOn_; }
  QSpinBox* bandsBox() const { return bands_; }

 signals:
  void settingsChanged();

 private:
  QWidget* buildModelGroup();
  QWidget* buildBandsRow();
  QWidget* buildFamilyGroup();
  QWidget* buildComputeGroup();
  void connectChanges();
  void applyPreset(gb::ModelSettings preset);
  void fillDevices();
  void fillPrecisions();
  void updateEnabled();

  QSpinBox* knots_;
  QSpinBox* degree_;
  QComboBox* boundary_;
  QComboBox* penalty_;
  QSpinBox* differences_;
  QDoubleSpinBox* edf_;
  QComboBox* edfDefinition_;
  QDoubleSpinBox* nu_;
  QSpinBox* mstop_;
  QCheckBox* bandsOn_;
  QSpinBox* bands_;
  QFormLayout* familyForm_;
  QComboBox* family_;
  QComboBox* link_;
  QDoubleSpinBox* huberDelta_;
  QDoubleSpinBox* tau_;
  QCheckBox* offsetOn_;
  QDoubleSpinBox* offset_;
  QCheckBox* linearEdfOn_;
  QDoubleSpinBox* linearEdf_;
  QCheckBox* factorEdfOn_;
  QDoubleSpinBox* factorEdf_;
  QComboBox* missing_;
  QComboBox* backend_;
  QComboBox* device_;
  QComboBox* kernel_;
  QComboBox* precision_;
  QLabel* openClNote_;
  QPushButton* paper_;
  QPushButton* mboost_;
  gb::ComputeDeviceList devices_;
  // Compute settings given before the device query answered (a restored session's OpenCL choice, which the combo
  // boxes cannot hold yet): applied by setDevices, so that a restart keeps the backend the user chose.
  std::optional<gb::ComputeSettings> pendingCompute_;
  bool devicesKnown_ = false;
};

}  // namespace gbui

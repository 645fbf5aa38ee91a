#include "model/ModelPanel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "common/QtConvert.hpp"
#include "compute/Backend.hpp"
#include "fit/BandsJob.hpp"

namespace gbui {

namespace {

QComboBox* combo(const QList<QPair<QString, QString>>& items, const QString& tip) {
  auto* c = new QComboBox;
  for (const auto& [text, data] : items) c->addItem(text, data);
  c->setToolTip(tip);
  return c;
}

void select(QComboBox* c, const QString& data) {
  const int i = c->findData(data);
  if (i >= 0) c->setCurrentIndex(i);
}

QString choice(const QComboBox* c) { return c->currentData().toString(); }

// An OpenCL device as the settings name it: its address P:D, which tells devices of one name apart (the name where
// the list has no address).
QString deviceValue(const gb::ComputeDeviceInfo& d) { return qs(d.address.empty() ? d.name : d.address); }

// The choice for saved settings' device: settings from before addresses hold a name; it means that name's device.
QString deviceChoice(const gb::ComputeDeviceList& list, const std::string& device) {
  for (const auto& d : list.devices)
    if (d.backend == "opencl" && d.address == device) return qs(device);
  for (const auto& d : list.devices)
    if (d.backend == "opencl" && d.name == device) return deviceValue(d);
  return qs(device);
}

QDoubleSpinBox* value(double lo, double hi, int decimals, const QString& tip) {
  auto* v = new QDoubleSpinBox;
  v->setRange(lo, hi);
  v->setDecimals(decimals);
  v->setToolTip(tip);
  return v;
}

QCheckBox* check(const QString& tip) {
  auto* c = new QCheckBox;
  c->setToolTip(tip);
  return c;
}

// A check box that switches an optional value on, and the value, in one form row.
QWidget* pair(QCheckBox* on, QWidget* v) {
  auto* w = new QWidget;
  auto* row = new QHBoxLayout(w);
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(on);
  row->addWidget(v, 1);
  return w;
}

}  // namespace

ModelPanel::ModelPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* presets = new QHBoxLayout;
  paper_ = new QPushButton(tr("Paper"));
  paper_->setToolTip(
      tr("The paper's simulation: 12 knots, clamped, ridge penalty, edf 1 by the trace definition "
         "(the family and its options are kept)"));
  mboost_ = new QPushButton(tr("mboost defaults"));
  mboost_->setToolTip(
      tr("mboost's bbs() defaults: 20 knots, extended, 2nd-order P-spline, df 4 (mboost definition), "
         "nu 0.1, mstop 100; bols() unpenalised (the family and its options are kept)"));
  presets->addWidget(new QLabel(tr("Presets")));
  presets->addWidget(paper_);
  presets->addWidget(mboost_);
  layout->addLayout(presets);
  layout->addWidget(buildFamilyGroup());
  layout->addWidget(buildModelGroup());
  layout->addWidget(buildComputeGroup());

  setSettings(gb::ModelSettings::mboostPreset());
  gb::ComputeDeviceList cpuOnly;
  cpuOnly.devices.push_back({"cpu", "", tr("CPU (Eigen, OpenMP)").toStdString(), "host"});
  setDevices(cpuOnly);
  devicesKnown_ = false;  // the window's device query has not answered yet
  connectChanges();
}

QWidget* ModelPanel::buildModelGroup() {
  auto* model = new QGroupBox(tr("Splines and boosting"));
  auto* form = new QFormLayout(model);
  knots_ = new QSpinBox;
  knots_->setRange(1, 500);
  knots_->setToolTip(tr("Interior knots per covariate (equidistant over its range); k = knots + degree + 1 columns"));
  degree_ = new QSpinBox;
  degree_->setRange(1, 5);
  degree_->setToolTip(tr("Polynomial degree of the B-splines (3: cubic)"));
  boundary_ = combo({{tr("extended (mboost)"), "extended"}, {tr("clamped (patsy bs)"), "clamped"}},
                    tr("Boundary knots: extended continues the grid past the range (mboost's bbs); clamped repeats "
                       "the end knots (the paper's patsy bs)"));
  penalty_ = combo({{tr("P-spline (differences)"), "pspline"}, {tr("ridge (identity)"), "ridge"}},
                   tr("Penalty matrix S: D'D of d-th differences (P-spline) or the identity (ridge, the paper's l2)"));
  differences_ = new QSpinBox;
  differences_->setRange(0, 3);
  differences_->setToolTip(tr("Order d of the difference penalty (P-spline only; 2 = mboost's default)"));
  edf_ = new QDoubleSpinBox;
  edf_->setRange(0.01, 1000);
  edf_->setDecimals(3);
  edf_->setSingleStep(0.5);
  edf_->setToolTip(tr("Target effective degrees of freedom per spline learner; lambda is solved from it once"));
  edfDefinition_ = combo({{tr("mboost: tr(2H - H'H)"), "mboost"}, {tr("trace: tr(H)"), "trace"}},
                         tr("Which edf definition the target refers to (mboost's gives a larger lambda)"));
  nu_ = new QDoubleSpinBox;
  nu_->setRange(0.001, 1.0);
  nu_->setDecimals(3);
  nu_->setSingleStep(0.05);
  nu_->setToolTip(tr("Step length nu: the share of the winning learner's fit added per iteration"));
  mstop_ = new QSpinBox;
  mstop_->setRange(1, 10'000'000);
  mstop_->setGroupSeparatorShown(true);
  mstop_->setToolTip(tr("Number of boosting iterations"));
  form->addRow(tr("Knots"), knots_);
  form->addRow(tr("Degree"), degree_);
  form->addRow(tr("Boundary"), boundary_);
  form->addRow(tr("Penalty"), penalty_);
  form->addRow(tr("Differences"), differences_);
  form->addRow(tr("edf"), edf_);
  form->addRow(tr("edf definition"), edfDefinition_);
  form->addRow(tr("nu"), nu_);
  form->addRow(tr("mstop"), mstop_);
  form->addRow(tr("Bands (bootstrap B)"), buildBandsRow());
  return model;
}

QWidget* ModelPanel::buildBandsRow() {
  bandsOn_ =
      check(tr("After a fit reaches mstop, refit B bootstrap samples of the rows at that mstop (seed 1) and shade "
               "each partial effect's pointwise 95% (lighter) and 90% (darker) percentile bands, as "
               "gamboost fit --bands B"));
  bands_ = new QSpinBox;
  bands_->setRange(1, kMaxWindowBands);
  bands_->setValue(25);
  bands_->setToolTip(tr("B: bootstrap refits for the bands (more: smoother band edges, proportionally longer)"));
  return pair(bandsOn_, bands_);
}

int ModelPanel::bandReplicates() const { return bandsOn_->isChecked() ? bands_->value() : 0; }

void ModelPanel::setBandReplicates(int replicates) {
  if (replicates > 0) bands_->setValue(replicates);
  bandsOn_->setChecked(replicates > 0);
}

QWidget* ModelPanel::buildFamilyGroup() {
  auto* group = new QGroupBox(tr("Family and learners"));
  familyForm_ = new QFormLayout(group);
  QList<QPair<QString, QString>> families;
  for (gb::Family f :
       {gb::Family::Gaussian, gb::Family::Binomial, gb::Family::Poisson, gb::Family::Laplace, gb::Family::Huber,
        gb::Family::Quantile, gb::Family::Expectile, gb::Family::AdaExp, gb::Family::Gamma, gb::Family::NegBin})
    families.append({qs(gb::toString(f)), qs(gb::toString(f))});
  family_ =
      combo(families,
            tr("The loss being boosted, as mboost 2.9 defines it: gaussian (squared error), binomial (a two-class "
               "response: two numbers, the larger the event, or two levels; f is half the log-odds), poisson (counts; "
               "f is the log rate), laplace "
               "(absolute error), huber (with delta), quantile (with tau), expectile (with tau), adaexp (AdaBoost's "
               "exponential loss on a two-class response), gamma (a positive response; f is the log mean, mboost's "
               "GammaReg), negbin (overdispersed counts; f is the log mean, mboost's NBinomial)"));
  QList<QPair<QString, QString>> links;
  for (gb::BinomialLink l :
       {gb::BinomialLink::Logit, gb::BinomialLink::Probit, gb::BinomialLink::Cloglog, gb::BinomialLink::Cauchit})
    links.append({qs(gb::toString(l)), qs(gb::toString(l))});
  link_ = combo(links, tr("The binomial's link, as mboost's Binomial(link = ...): logit (mboost's default; f is half "
                          "the log-odds), probit, cloglog or cauchit (f on the link's own scale, as glm has it)"));
  huberDelta_ = value(0.0, 1e12, 6,
                      tr("Huber's d: squared error for residuals below d, linear above; at 0, mboost's adaptive d "
                         "(Huber()): the median of |y - f| at the fit before, re-estimated at every iteration"));
  huberDelta_->setSpecialValueText(tr("adaptive (mboost's default)"));
  tau_ = value(0.001, 0.999, 3, tr("The quantile or expectile tau the family fits, in (0, 1)"));
  tau_->setSingleStep(0.05);
  offsetOn_ =
      check(tr("Fix the offset (the starting value of f); unchecked: the family's own (mean, "
               "half log-odds of the mean, median, ...)"));
  offset_ = value(-1e12, 1e12, 6, tr("The fixed offset, on the scale of f"));
  linearEdfOn_ =
      check(tr("Penalise the linear learners (bols(x)) to this edf; unchecked: unpenalised, "
               "gamboost's default"));
  linearEdf_ = value(0.01, 1000, 3, tr("Target edf of each linear learner"));
  linearEdf_->setValue(1.0);
  factorEdfOn_ =
      check(tr("Penalise the factor learners (bols(f)) to this edf; unchecked: unpenalised, "
               "gamboost's default"));
  factorEdf_ = value(0.01, 1000, 3, tr("Target edf of each factor learner"));
  factorEdf_->setValue(1.0);
  missing_ = combo({{tr("omit rows (na.omit)"), "omit"}, {tr("fail"), "fail"}},
                   tr("Rows with a missing value in a used column: left out of the fit (R's na.omit), or an error "
                      "naming the first"));
  familyForm_->addRow(tr("Family"), family_);
  familyForm_->addRow(tr("Link"), link_);
  familyForm_->addRow(tr("Huber delta"), huberDelta_);
  familyForm_->addRow(tr("Tau"), tau_);
  familyForm_->addRow(tr("Offset"), pair(offsetOn_, offset_));
  familyForm_->addRow(tr("Linear edf"), pair(linearEdfOn_, linearEdf_));
  familyForm_->addRow(tr("Factor edf"), pair(factorEdfOn_, factorEdf_));
  familyForm_->addRow(tr("Missing values"), missing_);
  return group;
}

QWidget* ModelPanel::buildComputeGroup() {
  auto* compute = new QGroupBox(tr("Compute"));
  auto* cform = new QFormLayout(compute);
  backend_ = combo({}, tr("Where the fit runs: the CPU backend (Eigen, OpenMP) or an OpenCL device"));
  device_ = combo({}, tr("The device the backend uses"));
  device_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  device_->setMinimumContentsLength(14);
  // The choices are the engine's (kernelChoices / precisionChoices): the window offers only what a fit accepts.
  QList<QPair<QString, QString>> kernels{{tr("default"), ""}};
  for (const std::string& k : gb::kernelChoices(gb::BackendKind::OpenCl)) kernels.append({qs(k), qs(k)});
  kernel_ =
      combo(kernels, tr("OpenCL kernel for B'g (default: the backend's choice; compact kernels need no dense B)"));
  precision_ = combo({}, tr("Floating-point precision (the CPU backend computes in double; OpenCL defaults to "
                            "float and offers double only on devices with cl_khr_fp64)"));
  openClNote_ = new QLabel;
  openClNote_->setWordWrap(true);
  openClNote_->setVisible(false);
  cform->addRow(tr("Backend"), backend_);
  cform->addRow(tr("Device"), device_);
  cform->addRow(tr("Kernel"), kernel_);
  cform->addRow(tr("Precision"), precision_);
  cform->addRow(openClNote_);
  return compute;
}

void ModelPanel::connectChanges() {
  connect(paper_, &QPushButton::clicked, this, &ModelPanel::applyPaperPreset);
  connect(mboost_, &QPushButton::clicked, this, &ModelPanel::applyMboostPreset);
  connect(backend_, &QComboBox::currentIndexChanged, this, [this] {
    fillDevices();
    fillPrecisions();
    updateEnabled();
  });
  connect(device_, &QComboBox::currentIndexChanged, this, &ModelPanel::fillPrecisions);
  for (QComboBox* c : {penalty_, family_})
    connect(c, &QComboBox::currentIndexChanged, this, &ModelPanel::updateEnabled);
  connect(bandsOn_, &QCheckBox::toggled, this, &ModelPanel::updateEnabled);
  for (QCheckBox* c : {offsetOn_, linearEdfOn_, factorEdfOn_}) {
    connect(c, &QCheckBox::toggled, this, &ModelPanel::updateEnabled);
    connect(c, &QCheckBox::toggled, this, &ModelPanel::settingsChanged);
  }
  for (QSpinBox* s : {knots_, degree_, differences_, mstop_})
    connect(s, &QSpinBox::valueChanged, this, &ModelPanel::settingsChanged);
  for (QDoubleSpinBox* s : {edf_, nu_, huberDelta_, tau_, offset_, linearEdf_, factorEdf_})
    connect(s, &QDoubleSpinBox::valueChanged, this, &ModelPanel::settingsChanged);
  for (QComboBox* c :
       {boundary_, penalty_, edfDefinition_, family_, link_, missing_, backend_, device_, kernel_, precision_})
    connect(c, &QComboBox::currentIndexChanged, this, &ModelPanel::settingsChanged);
}

gb::ModelSettings ModelPanel::settings() const {
  gb::ModelSettings s;
  s.spline.knots = knots_->value();
  s.spline.degree = degree_->value();
  s.spline.boundary = gb::boundaryFromString(ss(choice(boundary_)));
  s.penalty = gb::penaltyFromString(ss(choice(penalty_)));
  s.differences = s.penalty == gb::PenaltyKind::Ridge ? 0 : differences_->value();
  s.edf = edf_->value();
  s.edfDefinition = gb::edfDefinitionFromString(ss(choice(edfDefinition_)));
  s.nu = nu_->value();
  s.mstop = mstop_->value();
  s.family = gb::familyFromString(ss(choice(family_)));
  // The link row shows for the binomial only; another family keeps logit, the one link every family takes.
  s.link = s.family == gb::Family::Binomial ? gb::linkFromString(ss(choice(link_))) : gb::BinomialLink::Logit;
  s.huberDelta = huberDelta_->value();
  s.tau = tau_->value();
  s.hasOffset = offsetOn_->isChecked();
  s.offset = s.hasOffset ? offset_->value() : 0.0;
  s.linearEdf = linearEdfOn_->isChecked() ? linearEdf_->value() : 0.0;
  s.factorEdf = factorEdfOn_->isChecked() ? factorEdf_->value() : 0.0;
  s.missing = gb::missingPolicyFromString(ss(choice(missing_)));
  return s;
}

void ModelPanel::setSettings(const gb::ModelSettings& s) {
  knots_->setValue(s.spline.knots);
  degree_->setValue(s.spline.degree);
  select(boundary_, qs(gb::toString(s.spline.boundary)));
  select(penalty_, qs(gb::toString(s.penalty)));
  differences_->setValue(s.differences);
  edf_->setValue(s.edf);
  select(edfDefinition_, qs(gb::toString(s.edfDefinition)));
  nu_->setValue(s.nu);
  mstop_->setValue(s.mstop);
  select(family_, qs(gb::toString(s.family)));
  select(link_, qs(gb::toString(s.link)));
  huberDelta_->setValue(s.huberDelta);
  tau_->setValue(s.tau);
  offsetOn_->setChecked(s.hasOffset);
  if (s.hasOffset) offset_->setValue(s.offset);
  linearEdfOn_->setChecked(s.linearEdf > 0);
  if (s.linearEdf > 0) linearEdf_->setValue(s.linearEdf);
  factorEdfOn_->setChecked(s.factorEdf > 0);
  if (s.factorEdf > 0) factorEdf_->setValue(s.factorEdf);
  select(missing_, qs(gb::toString(s.missing)));
  updateEnabled();
}

// A preset sets the splines, the learners' edf and the boosting; the family belongs to the response and stays.
void ModelPanel::applyPreset(gb::ModelSettings preset) {
  const gb::ModelSettings now = settings();
  preset.family = now.family;
  preset.link = now.link;
  preset.huberDelta = now.huberDelta;
  preset.tau = now.tau;
  preset.hasOffset = now.hasOffset;
  preset.offset = now.offset;
  preset.missing = now.missing;
  setSettings(preset);
}

void ModelPanel::applyPaperPreset() { applyPreset(gb::ModelSettings::paperPreset()); }
void ModelPanel::applyMboostPreset() { applyPreset(gb::ModelSettings::mboostPreset()); }

gb::ComputeSettings ModelPanel::compute() const {
  gb::ComputeSettings c;
  c.backend = gb::backendFromString(ss(choice(backend_)));
  if (c.backend == gb::BackendKind::OpenCl) {
    c.device = ss(choice(device_));
    c.kernel = ss(choice(kernel_));
  }
  c.precision = gb::precisionFromString(ss(choice(precision_)));
  return c;
}

void ModelPanel::setCompute(const gb::ComputeSettings& c) {
  pendingCompute_.reset();
  if (!devicesKnown_ && c.backend != gb::BackendKind::Cpu) pendingCompute_ = c;
  select(backend_, qs(gb::toString(c.backend)));
  fillDevices();
  fillPrecisions();
  select(device_, deviceChoice(devices_, c.device));
  select(kernel_, qs(c.kernel));
  select(precision_, qs(gb::toString(c.precision)));
  updateEnabled();
}

void ModelPanel::setDevices(const gb::ComputeDeviceList& devices) {
  // The choices on show, or the ones that waited for this list (restored settings): the caller need not keep them.
  const gb::ComputeSettings chosen = backend_->count() > 0 ? computeToSave() : gb::ComputeSettings{};
  devices_ = devices;
  {
    const QString keep = choice(backend_);
    QSignalBlocker block(backend_);
    backend_->clear();
    backend_->addItem(tr("CPU (Eigen, OpenMP)"), "cpu");
    bool anyOpenCl = false;
    for (const auto& d : devices.devices) anyOpenCl |= d.backend == "opencl";
    if (anyOpenCl) backend_->addItem(tr("OpenCL"), "opencl");
    select(backend_, keep);
    openClNote_->setText(
        anyOpenCl ? QString()
                  : tr("OpenCL unavailable: %1. Only the CPU backend can run.")
                        .arg(devices.openClStatus.empty() ? tr("no OpenCL device found") : qs(devices.openClStatus)));
    openClNote_->setVisible(!anyOpenCl);
    fillDevices();
    fillPrecisions();
    updateEnabled();
  }
  devicesKnown_ = true;
  setCompute(chosen);  // resets pendingCompute_; not blocked, so the window hears a changed backend
}

gb::ComputeSettings ModelPanel::computeToSave() const { return pendingCompute_ ? *pendingCompute_ : compute(); }

QString ModelPanel::openClStatus() const { return openClNote_->text(); }

void ModelPanel::fillDevices() {
  const bool openCl = choice(backend_) == "opencl";
  const QString keep = choice(device_);
  QSignalBlocker block(device_);
  device_->clear();
  for (const auto& d : devices_.devices) {
    if ((d.backend == "opencl") != openCl) continue;
    const QString address = d.address.empty() ? QString() : qs(d.address) + "  ";
    const QString label =
        openCl ? QString("%1%2 (%3, %4)").arg(address, qs(d.name), qs(d.type), qs(d.platform)) : qs(d.name);
    device_->addItem(label, openCl ? deviceValue(d) : QString());
    if (d.isDefault && keep.isEmpty()) device_->setCurrentIndex(device_->count() - 1);
  }
  if (!openCl && device_->count() == 0) device_->addItem(tr("CPU (Eigen, OpenMP)"), QString());
  select(device_, keep);
}

void ModelPanel::fillPrecisions() {
  const QString keep = choice(precision_);
  QSignalBlocker block(precision_);
  precision_->clear();
  precision_->addItem(tr("default"), QString());
  const gb::BackendKind backend = gb::backendFromString(ss(choice(backend_)));
  const QString device = choice(device_);
  bool fp64 = true;  // the chosen OpenCL device's cl_khr_fp64: without it the engine refuses double
  for (const auto& d : devices_.devices)
    if (backend == gb::BackendKind::OpenCl && d.backend == "opencl" && deviceValue(d) == device) fp64 = d.fp64;
  for (gb::Precision p : gb::precisionChoices(backend))
    if (p != gb::Precision::Double || fp64) precision_->addItem(qs(gb::toString(p)), qs(gb::toString(p)));
  select(precision_, keep);
}

void ModelPanel::updateEnabled() {
  const bool openCl = choice(backend_) == "opencl";
  device_->setEnabled(openCl);
  kernel_->setEnabled(openCl);
  differences_->setEnabled(choice(penalty_) == "pspline");
  const QString family = choice(family_);
  familyForm_->setRowVisible(link_, family == "binomial");
  familyForm_->setRowVisible(huberDelta_, family == "huber");
  familyForm_->setRowVisible(tau_, family == "quantile" || family == "expectile");
  offset_->setEnabled(offsetOn_->isChecked());
  linearEdf_->setEnabled(linearEdfOn_->isChecked());
  factorEdf_->setEnabled(factorEdfOn_->isChecked());
  bands_->setEnabled(bandsOn_->isChecked());
}

}  // namespace gbui

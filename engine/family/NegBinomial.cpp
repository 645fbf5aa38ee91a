#include "family/NegBinomial.hpp"

#include <algorithm>

#include "family/BrentMinimum.hpp"

namespace gb {

namespace {

std::vector<double> distinct(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  v.shrink_to_fit();
  return v;
}

}  // namespace

NegBinCounts::NegBinCounts(const std::vector<double>& y, const std::vector<double>& w)
    : values_(distinct(y)), weights_(values_.size(), 0.0) {
  for (std::size_t i = 0; i < y.size(); ++i)
    weights_[static_cast<std::size_t>(std::lower_bound(values_.begin(), values_.end(), y[i]) - values_.begin())] +=
        w[i];
}

double NegBinCounts::sum(double s) const {
  const double lgammaS = std::lgamma(s);
  double total = 0.0;
  for (std::size_t v = 0; v < values_.size(); ++v)
    if (weights_[v] != 0.0)
      total += weights_[v] * (std::lgamma(values_[v] + s) - lgammaS - std::lgamma(values_[v] + 1.0));
  return total;
}

NegBinShape::NegBinShape(const std::vector<double>& y) : y_(y), code_(y.size()), values_(distinct(y)) {
  for (std::size_t i = 0; i < y.size(); ++i)
    code_[i] = static_cast<std::uint32_t>(std::lower_bound(values_.begin(), values_.end(), y[i]) - values_.begin());
  for (double v : values_) lgammaY1_.push_back(std::lgamma(v + 1.0));
  table_.resize(values_.size());
}

void NegBinShape::prepare(double s) {
  s_ = s;
  lgammaS_ = std::lgamma(s);
  sLogS_ = s * std::log(s);
  for (std::size_t v = 0; v < values_.size(); ++v) table_[v] = std::lgamma(values_[v] + s);
}

double NegBinShape::rowsSum(const double* f, const double* ef, const double* w, std::size_t b, std::size_t e) const {
  double sum = 0.0;
  for (std::size_t i = b; i < e; ++i) {
    const double wi = w ? w[i] : 1.0;
    if (wi == 0.0) continue;
    sum += wi *
           negbinTerms(y_[i], f[i], s_, table_[code_[i]], lgammaS_, lgammaY1_[code_[i]], sLogS_, std::log(ef[i] + s_));
  }
  return sum;
}

double NegBinShape::size(const std::vector<double>& f, const std::vector<double>& w) {
  std::vector<double> ef(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) ef[i] = std::exp(f[i]);
  const double* wp = w.empty() ? nullptr : w.data();
  return brentMinimum(
      [&](double s) {
        prepare(s);
        return rowsSum(f.data(), ef.data(), wp, 0, f.size());
      },
      0.0, 100.0, kOptimizeTolerance);
}

}  // namespace gb

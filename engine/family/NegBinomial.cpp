#include "family/NegBinomial.hpp"

#include <algorithm>

#include "family/BrentMinimum.hpp"

namespace gb {

NegBinShape::NegBinShape(const std::vector<double>& y) : y_(y), lgammaY1_(y.size()), code_(y.size()), values_(y) {
  std::sort(values_.begin(), values_.end());
  values_.erase(std::unique(values_.begin(), values_.end()), values_.end());
  for (std::size_t i = 0; i < y.size(); ++i) {
    lgammaY1_[i] = std::lgamma(y[i] + 1.0);
    code_[i] = static_cast<std::uint32_t>(std::lower_bound(values_.begin(), values_.end(), y[i]) - values_.begin());
  }
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
    sum += wi * negbinTerms(y_[i], f[i], s_, table_[code_[i]], lgammaS_, lgammaY1_[i], sLogS_, std::log(ef[i] + s_));
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

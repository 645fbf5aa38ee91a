#pragma once
// mboost's NBinomial(): a count response, f the log mean, the negative binomial's size sigma re-estimated at every f
// by optimize(riskS, c(0, 100)), as GammaReg's shape is. Its loss couples sigma and f in every row, through
// log(exp(f) + sigma), so each of optimize's steps is a pass over the rows. NegBinShape makes that pass cheap: the
// lgamma(y + sigma) of a count comes from a table over the response's distinct values (counts repeat), lgamma(y + 1)
// once for each of them, and exp(f) once per f. Each row's loss comes from negbinTerms, as negbinLoss's does.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gb {

// NBinomial's plloss(sigma, y, f) from its parts, term by term in R's order: lgamma(y + s), lgamma(s), lgamma(y + 1),
// s log s and l = log(exp(f) + s).
inline double negbinTerms(double y, double f, double s, double lgammaYS, double lgammaS, double lgammaY1, double sLogS,
                          double l) {
  return -(lgammaYS - lgammaS - lgammaY1 + sLogS - s * l + y * f - y * l);
}
inline double negbinLoss(double y, double f, double s) {
  return negbinTerms(y, f, s, std::lgamma(y + s), std::lgamma(s), std::lgamma(y + 1.0), s * std::log(s),
                     std::log(std::exp(f) + s));
}

// NBinomial's ngradient at size s: y - (y + s) / (exp(f) + s) exp(f).
inline double negbinGradient(double y, double f, double s) {
  const double e = std::exp(f);
  return y - (y + s) / (e + s) * e;
}

// sum(w A(y, s)) with A = lgamma(y + s) - lgamma(s) - lgamma(y + 1), the part of NBinomial's log-likelihood that does
// not depend on f, from the weight of each distinct count: the OpenCL backend's kernels form the rest of the loss
// (kernels/common.cl), and this part, which cancels large terms, stays in double on the host.
class NegBinCounts {
 public:
  NegBinCounts() = default;
  NegBinCounts(const std::vector<double>& y, const std::vector<double>& w);  // w: the rows' weights
  double sum(double s) const;

 private:
  std::vector<double> values_, weights_;
};

class NegBinShape {
 public:
  explicit NegBinShape(const std::vector<double>& y);

  // Prepares the sums at size s (the table of lgamma(v + s)); then rowsSum may run on several threads at once.
  void prepare(double s);
  // sum over rows [b, e) of w_i plloss(s, y_i, f_i) at the prepared s, with ef = exp(f); w null: all 1; rows of
  // weight 0 add nothing.
  double rowsSum(const double* f, const double* ef, const double* w, std::size_t b, std::size_t e) const;

  // optimize(riskS, c(0, 100))$minimum at f (one thread), as NBinomial's ngradient sets sigma.
  double size(const std::vector<double>& f, const std::vector<double>& w);

 private:
  const std::vector<double>& y_;
  std::vector<std::uint32_t> code_;  // row -> distinct value
  std::vector<double> values_;       // the distinct values
  std::vector<double> lgammaY1_;     // lgamma(v + 1) of each distinct value
  std::vector<double> table_;        // lgamma(v + s) at the prepared s
  double s_ = 1.0, lgammaS_ = 0.0, sLogS_ = 0.0;
};

}  // namespace gb

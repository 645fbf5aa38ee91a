#pragma once
// The simulated data of the paper's section 4.1: x_j ~ U(0,1) for p covariates; `informative` of them,
// drawn by the seed, add 10 sin(2 pi x_j); y = intercept + sum + N(0, noiseVar).
// Deterministic for a seed on any platform (own generator, no std:: distributions), and column-parallel.
#include <cstdint>
#include <string>
#include <vector>

#include "data/Dataset.hpp"

namespace gb {

struct PaperDataSpec {
  std::size_t rows = 1000;
  int covariates = 100;
  int informative = 20;
  double noiseVariance = 1e-3;
  double intercept = 7.0;
  std::uint64_t seed = 1;
};

struct PaperData {
  Dataset data;                          // columns y, x1..xp
  std::vector<std::string> informative;  // names of the informative covariates, in column order
  PaperDataSpec spec;
};

// Throws InputError naming the option (--rows, --covariates, --informative, --noise-var) when out of range.
PaperData generatePaperData(const PaperDataSpec& spec);

// {"seed":..,"rows":..,"covariates":..,"informative":["x3",...],"intercept":..,"noise_var":..,"effect":"10*sin(2*pi*x)"}
std::string truthJson(const PaperData& data);

}  // namespace gb

#pragma once
// The simulated data of the paper's section 4.1: x_j ~ U(0,1) for p covariates; `informative` of them,
// drawn by the seed, add 10 sin(2 pi x_j); y = intercept + sum + N(0, noiseVar).
// Deterministic for a seed on any platform (own generator, no std:: distributions), and column-parallel.
#include <cstdint>
#include <memory>
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

// The same table in blocks of rows, with memory independent of spec.rows (gamboost generate streams it to disk).
// The values are those of generatePaperData for the same spec, whatever the block sizes: every column is its
// own random stream, advanced in row order.
class PaperDataStream {
 public:
  explicit PaperDataStream(const PaperDataSpec& spec);  // validates like generatePaperData
  ~PaperDataStream();
  PaperDataStream(const PaperDataStream&) = delete;
  PaperDataStream& operator=(const PaperDataStream&) = delete;

  const std::vector<std::string>& names() const;        // y, x1..xp
  const std::vector<std::string>& informative() const;  // as PaperData::informative
  std::size_t rowsLeft() const;
  // Fills columns[c][0..count) with the next count = min(rows, rowsLeft()) rows (columns resized to at least
  // count); returns count.
  std::size_t next(std::size_t rows, std::vector<std::vector<double>>& columns);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// truthJson's text for a spec and its informative covariates.
std::string truthJson(const PaperDataSpec& spec, const std::vector<std::string>& informative);

// {"seed":..,"rows":..,"covariates":..,"informative":["x3",...],"intercept":..,"noise_var":..,"effect":"10*sin(2*pi*x)"}
std::string truthJson(const PaperData& data);

}  // namespace gb

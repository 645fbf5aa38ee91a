#pragma once
// The truth behind generated data (the paper's section 4.1): which covariates carry an effect and what function it
// is, so the window can draw the true partial effects beside the fitted ones. It comes from the data generated in
// memory (PaperData) or from the "<csv>.truth.json" that `gamboost generate` writes beside its CSV. Only the one
// effect the generator writes, "10*sin(2*pi*x)", is evaluated: any other formula is kept as text and reported as
// unknown rather than guessed at.
#include <optional>
#include <string>
#include <vector>

#include "data/PaperData.hpp"

namespace gb {

// The effect formula gamboost generate writes (PaperData.cpp's truthJson).
inline constexpr const char* kPaperEffectFormula = "10*sin(2*pi*x)";

struct TrueEffects {
  std::vector<std::string> informative;  // covariates that carry the effect, as the truth names them
  std::string effect;                    // the formula as written, e.g. "10*sin(2*pi*x)"
  double intercept = 0.0;
  std::string source;  // the truth file's path, or a description of the generated data

  // Whether `effect` is a formula evaluated here; when false, no true curve can be drawn.
  bool effectKnown() const;
  bool isInformative(const std::string& covariate) const;
  // The uncentred true partial effect at x: the effect for an informative covariate, 0 for any other.
  // Throws InputError naming the formula when !effectKnown().
  double value(const std::string& covariate, double x) const;
};

// The truth of data generated in memory.
TrueEffects trueEffectsOf(const PaperData& data);

// "<csvPath>.truth.json".
std::string truthPathFor(const std::string& csvPath);

// Parses a truth file's text ("informative": array of names, "effect": string, "intercept": number, required;
// other keys ignored). Throws InputError "<path>: ..." naming the field that is missing or of the wrong type.
TrueEffects parseTrueEffects(const std::string& jsonText, const std::string& path);

// The truth beside a CSV: nullopt when "<csvPath>.truth.json" does not exist; InputError when it is malformed.
std::optional<TrueEffects> readTrueEffects(const std::string& csvPath);

// The true partial effect of `covariate` at each `grid` x, centred as the window centres a fitted effect: minus
// its mean over the training rows' values `usedX` (weighted by `weights` when given, one per row). Zeros for an
// uninformative covariate. Throws InputError when the effect is unknown or the weights do not match usedX.
std::vector<double> centredTrueEffect(const TrueEffects& truth, const std::string& covariate,
                                      const std::vector<double>& grid, const std::vector<double>& usedX,
                                      const std::vector<double>& weights = {});

}  // namespace gb

#pragma once
// The enumerated choices of a model's settings, below every layer that uses them (spline, learner, model).
#include <string>

namespace gb {

// Boundary knots of a B-spline basis: clamped (repeated ends) or extended (mboost's bbs), spline/SplineBasis.hpp.
enum class Boundary { Clamped, Extended };

struct SplineSpec {
  // With at most a million interior knots every index of a basis (knots + degree + 1 columns, knot vector entries,
  // interval numbers) fits in int with room to spare; sizes that multiply them are formed in std::size_t.
  static constexpr int kMaxKnots = 1'000'000;
  static constexpr int kMaxDegree = 5;

  int knots = 20;  // interior knots, 1..kMaxKnots
  int degree = 3;  // 1..kMaxDegree
  Boundary boundary = Boundary::Extended;
};

// Ridge (S = I) or a difference penalty S = D'D (spline/Penalty.hpp).
enum class PenaltyKind { Ridge, PSpline };

// How the edf of a penalised learner is counted: tr(H) (the paper) or tr(2H - H'H) (mboost), learner/EdfSolver.hpp.
enum class EdfDefinition { Trace, Mboost };

std::string toString(Boundary b);                             // "clamped" / "extended"
Boundary boundaryFromString(const std::string& s);            // throws InputError("--boundary: ...")
std::string toString(PenaltyKind p);                          // "ridge" / "pspline"
PenaltyKind penaltyFromString(const std::string& s);          // throws InputError("--penalty: ...")
std::string toString(EdfDefinition e);                        // "trace" / "mboost"
EdfDefinition edfDefinitionFromString(const std::string& s);  // throws InputError("--edf-def: ...")

}  // namespace gb

#include "settings/ModelEnums.hpp"

#include "common/EnumNames.hpp"

namespace gb {

namespace {

constexpr EnumNames<Boundary, 2> kBoundaryNames{{{Boundary::Clamped, "clamped"}, {Boundary::Extended, "extended"}}};
constexpr EnumNames<PenaltyKind, 2> kPenaltyNames{{{PenaltyKind::Ridge, "ridge"}, {PenaltyKind::PSpline, "pspline"}}};
constexpr EnumNames<EdfDefinition, 2> kEdfDefinitionNames{
    {{EdfDefinition::Trace, "trace"}, {EdfDefinition::Mboost, "mboost"}}};

constexpr EnumNames<Family, 10> kFamilyNames{{{Family::Gaussian, "gaussian"},
                                              {Family::Binomial, "binomial"},
                                              {Family::Poisson, "poisson"},
                                              {Family::Laplace, "laplace"},
                                              {Family::Huber, "huber"},
                                              {Family::Quantile, "quantile"},
                                              {Family::Expectile, "expectile"},
                                              {Family::AdaExp, "adaexp"},
                                              {Family::Gamma, "gamma"},
                                              {Family::NegBin, "negbin"}}};
constexpr EnumNames<BinomialLink, 4> kLinkNames{{{BinomialLink::Logit, "logit"},
                                                 {BinomialLink::Probit, "probit"},
                                                 {BinomialLink::Cloglog, "cloglog"},
                                                 {BinomialLink::Cauchit, "cauchit"}}};
constexpr EnumNames<MissingPolicy, 2> kMissingNames{{{MissingPolicy::Omit, "omit"}, {MissingPolicy::Fail, "fail"}}};
constexpr EnumNames<LearnerType, 3> kLearnerTypeNames{
    {{LearnerType::Spline, "spline"}, {LearnerType::Linear, "linear"}, {LearnerType::Factor, "factor"}}};

}  // namespace

std::string toString(Boundary b) { return enumToString(kBoundaryNames, b); }
Boundary boundaryFromString(const std::string& s) { return enumFromString(kBoundaryNames, s, "--boundary"); }
std::string toString(PenaltyKind p) { return enumToString(kPenaltyNames, p); }
PenaltyKind penaltyFromString(const std::string& s) { return enumFromString(kPenaltyNames, s, "--penalty"); }
std::string toString(EdfDefinition e) { return enumToString(kEdfDefinitionNames, e); }
EdfDefinition edfDefinitionFromString(const std::string& s) {
  return enumFromString(kEdfDefinitionNames, s, "--edf-def");
}

std::string toString(Family f) { return enumToString(kFamilyNames, f); }
Family familyFromString(const std::string& s) { return enumFromString(kFamilyNames, s, "--family"); }
std::string toString(BinomialLink l) { return enumToString(kLinkNames, l); }
BinomialLink linkFromString(const std::string& s) { return enumFromString(kLinkNames, s, "--link"); }
std::string toString(MissingPolicy m) { return enumToString(kMissingNames, m); }
MissingPolicy missingPolicyFromString(const std::string& s) { return enumFromString(kMissingNames, s, "--missing"); }
std::string toString(LearnerType t) { return enumToString(kLearnerTypeNames, t); }
LearnerType learnerTypeFromString(const std::string& s) { return enumFromString(kLearnerTypeNames, s, "type"); }

}  // namespace gb

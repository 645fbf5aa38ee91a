#include "settings/ModelEnums.hpp"

#include "common/EnumNames.hpp"

namespace gb {

namespace {

constexpr EnumNames<Boundary, 2> kBoundaryNames{{{Boundary::Clamped, "clamped"}, {Boundary::Extended, "extended"}}};
constexpr EnumNames<PenaltyKind, 2> kPenaltyNames{{{PenaltyKind::Ridge, "ridge"}, {PenaltyKind::PSpline, "pspline"}}};
constexpr EnumNames<EdfDefinition, 2> kEdfDefinitionNames{
    {{EdfDefinition::Trace, "trace"}, {EdfDefinition::Mboost, "mboost"}}};

}  // namespace

std::string toString(Boundary b) { return enumToString(kBoundaryNames, b); }
Boundary boundaryFromString(const std::string& s) { return enumFromString(kBoundaryNames, s, "--boundary"); }
std::string toString(PenaltyKind p) { return enumToString(kPenaltyNames, p); }
PenaltyKind penaltyFromString(const std::string& s) { return enumFromString(kPenaltyNames, s, "--penalty"); }
std::string toString(EdfDefinition e) { return enumToString(kEdfDefinitionNames, e); }
EdfDefinition edfDefinitionFromString(const std::string& s) {
  return enumFromString(kEdfDefinitionNames, s, "--edf-def");
}

}  // namespace gb

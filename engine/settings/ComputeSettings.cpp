#include "settings/ComputeSettings.hpp"

#include <nlohmann/json.hpp>

#include "common/EnumNames.hpp"
#include "common/Error.hpp"
#include "common/JsonFields.hpp"

namespace gb {

namespace {

constexpr EnumNames<BackendKind, 2> kBackendNames{{{BackendKind::Cpu, "cpu"}, {BackendKind::OpenCl, "opencl"}}};
constexpr EnumNames<Precision, 2> kPrecisionNames{{{Precision::Double, "double"}, {Precision::Float, "float"}}};

}  // namespace

std::string toString(BackendKind b) { return enumToString(kBackendNames, b); }
BackendKind backendFromString(const std::string& s) {
  // "gpu" is one edit from "cpu": the spelling hint would send a GPU user to the CPU.
  if (s == "gpu" || s == "GPU" || s == "cuda" || s == "cl")
    throw InputError(
        optionMessage("--backend", "must be 'cpu' or 'opencl' (got '" + s + "'): the GPU backend is 'opencl'"));
  return enumFromString(kBackendNames, s, "--backend");
}
std::string toString(Precision p) { return p == Precision::Default ? std::string() : enumToString(kPrecisionNames, p); }
Precision precisionFromString(const std::string& s) {
  return s.empty() ? Precision::Default : enumFromString(kPrecisionNames, s, "--precision");
}

void to_json(nlohmann::json& j, const ComputeSettings& s) {
  j = nlohmann::json{{"backend", toString(s.backend)},
                     {"device", s.device},
                     {"precision", toString(s.precision)},
                     {"kernel", s.kernel},
                     {"threads", s.threads}};
  if (!s.devices.empty()) j["devices"] = s.devices;
}

void from_json(const nlohmann::json& j, ComputeSettings& s) {
  if (!j.is_object()) jsonfield::fail("compute", "must be a JSON object, got " + jsonfield::describe(j));
  for (auto [key, value] : {std::pair<const char*, std::string*>{"device", &s.device}, {"kernel", &s.kernel}})
    if (const auto it = j.find(key); it != j.end()) *value = jsonfield::text(*it, std::string("compute.") + key);
  jsonfield::word(j, "backend", "compute.backend", s.backend, &backendFromString);
  jsonfield::word(j, "precision", "compute.precision", s.precision, &precisionFromString);
  // 0 = all cores; more threads than this is no machine's core count.
  if (const auto it = j.find("threads"); it != j.end())
    s.threads = static_cast<int>(jsonfield::integer(*it, "compute.threads", 0, 65536));
  if (const auto it = j.find("devices"); it != j.end()) {
    if (!it->is_array()) jsonfield::fail("compute.devices", "must be an array of device addresses");
    s.devices.clear();
    for (const auto& d : *it) s.devices.push_back(jsonfield::text(d, "compute.devices"));
  }
}

}  // namespace gb

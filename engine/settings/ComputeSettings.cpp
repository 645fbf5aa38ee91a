#include "settings/ComputeSettings.hpp"

#include <nlohmann/json.hpp>

#include "common/JsonFields.hpp"

namespace gb {

void to_json(nlohmann::json& j, const ComputeSettings& s) {
  j = nlohmann::json{{"backend", s.backend},
                     {"device", s.device},
                     {"precision", s.precision},
                     {"kernel", s.kernel},
                     {"threads", s.threads}};
}

void from_json(const nlohmann::json& j, ComputeSettings& s) {
  if (!j.is_object()) jsonfield::fail("compute", "must be a JSON object, got " + jsonfield::describe(j));
  for (auto [key, value] : {std::pair<const char*, std::string*>{"backend", &s.backend},
                            {"device", &s.device},
                            {"precision", &s.precision},
                            {"kernel", &s.kernel}})
    if (const auto it = j.find(key); it != j.end()) *value = jsonfield::text(*it, std::string("compute.") + key);
  // 0 = all cores; more threads than this is no machine's core count.
  if (const auto it = j.find("threads"); it != j.end())
    s.threads = static_cast<int>(jsonfield::integer(*it, "compute.threads", 0, 65536));
}

}  // namespace gb

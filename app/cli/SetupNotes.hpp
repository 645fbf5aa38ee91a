#pragma once
// What a user should know about a model's data and learners once it is set up, the same for `fit` and `cv`: row
// labels dropped, text columns, rows omitted, learners left unpenalised, an edf option without a learner to use it.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gb {
class Booster;
struct ModelFrame;
}  // namespace gb

namespace gb::cli {

std::vector<std::string> setupNotes(const Booster& booster);
// "rows_used", "rows_omitted" and "rows_omitted_by_column" (result.json's fields, also cv.json's).
void addRowCounts(nlohmann::json& out, const ModelFrame& frame);

}  // namespace gb::cli

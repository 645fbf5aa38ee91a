#pragma once
// What a user should know about a model's data and learners once it is set up, the same for `fit` and `cv`: row
// labels dropped, text columns, rows omitted, learners left unpenalised, an edf option without a learner to use it.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gb {
class Booster;
struct CvResult;
struct ModelFrame;
}  // namespace gb

namespace gb::cli {

std::vector<std::string> setupNotes(const Booster& booster);
// The folds' own learner notes (an edf their weights' lambda cannot reach) of a kind the fit on all rows (`all`, whose
// notes setupNotes gives) has not, numbers aside: "3 of 25 folds' fits ... e.g. fold 2: <note>"; "" when none.
std::string foldNotes(const CvResult& cv, const Booster& all);
// "rows_used", "rows_omitted" and "rows_omitted_by_column" (result.json's fields, also cv.json's).
void addRowCounts(nlohmann::json& out, const ModelFrame& frame);

}  // namespace gb::cli

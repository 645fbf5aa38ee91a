#include "SetupNotes.hpp"

#include <algorithm>
#include <tuple>

#include "common/Format.hpp"
#include "compute/Booster.hpp"

namespace gb::cli {

std::vector<std::string> setupNotes(const Booster& booster) {
  std::vector<std::string> notes;
  const ModelFrame& frame = booster.frame();
  if (!frame.data->rowLabelsNote.empty()) notes.push_back(frame.data->rowLabelsNote);
  if (!frame.data->textColumnsNote.empty()) notes.push_back(frame.data->textColumnsNote);
  if (frame.omittedRows() > 0) notes.push_back(frame.omissionNote());
  for (const Learner& l : booster.learners())
    if (!l.note.empty()) notes.push_back(l.note);
  for (const auto& [type, edf, option] :
       {std::tuple{LearnerType::Linear, booster.settings().linearEdf, "--linear-edf"},
        std::tuple{LearnerType::Factor, booster.settings().factorEdf, "--factor-edf"}})
    if (edf > 0.0 && std::none_of(booster.learners().begin(), booster.learners().end(),
                                  [type = type](const Learner& l) { return l.type == type; }))
      notes.push_back(std::string(option) + " " + formatNumber(edf, 10) + " has no effect: the model has no " +
                      (type == LearnerType::Linear ? "linear" : "factor") + " learner");
  return notes;
}

void addRowCounts(nlohmann::json& out, const ModelFrame& frame) {
  out["rows_used"] = frame.usedRows;
  out["rows_omitted"] = frame.omittedRows();
  nlohmann::json byColumn = nlohmann::json::object();
  for (const auto& [name, count] : frame.omittedByColumn) byColumn[name] = count;
  out["rows_omitted_by_column"] = byColumn;
}

}  // namespace gb::cli

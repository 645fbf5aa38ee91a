#include "SetupNotes.hpp"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "common/Format.hpp"
#include "common/Text.hpp"
#include "compute/Booster.hpp"
#include "compute/CrossValidation.hpp"

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

namespace {

// A note without its numbers ("learner 'x': edf  where  was asked ..."): two notes of one kind compare equal.
std::string wordsOf(const std::string& note) {
  std::string words;
  for (char c : note)
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.' && c != 'e' && c != '+' && c != '-') words += c;
  return words;
}

}  // namespace

std::string foldNotes(const CvResult& cv, const Booster& all) {
  std::vector<std::string> known;  // the words of the notes the fit on all rows has
  for (const Learner& l : all.learners())
    if (!l.note.empty()) known.push_back(wordsOf(l.note));
  std::size_t folds = 0;
  std::string first;
  for (std::size_t f = 0; f < cv.learnerNotes.size(); ++f) {
    bool any = false;
    for (const std::string& note : cv.learnerNotes[f]) {
      if (std::find(known.begin(), known.end(), wordsOf(note)) != known.end()) continue;
      if (first.empty()) first = "fold " + std::to_string(f + 1) + ": " + note;
      any = true;
    }
    folds += any ? 1 : 0;
  }
  if (folds == 0) return {};
  return std::to_string(folds) + " of " + std::to_string(cv.learnerNotes.size()) +
         " folds' fits have a learner note that the fit on all rows has not (their weights set each fold's lambdas), "
         "e.g. " +
         first;
}

void addRowCounts(nlohmann::json& out, const ModelFrame& frame) {
  out["rows_used"] = frame.usedRows;
  out["rows_omitted"] = frame.omittedRows();
  nlohmann::json byColumn = nlohmann::json::object();
  for (const auto& [name, count] : frame.omittedByColumn) byColumn[name] = count;
  out["rows_omitted_by_column"] = byColumn;
}

}  // namespace gb::cli

#pragma once
// The model file reader behind Model::load and Model::fromJson: a schema check in code.
#include <nlohmann/json.hpp>
#include <string>

#include "model/Model.hpp"

namespace gb::modelreader {

// Deepest nesting a model or result file needs is 3 (root > learners > learner > coefficients); anything much
// deeper is not a model file, and refusing it early keeps every later step (messages, copies) far from deep
// recursion.
constexpr int kMaxDepth = 16;

// The JSON of a model file. InputError "<path>: ..." when it is not a readable regular file, is not JSON
// ("<path>:line:column: not valid JSON: ...") or is nested deeper than kMaxDepth.
nlohmann::json parseFile(const std::string& path);

// The model in j, checked field by field; format and version first. InputError "<field path>: ..." (without
// the file: Model::fromJson adds it).
Model read(const nlohmann::json& j);

}  // namespace gb::modelreader

#pragma once
// The folds of a batch set up together: every fold's frame (the frame of all rows with the fold applied) gets its
// spline learners' Gram matrices from one pass over each covariate for all the folds (learner/GramMatrix.hpp,
// gramMatrices), where each fold's own set-up made a pass per learner: the covariate is read and located once.
#include <functional>
#include <vector>

#include "learner/ModelFrame.hpp"
#include "settings/ModelSettings.hpp"

namespace gb {

// frames: the folds' frames, applyFold done, all from one frame of all rows (the same data, learners and ranges).
// Fills each frame's grams for every spline learner whose basis the data allows; a learner the fits refuse (a
// constant or non-finite covariate, too few rows) is left to them, so they report it as before.
// keepGoing, when set, is asked before each learner's pass (from the OpenMP threads: it must be thread-safe); once
// it says false the remaining passes are skipped and false is returned, the frames left without those Grams.
bool addFoldGrams(std::vector<ModelFrame>& frames, const ModelSettings& settings,
                  const std::function<bool()>& keepGoing = {});

}  // namespace gb

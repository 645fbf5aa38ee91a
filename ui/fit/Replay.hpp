#pragma once
// The iteration scrubber's snapshots: a finished or paused fit shown as it was after iteration m, from the recorded
// coefficient steps (FitSnapshot::steps) without refitting. Coefficients, path, risk, counts and risk reductions are
// the fit's own at m; the fitted values and the learner race of iteration m + 1 are worked out on the host
// (engine/compute/LearnerStep) when rows x learners is small enough for a drag of the slider to stay smooth.
#include "fit/FitSnapshot.hpp"

namespace gbui {

// Host work (rows x learners) above which a replayed snapshot carries no fitted values and no race.
constexpr double kReplayHostWork = 2e7;

bool canReplay(const FitSnapshot& latest);
// latest as of iteration m (0 <= m <= latest.iteration; m is clamped into that range).
FitSnapshot replayAt(const FitSnapshot& latest, int m);

}  // namespace gbui

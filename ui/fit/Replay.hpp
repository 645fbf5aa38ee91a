#pragma once
// The iteration scrubber's snapshots: a finished or paused fit shown as it was after iteration m, from the recorded
// coefficient steps (FitSnapshot::steps) without refitting. Coefficients, path, risk, counts and risk reductions are
// the fit's own at m; the fitted values and the learner race of iteration m + 1 are worked out on the host
// (engine/compute/LearnerStep) when rows x learners is at most kReplayHostWork, so that a drag of the slider stays
// smooth.
#include "fit/FitSnapshot.hpp"

namespace gbui {

// Host work (rows x learners) above which a replayed snapshot carries no fitted values and no race.
constexpr double kReplayHostWork = 5e6;  // about 50 ms a slider step on this 2-core machine

bool canReplay(const FitSnapshot& latest);
// The family as the fit had it at the snapshot's fitted values f (iteration s.iteration): gamma's shape and negbin's
// size estimated at f; adaptive huber's gradient d from the f of the iteration before (median|y| at the offset), as
// mboost's Huber() takes it, and its risk d from f.
gb::FamilyFunctions familyAt(const FitSnapshot& s, const std::vector<double>& f);
// latest as of iteration m (0 <= m <= latest.iteration; m is clamped into that range).
FitSnapshot replayAt(const FitSnapshot& latest, int m);

}  // namespace gbui

// Plain-text rendering of a state for terminals, logs and playthroughs: grids as tables,
// zones with their visibility respected for the viewing seat, counters and tracks.
#pragma once

#include <string>

#include "host/game.h"

namespace plateau {

// seat: the viewer (-1: a spectator who sees only public information).
std::string RenderState(const State& state, int seat);
std::string RenderGrid(const State& state, const Grid& grid, bool show_coords);
std::string RenderScores(const ScoreTable& table);

}  // namespace plateau

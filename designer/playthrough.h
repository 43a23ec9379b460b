// Golden playthroughs: a seeded game recorded move by move (state hash, each seat's view,
// the legal moves, the move played, every chance event), kept in
// games/<id>/tests/playthroughs/*.txt and replayed by `plateau test`, which reports the
// first line that differs. Any change in rules, data or host that alters play shows up.
#pragma once

#include <string>
#include <vector>

#include "scripting/lua_rules.h"

namespace plateau {

struct PlaythroughSpec {
  int players = 2;
  unsigned long long seed = 1;
  Json params = Json::object();
};

// Plays the seeded game with random bots and returns its transcript lines.
Status RecordPlaythrough(scripting::LuaRules& rules, const PlaythroughSpec& spec, std::vector<std::string>* lines);
// Reads the header of a transcript (players, seed, params).
Status ReadPlaythroughSpec(const std::vector<std::string>& lines, PlaythroughSpec* spec);
// Replays a recorded transcript; on a difference *diff says where ("line 214: expected ..., got ...").
Status CheckPlaythrough(scripting::LuaRules& rules, const std::string& path, std::string* diff);
std::vector<std::string> PlaythroughFiles(const std::string& game_folder);

}  // namespace plateau

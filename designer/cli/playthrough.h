// Golden playthroughs: a seeded game recorded move by move (state hash, each seat's view,
// the legal moves, the move played, every chance event), kept in
// games/<id>/tests/playthroughs/*.txt and replayed by `plateau test`, which reports the
// first line that differs. Any change in rules or host that alters play shows up. A transcript
// also records the data it was played with (a `data:` line, every data file of the game without
// its top-level "$" keys): when the game's data have been edited since, the replay uses the
// recorded data as overrides (as `--set` does), so a designer's number change does not turn it
// red while a change of the rules still does; the note says which values differ. Transcripts
// without a `data:` line (recorded before it existed) replay with the game's current data.
#pragma once

#include <string>
#include <vector>

#include "scripting/lua_rules.h"

namespace plateau {

struct PlaythroughSpec {
  int players = 2;
  unsigned long long seed = 1;
  Json params = Json::object();
  // Whether the transcript has a `data:` line (new recordings always do).
  bool record_data = true;
  Json data;  // the recorded data, when the transcript has them
};

// Plays the seeded game with random bots and returns its transcript lines.
Status RecordPlaythrough(scripting::LuaRules& rules, const PlaythroughSpec& spec, std::vector<std::string>* lines);
// Reads the header of a transcript (players, seed, params).
Status ReadPlaythroughSpec(const std::vector<std::string>& lines, PlaythroughSpec* spec);
// The data a transcript records for these rules: {name: document without its top-level "$" keys}.
Json PlaythroughData(const scripting::LuaRules& rules);
// Replays a recorded transcript; on a difference *diff says where ("line 214: expected ..., got ...").
// When the game's data differ from the recorded ones, the replay runs with the recorded data
// and *note (if given) names the values that differ; otherwise *note is empty.
Status CheckPlaythrough(scripting::LuaRules& rules, const std::string& path, std::string* diff,
                        std::string* note = nullptr);
std::vector<std::string> PlaythroughFiles(const std::string& game_folder);

}  // namespace plateau

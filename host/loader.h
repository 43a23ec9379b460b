// Finding and loading a game folder before any Lua runs: the manifest and every data file
// are read under limits and validated against schemas/, and errors name the file and the
// JSON path. A game may `extends` another: it inherits the base's parameters, data and
// script folder, and overrides any of them.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "host/game.h"
#include "host/region_map.h"
#include "host/tile_map.h"

namespace plateau {

struct GameFiles {
  GameInfo info;
  Json manifest;
  std::string rules_script = "rules.lua";
  std::map<std::string, Json> data;         // data name -> document
  std::map<std::string, std::string> data_files;  // data name -> "games/<id>/data/x.json"
  std::shared_ptr<CardSet> cards;           // every card id named by "cards" data files
  std::shared_ptr<const TileSet> tiles;     // the "tiles" data file's tiles (null when none)
  std::shared_ptr<const RegionSet> regions; // the "regions" data file's map (null when none)
  std::shared_ptr<const ScaleSet> scales;   // the "scales" data file's scales (null when none)
  Json look;              // data/look.json (host/look.h): how the studio draws it; null when none
  std::string look_file;  // "games/<id>/data/look.json", for messages
  // Why the look was refused (then `look` is null). Kept, not returned by LoadGameFiles: the
  // rules' own load checks and a reload's checks of the table speak first (a renamed card is
  // the data's error before the look's icon for it), then LuaRules::Load and ReloadRules
  // refuse the game with it.
  Status look_error;
  struct Root {
    std::string folder;   // on disk
    std::string display;  // how errors name it: "games/<id>"
  };
  std::vector<Root> roots;  // the game's folder first, then the folders of its bases
};

// `game` is a game id or a path to a game folder anywhere (see GameFolderCandidates).
Status LoadGameFiles(const std::string& game, GameFiles* out);
// One `--set <data>.<path>=<value>` override of a data value for a run. The path's first
// segment names a data file of the manifest ("chenilles", "cards"); then each segment is an
// object key, an array index counted from 0 (as in JSON Pointers: every error message names
// data values that way), or the "id" of an array element. The path must exist.
struct DataOverride {
  std::string path;
  Json value;
  bool operator==(const DataOverride&) const = default;
};
// Applies overrides to loaded files, then validates each changed document against its schema
// again, so an override that breaks the data is refused with the schema's error.
Status ApplyDataOverrides(const std::vector<DataOverride>& sets, GameFiles* files);
// The value at a data path (the form of --set: <data>.<key>.<id or index>...), or an error that
// starts "<option> <path>: " and lists what exists where the path went wrong.
Status ReadDataValue(const GameFiles& files, const std::string& path, Json* out, const std::string& option = "--set");
// The form a saved game keeps them in (State::data_overrides): [{"path", "value"}], or null
// when there are none; and back, refusing another form with *error.
Json DataOverridesToJson(const std::vector<DataOverride>& sets);
bool DataOverridesFromJson(const Json& j, std::vector<DataOverride>* out, std::string* error);
// "chenilles.market.price=3, ..." for messages.
std::string DataOverridesText(const std::vector<DataOverride>& sets);

// A path into a game's data cut at `separator`: --set's "cards.cards.marmot" on '.', a look's
// "cards/cards/{field}" on '/'. Empty parts are kept, for the caller to name.
std::vector<std::string> SplitDataPath(const std::string& path, char separator);
// The game's data names, for a message saying what exists: "cards, params", or "none".
std::string DataNames(const GameFiles& files);

// What the rules of a loaded game are made of, as 16 hex digits: the manifest, the data (with
// any overrides applied) and every .lua file of its folders but their tests. Saves and reload
// entries of the log carry it, so a save tells when the files it was played with have changed.
std::string RulesFingerprint(const GameFiles& files);

// Game ids found under <home>/games, sorted.
std::vector<std::string> ListGames();
// Where a game argument is looked for, in order: a path (it has a '/') is its own folder; an id
// is looked up in ./games/<id>, then ./<id>, then <home>/games/<id> (host/home.h).
std::vector<std::string> GameFolderCandidates(const std::string& game);
// The first candidate folder holding a game.json, or "" when there is none.
std::string ResolveGameFolder(const std::string& game);
// "unknown game 'x': no game.json in ./games/x, ./x nor /home/games/x": every place looked.
std::string UnknownGameMessage(const std::string& game);
// How errors name a game folder wherever it is: "games/<folder name>".
std::string GameFolderDisplay(const std::string& folder);

}  // namespace plateau

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

namespace plateau {

struct GameFiles {
  GameInfo info;
  Json manifest;
  std::string rules_script = "rules.lua";
  std::map<std::string, Json> data;         // data name -> document
  std::shared_ptr<CardSet> cards;           // every card id named by "cards" data files
  struct Root {
    std::string folder;   // on disk
    std::string display;  // how errors name it: "games/<id>"
  };
  std::vector<Root> roots;  // the game's folder first, then the folders of its bases
};

// `game` is a game id under <home>/games or a path to a game folder anywhere.
Status LoadGameFiles(const std::string& game, GameFiles* out);
// Game ids found under <home>/games, sorted.
std::vector<std::string> ListGames();
// The folder a game argument refers to, or "" when there is none.
std::string ResolveGameFolder(const std::string& game);

}  // namespace plateau

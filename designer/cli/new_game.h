// plateau new <base> <new-id>: scaffolds a variant of a base game from the base's template/
// folder (manifest, a card file, scoring with one example card, a scenario test, a README),
// then loads it to prove it validates straight away.
#pragma once

#include <string>

namespace plateau {

struct NewGameOptions {
  std::string base;    // a game id or folder with a template/ folder
  std::string id;      // the new game's id
  std::string name;    // display name (default: the id)
  std::string folder;  // where to create it (default: ./<id>, where the command runs)
  bool example = false;  // the base's example/ files over the template's (a worked variant)
};

int RunNewGame(const NewGameOptions& options);

}  // namespace plateau

// Hot reload of a game's rules with the table kept: the new scripts and data load into a
// fresh VM (schema validation, the sandbox, the game table's shape), are checked against the
// live state (card ids still mean the same cards, the read-only hooks answer on it), and only
// then replace the running rules. The state is host-owned and never passes through Lua, so a
// rejected reload leaves it byte-identical and the old rules keep running.
#pragma once

#include <memory>
#include <string>

#include "scripting/lua_rules.h"

namespace plateau::scripting {

struct ReloadResult {
  bool ok = false;
  Status error;            // why it was rejected ("games/<id>/<file>.lua:<line>: ...")
  std::string changes;     // score changes, "gazelle: 11 -> 13 for P2", one per line
};

// Reloads `game` (id or folder) into *rules when everything checks out against `state`.
// When the game table's `version` changed, migrate(ctx, state, old_version) reshapes a copy of
// the state first; a migration that fails or leaves the hooks failing rejects the reload.
// On success state->cards is pointed at the new card set (a compatible superset).
ReloadResult ReloadRules(const std::string& game, const Limits& limits, State* state,
                         std::unique_ptr<LuaRules>* rules);

}  // namespace plateau::scripting

// plateau lint (issue 18): luacheck on a game's Lua with the sandbox's standard library and the
// API's globals (scripting/api/luacheckrc, generated from the Lua API spec): unused variables,
// undefined globals (the sandbox's strict globals, named before the game runs), shadowing, with
// games/<id>/<file>.lua:<line>. Files under tests/ and test helpers (test*.lua modules) also see
// the scenario-test globals.
#pragma once

#include <string>
#include <vector>

#include "host/loader.h"

namespace plateau {

// The luacheck executable on PATH, or "" when it is not installed.
std::string FindLuacheck();

// Lints one game (an id or a folder). `findings` gets one line per finding,
// "games/<id>/rules.lua:12:5: (W211) unused variable 'x'" (and a file it did not hand to
// luacheck: a link out of the folder, a file over 1 MiB); `files` the number of Lua files
// checked. Fails with bad input for an unknown game, or luacheck failing or running past
// `timeout_s` seconds on one batch of files.
Status LintGame(const std::string& luacheck, const std::string& game, std::vector<std::string>* findings, int* files,
                int timeout_s);

// plateau lint [<game>...] (every game under games/ without one): exit 0 clean, 1 findings,
// 2 bad input or luacheck missing (the message says how to install it).
int RunLint(const std::vector<std::string>& games);

}  // namespace plateau

// Helpers shared by the `plateau` subcommands: exit codes and error printing, loading rules
// with the command line's data overrides, and parsing `--set` and `--bots` arguments.
// Exit codes: 0 ok, 1 a rule script failed, 2 bad input (files, moves, arguments).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "host/files.h"
#include "host/loader.h"
#include "scripting/lua_rules.h"

namespace plateau {

int ExitCode(const Status& st);
// Prints "plateau: <kind>: <message>" to stderr and returns the exit code.
int Fail(const Status& st);
// Errors name a game's files "games/<folder name>/..." wherever the folder is. For a folder
// outside the tree (a modder's), the line that says where it is, when `text` names it; else "".
std::string FolderNote(const std::string& text);
// The absolute folder a game argument resolves to when it is not the installed game of that
// name (./chenilles, ./games/chenilles, a path), or "": reports name it in their header.
std::string FolderIfNotInstalled(const std::string& game);

// The files of one subfolder of a game folder ("tests/playthroughs", "tests/boards") ending in
// `ext`, that folder only, as paths under `game_folder`, sorted. Entries that are not regular
// files are listed too: reading them through ReadFileOfGame refuses them by name.
std::vector<std::string> GameSubfolderFiles(const std::string& game_folder, const std::string& sub, const std::string& ext);

// A file a command reads that may be one of the game's own (a golden playthrough, a board of
// tests/boards): under the game's folder it is read as the game's files are (host/files.h),
// anywhere else as a file the user named.
bool ReadFileOfGame(const scripting::LuaRules& rules, const std::string& path, size_t max_bytes, std::string* text,
                    std::string* error);

// Data overrides from `--set <data>.<path>=<value>`, parsed once in main() and applied to
// every rules instance a command loads (simulate loads one per thread).
extern std::vector<DataOverride> g_data_sets;

// Loads a game's rules with `data_sets` (g_data_sets when null) applied to its data.
Status LoadRules(const std::string& game, std::unique_ptr<scripting::LuaRules>* out,
                 const std::vector<DataOverride>* data_sets = nullptr);

// Loads a saved game (play --save) and the rules to continue it with: the rules are loaded
// with the data overrides the save records. Data overrides on the command line must be those
// (or none): a saved game keeps the numbers it was played with. `saved_rules`, when given,
// receives the fingerprint of the rules that played it ("" when the save has none); loading
// warns when it is not the current rules' one.
// The save is checked in full before it is used (State::FromJson's structure and limits, then
// CheckSave: players and parameters, and a rebuild from seed and moves when these rules played
// it); `rebuild` false skips the rebuild for `replay`, which does it itself and explains.
Status LoadRulesAndSave(const std::string& game, const std::string& path, std::unique_ptr<scripting::LuaRules>* rules,
                        State* out, std::string* saved_rules = nullptr, bool rebuild = true);

// A save (play --save): the state with what played it (engine, rules fingerprint and version).
Json SaveJson(const State& state, const scripting::LuaRules& rules);
// --force on the command line: an output may replace a file of another kind (host/files.h).
extern bool g_force;
// A file the user named with `option` for an output of `kind`, as the one writer takes it.
OutputFile UserOutput(const std::string& path, OutputKind kind, const std::string& option);
// Writes the save through the one writer (a save replaces only a save, unless --force).
Status WriteSave(const State& state, const scripting::LuaRules& rules, const std::string& path,
                 const std::string& option = "--save");

// Comma-separated list, spaces dropped.
std::vector<std::string> Split(const std::string& s);

// What ran a game: Plateau's version and the libraries that decide what rules do. Written into
// saves (outside the hashed state), printed by --version, compared when a save is loaded.
Json EngineInfo();
// One "--set name=value": the value parses as JSON, else it is a string.
Status SplitSet(const std::string& s, std::string* name, Json* value);
// The parameter overrides among --set arguments (names without dots).
Status ParseSets(const std::vector<std::string>& sets, Json* params);
// The data overrides among --set arguments (names with dots: <data>.<path>).
Status ParseDataSets(const std::vector<std::string>& sets, std::vector<DataOverride>* out);

// --set-file <overlay.json>: the overlay's values as --set arguments ("name=<json>"), in the
// file's key order, to go before the command line's own --set (which win over them). The file
// is checked against schemas/overlay.schema.json; its "game", when given, must be `game`'s id
// or folder name.
Status ReadSetFile(const std::string& path, const std::string& game, std::vector<std::string>* sets);

}  // namespace plateau

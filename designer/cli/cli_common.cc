// Helpers shared by the `plateau` subcommands (see cli_common.h).
#include "designer/cli/cli_common.h"

#include <spdlog/spdlog.h>

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <mutex>
#include <set>

#include "host/home.h"
#include "host/json_io.h"
#include "host/replay.h"
#include "host/schema.h"
#include "host/text.h"

namespace plateau {

using scripting::LuaRules;

int ExitCode(const Status& st) {
  if (st.ok()) return 0;
  return st.script_failure() ? 1 : 2;
}

namespace {

// Errors name every game's files "games/<folder name>/...". A modder's folder outside the
// tree is named the same way; Fail adds where that folder is on disk.
// simulate loads the rules once per worker thread: the note is written under a lock.
std::mutex g_folder_mu;
std::string g_folder_display, g_folder_path;

void NoteGameFolder(const std::string& game) {
  std::lock_guard<std::mutex> lock(g_folder_mu);
  g_folder_display.clear();
  std::string folder = ResolveGameFolder(game);
  if (folder.empty()) return;
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  const std::string display = GameFolderDisplay(folder);
  std::error_code ec;
  if (std::filesystem::equivalent(folder, PlateauHome() + "/" + display, ec)) return;  // in the tree
  g_folder_display = display;
  g_folder_path = std::filesystem::absolute(folder, ec).lexically_normal().string();
  if (ec) g_folder_path = folder;
}

}  // namespace

std::string FolderNote(const std::string& text) {
  std::lock_guard<std::mutex> lock(g_folder_mu);
  if (g_folder_display.empty() || text.find(g_folder_display + "/") == std::string::npos) return "";
  return "  (" + g_folder_display + " is the folder " + g_folder_path + ")\n";
}

int Fail(const Status& st) {
  // Every message may quote input (a file name, a card id, a script's error): shown inert.
  const std::string text = TerminalText(st.ToString(), /*lines=*/true);
  std::fprintf(stderr, "plateau: %s%s\n%s", st.script_failure() ? std::string(ErrorKindName(st.kind)).append(": ").c_str() : "",
               text.c_str(), FolderNote(text).c_str());
  return ExitCode(st);
}

std::vector<DataOverride> g_data_sets;

namespace {

// A game or base id that resolved to a folder other than the installed game of that name
// (./games/<id> or ./<id> where the command runs) is said once per run, on standard error, so
// the designer knows which files ran. A folder named by its path is the one asked for.
void SayFolder(const std::string& path, const std::string& display, bool is_game) {
  static std::mutex mu;
  static std::set<std::string> said;
  std::string folder = path;
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  std::error_code ec;
  const std::string installed = PlateauHome() + "/" + display;  // <home>/games/<name>
  if (std::filesystem::equivalent(folder, installed, ec)) return;
  std::string full = std::filesystem::absolute(folder, ec).lexically_normal().string();
  while (full.size() > 1 && full.back() == '/') full.pop_back();  // "." is "<cwd>/": one name per folder
  std::lock_guard<std::mutex> lock(mu);
  if (!said.insert(full).second) return;
  const bool other = std::filesystem::exists(installed + "/game.json", ec);
  std::fprintf(stderr, "plateau: %s %s is the folder %s%s\n", is_game ? "the game" : "its base", display.c_str(),
               TerminalText(full).c_str(), other ? " (found before the installed one)" : "");
}

void SayWhichFolders(const std::string& game, const LuaRules& rules) {
  const auto& roots = rules.files().roots;
  for (size_t i = 0; i < roots.size(); ++i) {
    if (i == 0 && game.find('/') != std::string::npos) continue;
    SayFolder(roots[i].folder, roots[i].display, i == 0);
  }
}

// Before loading, so the first line names the folder even when the load fails (its error
// names the files as games/<name>/...): a bare id that is not the installed game.
void SayGameFolderFirst(const std::string& game) {
  if (game.find('/') != std::string::npos) return;
  const std::string folder = ResolveGameFolder(game);
  if (folder.empty()) return;
  SayFolder(folder, GameFolderDisplay(folder), true);
  // Run from inside a copy of a game named as the game: the id finds the installed one, not the
  // copy the designer is in.
  std::error_code ec;
  const std::filesystem::path here = std::filesystem::current_path(ec);
  if (!ec && here.filename() == game && std::filesystem::exists(here / "game.json", ec) &&
      !std::filesystem::equivalent(here, folder, ec))
    std::fprintf(stderr, "plateau: %s is the game of %s, not this folder of the same name: name this one '.'\n",
                 game.c_str(), TerminalText(std::filesystem::absolute(folder, ec).lexically_normal().string()).c_str());
}

}  // namespace

std::vector<std::string> GameSubfolderFiles(const std::string& game_folder, const std::string& sub, const std::string& ext) {
  std::vector<std::string> files;
  ListOptions o;
  o.max_depth = 2;
  const std::string parent = sub.substr(0, sub.find('/'));
  o.enter = [&](const std::string& rel) { return rel == parent || rel == sub; };
  std::vector<FolderEntry> entries;
  ListGameFiles(game_folder, GameFolderDisplay(game_folder), o, &entries);
  const std::string dir = sub + "/";
  for (const auto& e : entries)
    if (e.rel.rfind(dir, 0) == 0 && e.rel.find('/', dir.size()) == std::string::npos && e.rel.size() > dir.size() + ext.size() &&
        e.rel.compare(e.rel.size() - ext.size(), ext.size(), ext) == 0)
      files.push_back(game_folder + "/" + e.rel);
  return files;
}

bool ReadFileOfGame(const LuaRules& rules, const std::string& path, size_t max_bytes, std::string* text,
                    std::string* error) {
  const std::string& folder = rules.files().roots.front().folder;
  if (path.rfind(folder + "/", 0) == 0)
    return ReadGameFile(folder, rules.files().roots.front().display, path.substr(folder.size() + 1), max_bytes, text, error);
  return ReadTextFile(path, max_bytes, text, error);
}

std::string FolderIfNotInstalled(const std::string& game) {
  std::string folder = ResolveGameFolder(game);
  if (folder.empty()) return "";
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  std::error_code ec;
  if (std::filesystem::equivalent(folder, PlateauHome() + "/" + GameFolderDisplay(folder), ec)) return "";
  const std::string full = std::filesystem::absolute(folder, ec).lexically_normal().string();
  return ec ? folder : full;
}

Status LoadRules(const std::string& game, std::unique_ptr<LuaRules>* out, const std::vector<DataOverride>* data_sets) {
  NoteGameFolder(game);
  SayGameFolderFirst(game);
  scripting::Limits limits;
  Status st = LuaRules::Load(game, limits, data_sets ? *data_sets : g_data_sets, out);
  if (st.ok()) {
    (*out)->runtime().set_log([](const std::string& line) { spdlog::info("[lua] {}", line); });
    SayWhichFolders(game, **out);
  }
  return st;
}

Status LoadRulesAndSave(const std::string& game, const std::string& path, std::unique_ptr<LuaRules>* rules, State* out,
                        std::string* saved_rules, bool rebuild) {
  Json j;
  std::string error;
  if (!ReadJsonFile(path, path, &j, &error)) return Status::Input(error);
  std::vector<DataOverride> saved;
  if (j.is_object() && j.contains("data_overrides") && !DataOverridesFromJson(j["data_overrides"], &saved, &error))
    return Status::Input(path + ": bad saved state: " + error);
  if (!g_data_sets.empty() && g_data_sets != saved)
    return Status::Input(path + ": this game was saved with data overrides " + DataOverridesText(saved) +
                         "; continue it with the same --set values or none (given: " + DataOverridesText(g_data_sets) + ")");
  // The game first: another game's save would otherwise fail on its first unknown card or
  // data override.
  const std::vector<DataOverride> none;
  Status st = LoadRules(game, rules, &none);
  if (!st.ok()) return st;
  if (j.is_object() && j.contains("game") && j["game"].is_string() && j["game"] != (*rules)->info().id)
    return Status::Input(path + ": at /game: a saved '" + j["game"].get<std::string>() + "' game, not '" +
                         (*rules)->info().id + "'");
  if (!saved.empty()) {
    st = LoadRules(game, rules, &saved);
    if (!st.ok()) {
      st.message = path + ": the save's data overrides: " + st.message;
      return st;
    }
  }
  if (!State::FromJson(j, (*rules)->files().cards, out, &error, (*rules)->files().tiles, (*rules)->files().regions)) return Status::Input(path + ": " + error);
  if (out->game_id != (*rules)->info().id)
    return Status::Input(path + ": at /game: a saved '" + out->game_id + "' game, not '" + (*rules)->info().id + "'");
  if (!saved.empty()) spdlog::info("{}: data overrides from the save: {}", path, DataOverridesText(saved));
  // A save from another engine still loads; the designer is told, since a different Lua can
  // change what the rules do.
  if (j.contains("engine") && j["engine"] != EngineInfo())
    spdlog::warn("{}: saved by {}, now running {}", path, DumpJson(j["engine"]), DumpJson(EngineInfo()));
  // The designer edits rules and data all the time: a save played under other files is told.
  // (A save is input: a fingerprint that is not a string reads as none.)
  const std::string then = SavedFingerprint(j);
  if (!then.empty() && then != (*rules)->fingerprint())
    spdlog::warn("{}: the game's rules or data changed since this game was saved (rules \"{}\" then, {} now)", path, then,
                 (*rules)->fingerprint());
  if (saved_rules) *saved_rules = then;
  // Rebuilt from its seed and moves when these very rules played it without a reload; a save
  // from other rules (the designer edited them since) is checked for structure only.
  st = CheckSave(**rules, *out, rebuild && SaveRebuildable(j, *out, (*rules)->fingerprint()));
  if (!st.ok()) {
    st.message = path + ": " + st.message;
    *out = State();
    return st;
  }
  return Status::Ok();
}

Json SaveJson(const State& state, const LuaRules& rules) {
  Json j = state.ToJson();
  // Neither is part of the state's hash: what played the game, to compare when it is loaded.
  j["engine"] = EngineInfo();
  j["rules"] = {{"fingerprint", rules.fingerprint()}, {"version", rules.version()}};
  return j;
}

bool g_force = false;

OutputFile UserOutput(const std::string& path, OutputKind kind, const std::string& option) {
  OutputFile f;
  f.path = path;
  f.kind = kind;
  f.force = g_force;
  f.option = option;
  return f;
}

Status WriteSave(const State& state, const LuaRules& rules, const std::string& path, const std::string& option) {
  return WriteOutputFile(UserOutput(path, OutputKind::kSave, option), DumpJson(SaveJson(state, rules), 1));
}

Json EngineInfo() {
  return {{"plateau", PLATEAU_VERSION}, {"lua", scripting::Runtime::LuaRelease()},
          {"nlohmann_json", std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." + std::to_string(NLOHMANN_JSON_VERSION_MINOR) +
                                "." + std::to_string(NLOHMANN_JSON_VERSION_PATCH)}};
}

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// --set name=value overrides a game parameter, --set <data>.<path>=value a data value;
// values parse as JSON, else as strings. ParseSets keeps the parameters, ParseDataSets the rest.
Status SplitSet(const std::string& s, std::string* name, Json* value) {
  const auto eq = s.find('=');
  if (eq == std::string::npos || eq == 0)
    return Status::Input("--set expects name=value or <data>.<path>=value, got '" + s + "'");
  if (!IsValidUtf8(s.data(), s.size()))
    return Status::Input("--set " + SanitizeUtf8(s) + ": arguments must be UTF-8 text");
  *name = s.substr(0, eq);
  const std::string text = s.substr(eq + 1);
  *value = Json::parse(text, nullptr, false);
  if (value->is_discarded()) *value = text;
  return Status::Ok();
}

Status ParseSets(const std::vector<std::string>& sets, Json* params) {
  *params = Json::object();
  for (const auto& s : sets) {
    std::string name;
    Json v;
    Status st = SplitSet(s, &name, &v);
    if (!st.ok()) return st;
    if (name.find('.') == std::string::npos) (*params)[name] = v;
  }
  return Status::Ok();
}

Status ParseDataSets(const std::vector<std::string>& sets, std::vector<DataOverride>* out) {
  out->clear();
  for (const auto& s : sets) {
    std::string name;
    Json v;
    Status st = SplitSet(s, &name, &v);
    if (!st.ok()) return st;
    if (name.find('.') != std::string::npos) out->push_back({name, v});
  }
  return Status::Ok();
}

Status ReadSetFile(const std::string& path, const std::string& game, std::vector<std::string>* sets) {
  sets->clear();
  Json doc;
  std::string error;
  if (!ReadJsonFile(path, path, &doc, &error)) return Status::Input("--set-file: " + error);
  std::vector<std::string> errors;
  if (!Schemas(&error).Validate("overlay", doc, path, &errors))
    return Status::Input("--set-file: " + (errors.empty() ? error : errors.front()));
  if (doc.contains("game")) {
    std::string folder = game;
    while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
    if (folder.rfind('/') != std::string::npos) folder = folder.substr(folder.rfind('/') + 1);
    const std::string for_game = doc["game"].get<std::string>();
    if (for_game != game && for_game != folder)
      return Status::Input("--set-file: " + path + ": at /game: the overlay is for '" + for_game + "', not '" + game + "'");
  }
  for (const auto& [name, value] : doc["values"].items()) sets->push_back(name + "=" + value.dump());
  return Status::Ok();
}

}  // namespace plateau

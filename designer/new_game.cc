// plateau new (see new_game.h).
#include "designer/new_game.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "designer/cli_common.h"
#include "host/home.h"
#include "host/json_io.h"

namespace plateau {
namespace {

namespace fs = std::filesystem;

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// Inside a JSON string a display name needs its quotes and backslashes escaped.
std::string JsonEscaped(const std::string& s) {
  const std::string quoted = Json(s).dump();
  return quoted.substr(1, quoted.size() - 2);
}

// The editor settings of the new game (.luarc.json, for the Lua language server): the
// template's, with workspace.library pointing at the API stubs of this Plateau and at the base's
// folder (its modules) by absolute paths, since the copy lives outside the tree where the
// template's relative paths hold.
std::string LuarcFor(const std::string& template_text, const std::string& base_folder) {
  Json rc = Json::object();
  if (!template_text.empty()) {
    Json parsed = Json::parse(template_text, nullptr, false);
    if (parsed.is_object()) rc = std::move(parsed);
  }
  auto absolute = [](const std::string& p) {
    std::error_code ec;
    const fs::path a = fs::weakly_canonical(fs::absolute(p), ec);
    return ec ? fs::absolute(p).lexically_normal().string() : a.string();
  };
  if (!rc.contains("runtime") || !rc["runtime"].is_object()) rc["runtime"] = {{"version", "Lua 5.4"}};
  if (!rc.contains("workspace") || !rc["workspace"].is_object()) rc["workspace"] = Json::object();
  rc["workspace"]["library"] = {absolute(PlateauHome() + "/scripting/api/stubs"), absolute(base_folder)};
  return rc.dump(2) + "\n";
}

}  // namespace

int RunNewGame(const NewGameOptions& o) {
  if (!std::regex_match(o.id, std::regex("^[a-z][a-z0-9_-]{0,63}$")))
    return Fail(Status::Input("new game id '" + o.id + "': use lower-case letters, digits, '-' and '_', starting with a letter"));
  const std::string base_folder = ResolveGameFolder(o.base);
  if (base_folder.empty()) return Fail(Status::Input("the base: " + UnknownGameMessage(o.base)));
  GameFiles base;
  Status st = LoadGameFiles(o.base, &base);
  if (!st.ok()) return Fail(st);
  const fs::path tmpl = fs::path(base_folder) / "template";
  if (!fs::is_directory(tmpl))
    return Fail(Status::Input("base game '" + o.base + "' has no template/ folder to start a variant from (" +
                              tmpl.string() + ")"));
  // Where the command runs, never into the tree the binary was built from (a modder's work is
  // theirs; an id is looked up in ./ as well, so the hints below work as typed).
  const fs::path target = o.folder.empty() ? fs::path(o.id) : fs::path(o.folder);
  std::error_code ec;
  if (fs::exists(target, ec))
    return Fail(Status::Input(target.string() + " already exists: choose another id or --dir (nothing was written)"));
  const std::string name = o.name.empty() ? o.id : o.name;
  // Copy into a temporary sibling first, so a failure leaves no half-made game behind.
  const fs::path staging = target.string() + ".new-tmp";
  fs::remove_all(staging, ec);
  int files = 0;
  for (auto it = fs::recursive_directory_iterator(tmpl, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path rel = fs::relative(it->path(), tmpl);
    const fs::path dest = staging / rel;
    if (it->is_directory()) {
      fs::create_directories(dest, ec);
      continue;
    }
    fs::create_directories(dest.parent_path(), ec);
    // The template is the base game's: a link out of its folder, or a FIFO, is refused.
    std::string text, error;
    const std::string shown = "games/" + base.info.id + "/template/" + rel.string();
    if (!ResolvesInside(base_folder, it->path().string(), shown, &error) ||
        !ReadTextFile(it->path().string(), 8u << 20, &text, &error)) {
      fs::remove_all(staging, ec);
      return Fail(Status::Input(error + " (nothing was written)"));
    }
    const bool json = it->path().extension() == ".json";
    text = Replace(text, "{{id}}", o.id);
    text = Replace(text, "{{base}}", base.info.id);
    text = Replace(text, "{{name}}", json ? JsonEscaped(name) : name);
    if (rel == ".luarc.json") text = LuarcFor(text, base_folder);
    std::ofstream out(dest, std::ios::binary);
    if (!(out << text)) {
      fs::remove_all(staging, ec);
      return Fail(Status::Input(dest.string() + ": cannot write"));
    }
    ++files;
  }
  if (ec) {
    fs::remove_all(staging);
    return Fail(Status::Input(tmpl.string() + ": " + ec.message()));
  }
  if (!fs::exists(staging / ".luarc.json")) {  // a template without editor settings gets them too
    std::ofstream out(staging / ".luarc.json", std::ios::binary);
    out << LuarcFor("", base_folder);
    ++files;
  }
  fs::create_directories(target.parent_path(), ec);
  fs::rename(staging, target, ec);
  if (ec) {
    fs::remove_all(staging);
    return Fail(Status::Input(target.string() + ": " + ec.message()));
  }
  // The scaffold must load at once: schema, data and the rules' shape.
  std::unique_ptr<scripting::LuaRules> rules;
  st = LoadRules(target.string(), &rules);
  if (!st.ok()) {
    std::fprintf(stderr, "plateau: the new game was written to %s but does not load:\n", target.string().c_str());
    return Fail(st);
  }
  // The hints name the game the shortest way that finds this very folder from here: its id,
  // unless ./games/<id> or another game of that id comes first; else its path.
  std::string arg = target.string();
  if (arg.find('/') == std::string::npos) arg = "./" + arg;
  if (fs::equivalent(ResolveGameFolder(o.id), target, ec) && !ec) arg = o.id;
  std::printf("created %s (%d files), a variant of %s\n\n", target.string().c_str(), files, base.info.id.c_str());
  std::printf("next:\n  plateau validate %s\n  plateau test %s\n  plateau play %s --players 2\n"
              "  plateau simulate %s -n 500 --bots greedy     # balance: points per card, pick rates\n"
              "  plateau watch %s                              # edit rules.lua and see it reload\n",
              arg.c_str(), arg.c_str(), arg.c_str(), arg.c_str(), arg.c_str());
  return 0;
}

}  // namespace plateau

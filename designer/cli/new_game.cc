// plateau new (see new_game.h).
#include "designer/cli/new_game.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "designer/cli/cli_common.h"
#include "host/files.h"
#include "host/text.h"
#include "host/home.h"
#include "host/json_io.h"
#include "host/limits.h"

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

// A game id: lower-case letters, digits, '-' and '_', starting with a letter, at most 64.
bool ValidId(const std::string& id) {
  if (id.empty() || id.size() > 64 || id[0] < 'a' || id[0] > 'z') return false;
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return false;
  return true;
}

}  // namespace

int RunNewGame(const NewGameOptions& o) {
  if (!ValidId(o.id))
    return Fail(Status::Input("new game id '" + TerminalText(o.id.substr(0, 80)) +
                              "': use lower-case letters, digits, '-' and '_', starting with a letter (at most 64)"));
  // The name goes into the new game's files (JSON strings, Lua and Markdown comments): one line
  // of text, so it can end no comment or string it is written in.
  if (!IsValidUtf8(o.name.data(), o.name.size()) || HasControlBytes(o.name) || o.name.size() > 200)
    return Fail(Status::Input("--name '" + TerminalText(o.name.substr(0, 80)) +
                              "': one line of text (UTF-8, no control characters, at most 200 bytes)"));
  const std::string base_folder = ResolveGameFolder(o.base);
  if (base_folder.empty()) return Fail(Status::Input("the base: " + UnknownGameMessage(o.base)));
  GameFiles base;
  Status st = LoadGameFiles(o.base, &base);
  if (!st.ok()) return Fail(st);
  const std::string base_display = base.roots.front().display;
  bool has_template = false;
  std::vector<FolderEntry> probe;
  ListOptions tmpl_only;
  tmpl_only.max_depth = 1;
  tmpl_only.hidden = true;
  tmpl_only.enter = [](const std::string& rel) { return rel == "template"; };
  st = ListGameFiles(base_folder, base_display, tmpl_only, &probe);
  if (!st.ok()) return Fail(st);
  for (const auto& e : probe)
    if (e.rel == "template" || e.rel.rfind("template/", 0) == 0) has_template = true;  // a link is refused by the copy
  if (!has_template)
    return Fail(Status::Input("base game '" + o.base + "' has no template/ folder to start a variant from (" + base_display +
                              "/template)"));
  // Where the command runs, never into the tree the binary was built from (a modder's work is
  // theirs; an id is looked up in ./ as well, so the hints below work as typed).
  const fs::path target = o.folder.empty() ? fs::path(o.id) : fs::path(o.folder);
  const std::string name = o.name.empty() ? o.id : o.name;
  // Built in a folder of this run's own beside the target, renamed into place at the end: a
  // failure leaves nothing behind, and nothing that was there before is ever touched.
  StagingFolder staging;
  st = staging.Create(target.string(), o.folder.empty() ? "" : "--dir");
  if (!st.ok()) {
    st.message += st.message.find("nothing was written") == std::string::npos ? " (nothing was written)" : "";
    if (st.message.find("already exists") != std::string::npos)
      st.message = TerminalText(target.string()) + " already exists: choose another id or --dir (nothing was written)";
    return Fail(st);
  }
  // --example: the base's example/ folder (a worked variant, docs/modding.md's first one) is
  // written over the template: its files replace the template's of the same path.
  std::set<std::string> example_files;
  if (o.example) {
    std::vector<FolderEntry> listed;
    ListOptions ex;
    ex.hidden = true;
    ex.enter = [](const std::string& rel) { return rel == "example" || rel.rfind("example/", 0) == 0; };
    st = ListGameFiles(base_folder, base_display, ex, &listed);
    if (!st.ok()) return Fail(Status::Input(st.message + " (nothing was written)"));
    for (const auto& e : listed)
      if (e.rel.rfind("example/", 0) == 0) example_files.insert(e.rel.substr(8));
    if (example_files.empty())
      return Fail(Status::Input("base game '" + o.base + "' has no example/ folder (" + base_display +
                                "/example): leave out --example (nothing was written)"));
  }
  // The README's table of cards ({{cards}}), from the card data the new game starts with, so
  // the README says what the data holds (the example's cards, or the template's).
  std::string cards_table = "| card | count | points |\n|---|---|---|\n";
  {
    const std::string from = example_files.count("data/cards.json") ? "example/data/cards.json" : "template/data/cards.json";
    std::string text, error;
    Json cards;
    if (ReadGameFile(base_folder, base_display, from, limits::kGameFileBytes, &text, &error)) {
      cards = Json::parse(text, nullptr, false);
    }
    if (cards.is_object() && cards.contains("cards") && cards["cards"].is_array()) {
      for (const auto& c : cards["cards"]) {
        if (!c.is_object()) continue;
        auto field = [&](const char* k) {
          std::string v = c.contains(k) ? (c[k].is_string() ? c[k].get<std::string>() : c[k].dump()) : std::string();
          std::string cell;  // one Markdown table cell: no line break, a '|' escaped
          for (char ch : v) cell += ch == '|' ? std::string("\\|") : ch == '\n' || ch == '\r' ? std::string(" ") : std::string(1, ch);
          return cell;
        };
        cards_table += "| " + field("id") + " | " + field("count") + " | " + field("doc") + " |\n";
      }
    }
  }
  int files = 0;
  bool has_luarc = false;
  const auto fill = [&](const std::string& rel, std::string* text) {
    const bool json = rel.size() > 5 && rel.compare(rel.size() - 5, 5, ".json") == 0;
    *text = Replace(*text, "{{id}}", o.id);
    *text = Replace(*text, "{{base}}", base.info.id);
    *text = Replace(*text, "{{name}}", json ? JsonEscaped(name) : name);
    if (!json) *text = Replace(*text, "{{cards}}\n", cards_table);
    if (rel == ".luarc.json") {
      *text = LuarcFor(*text, base_folder);
      has_luarc = true;
    }
    ++files;
    return Status::Ok();
  };
  st = CopyGameFolder(base_folder, base_display, "template", staging.path(), fill,
                      [&](const std::string& rel) { return example_files.count(rel) > 0; });
  if (st.ok() && o.example) st = CopyGameFolder(base_folder, base_display, "example", staging.path(), fill);
  if (!st.ok()) return Fail(Status::Input(st.message + " (nothing was written)"));
  if (!has_luarc) {  // a template without editor settings gets them too
    OutputFile rc;
    rc.path = ".luarc.json";
    rc.inside = staging.path();
    st = WriteOutputFile(rc, LuarcFor("", base_folder));
    if (!st.ok()) return Fail(st);
    ++files;
  }
  st = staging.Commit();
  if (!st.ok()) return Fail(st);
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
  std::error_code ec;
  if (fs::equivalent(ResolveGameFolder(o.id), target, ec) && !ec) arg = o.id;
  std::printf("created %s (%d files), a variant of %s\n\n", target.string().c_str(), files, base.info.id.c_str());
  std::printf("next:\n  plateau validate %s\n  plateau test %s\n  plateau play %s --players 2\n"
              "  plateau simulate %s -n 500 --bots greedy     # balance: points per card, pick rates\n"
              "  plateau watch %s                              # edit rules.lua and see it reload\n",
              arg.c_str(), arg.c_str(), arg.c_str(), arg.c_str(), arg.c_str());
  return 0;
}

}  // namespace plateau

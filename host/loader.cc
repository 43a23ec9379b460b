// Game folder loading and validation (see loader.h).
#include "host/loader.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

#include "host/files.h"
#include "host/home.h"
#include "host/json_io.h"
#include "host/look.h"
#include "host/schema.h"
#include "host/text.h"

namespace plateau {
namespace {

bool IsFile(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string Number(double v);

Status Validated(const std::string& schema, const Json& doc, const std::string& name) {
  std::string error;
  const SchemaSet& set = Schemas(&error);
  if (!error.empty()) return Status::Input(error);
  std::vector<std::string> errors;
  if (set.Validate(schema, doc, name, &errors)) return Status::Ok();
  std::string msg = errors.empty() ? name + ": does not match schema '" + schema + "'" : errors.front();
  for (size_t i = 1; i < errors.size() && i < 4; ++i) msg += "\n" + errors[i];
  if (errors.size() > 4) msg += "\n(and " + std::to_string(errors.size() - 4) + " more problems in " + name + ")";
  return Status::Input(msg);
}

Status LoadInto(const std::string& game, GameFiles* out, std::set<std::string>* seen) {
  const std::string folder = ResolveGameFolder(game);
  if (folder.empty())
    return Status::Input(UnknownGameMessage(game));
  const std::string display = GameFolderDisplay(folder);
  Json manifest;
  std::string error;
  const std::string manifest_name = display + "/game.json";
  if (!ReadGameJson(folder, display, "game.json", &manifest, &error)) return Status::Input(error);
  Status st = Validated("game", manifest, manifest_name);
  if (!st.ok()) return st;
  const std::string id = manifest.at("id");
  if (seen->count(id)) return Status::Input(manifest_name + ": 'extends' forms a cycle through '" + id + "'");
  seen->insert(id);

  if (manifest.contains("extends")) {
    const std::string parent = manifest.at("extends");
    st = LoadInto(parent, out, seen);
    if (!st.ok()) return Status::Input(manifest_name + ": while loading base game '" + parent + "':\n" + st.message);
  }
  GameInfo& info = out->info;
  info.extends = manifest.value("extends", std::string());
  // Set at every level, so a game extending an abstract base is itself concrete.
  info.abstract = manifest.value("abstract", false);
  info.id = id;
  info.folder = folder;
  info.names = manifest.at("name");
  info.name = info.names.value("en", info.names.value("fr", id));
  if (manifest.contains("players")) {
    info.min_players = manifest["players"].at("min");
    info.max_players = manifest["players"].at("max");
  }
  if (info.min_players > info.max_players)
    return Status::Input(manifest_name + ": at /players: min is greater than max");
  if (manifest.contains("parameters")) {
    for (auto it = manifest["parameters"].begin(); it != manifest["parameters"].end(); ++it) {
      ParamSpec p;
      p.name = it.key();
      p.type = it->at("type");
      p.default_value = it->at("default");
      p.minimum = it->value("minimum", Json());
      p.maximum = it->value("maximum", Json());
      p.doc = it->value("doc", std::string());
      if (it->contains("choices")) p.choices = it->at("choices").get<std::vector<std::string>>();
      Json resolved;
      GameInfo one;
      one.id = id;
      one.params = {p};
      Status ps = ResolveParams(one, Json::object(), &resolved);
      if (!ps.ok()) return Status::Input(manifest_name + ": at /parameters/" + p.name + "/default: " + ps.message);
      auto existing = std::find_if(info.params.begin(), info.params.end(),
                                   [&](const ParamSpec& q) { return q.name == p.name; });
      if (existing != info.params.end()) *existing = p;
      else info.params.push_back(p);
    }
  }
  if (manifest.contains("rules")) out->rules_script = manifest.at("rules");
  if (manifest.contains("bot_options"))
    for (auto it = manifest["bot_options"].begin(); it != manifest["bot_options"].end(); ++it) {
      const double lo = it->value("minimum", -HUGE_VAL), hi = it->value("maximum", HUGE_VAL);
      if (!(lo <= hi))
        return Status::Input(manifest_name + ": at /bot_options/" + it.key() + ": minimum " + Number(lo) + " is greater than maximum " +
                             Number(hi));
      info.bot_options[it.key()] = {lo, hi};
    }
  if (manifest.contains("score_bounds")) {
    info.has_score_bounds = true;
    info.score_min = manifest["score_bounds"].at("min");
    info.score_max = manifest["score_bounds"].at("max");
    if (info.score_min > info.score_max)
      return Status::Input(manifest_name + ": at /score_bounds: min is greater than max");
  }
  if (manifest.contains("data")) {
    for (auto it = manifest["data"].begin(); it != manifest["data"].end(); ++it) {
      const std::string file = it->at("file");
      const std::string schema = it->at("schema");
      const std::string name = display + "/" + file;
      if (file.find("..") != std::string::npos || file.empty() || file[0] == '/')
        return Status::Input(manifest_name + ": at /data/" + it.key() + "/file: must stay inside the game folder");
      Json doc;
      if (!ReadGameJson(folder, display, file, &doc, &error)) return Status::Input(error);
      st = Validated(schema, doc, name);
      if (!st.ok()) return st;
      if (schema == "cards") {
        std::set<std::string> ids;
        for (size_t i = 0; i < doc.at("cards").size(); ++i) {
          const std::string cid = doc["cards"][i].at("id");
          if (!ids.insert(cid).second)
            return Status::Input(name + ": at /cards/" + std::to_string(i) + "/id: duplicate card id '" + cid + "'");
        }
      }
      if (it->contains("cards")) {
        const std::string key = it->at("cards");
        if (!doc.contains(key) || !doc[key].is_array())
          return Status::Input(manifest_name + ": at /data/" + it.key() + "/cards: " + name + " has no list '" + key + "'");
        std::set<std::string> ids;
        for (size_t i = 0; i < doc[key].size(); ++i) {
          const Json& e = doc[key][i];
          if (!e.is_object() || !e.contains("id") || !e["id"].is_string())
            return Status::Input(name + ": at /" + key + "/" + std::to_string(i) + "/id: a card needs a string id");
          if (!ids.insert(e["id"].get<std::string>()).second)
            return Status::Input(name + ": at /" + key + "/" + std::to_string(i) + "/id: duplicate card id '" +
                                 e["id"].get<std::string>() + "'");
        }
        doc["$cards_key"] = key;
      }
      doc["$schema_name"] = schema;
      doc["$file"] = name;  // so rules can name the file in their own error messages
      out->data[it.key()] = std::move(doc);
      out->data_files[it.key()] = name;
    }
  }
  out->manifest = manifest;
  out->roots.insert(out->roots.begin(), GameFiles::Root{folder, display});
  return Status::Ok();
}

// The tile set of the game's "tiles" data file: what the schema cannot check (known kinds,
// segments covering exactly the feature edges, unique ids, start tiles that exist) is checked
// here, naming the file and the JSON path.
Status BuildTileSet(GameFiles* files) {
  files->tiles = nullptr;
  for (const auto& [name, doc] : files->data) {
    if (doc.value("$schema_name", std::string()) != "tiles") continue;
    const std::string& file = files->data_files[name];
    if (files->tiles) return Status::Input(file + ": a game has one tiles data file at most");
    auto set = std::make_shared<TileSet>();
    std::string error;
    if (!TileSet::FromJson(doc, set.get(), &error)) return Status::Input(file + ": " + error);
    if (doc.contains("start"))
      for (size_t i = 0; i < doc["start"].size(); ++i) {
        const std::string id = doc["start"][i].at("tile");
        if (set->Find(id) < 0)
          return Status::Input(file + ": at /start/" + std::to_string(i) + "/tile: unknown tile id '" + id + "'");
      }
    files->tiles = std::move(set);
  }
  return Status::Ok();
}

// A value a data entry's "refs" points at: "region" (an id of the regions data file),
// "scale" (an id of the scales data file) or "measures" (an object of scale id -> a value
// inside one of that scale's buckets). Paths are JSON pointers with * for every element.
std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

Status CheckRef(const Json& v, const std::string& kind, const std::string& where, const GameFiles& files) {
  auto scale_names = [&] {
    std::string s;
    for (const auto& sc : files.scales->scales) s += (s.empty() ? "" : ", ") + sc.id;
    return s;
  };
  if (kind == "region") {
    if (!files.regions) return Status::Input(where + ": the game has no regions data file to check against");
    if (!v.is_string() || files.regions->Find(v.get<std::string>()) < 0)
      return Status::Input(where + ": unknown region " + v.dump());
  } else if (kind == "scale") {
    if (!files.scales) return Status::Input(where + ": the game has no scales data file to check against");
    if (!v.is_string() || !files.scales->Find(v.get<std::string>()))
      return Status::Input(where + ": unknown scale " + v.dump() + " (scales: " + scale_names() + ")");
  } else if (kind == "measures") {
    if (!files.scales) return Status::Input(where + ": the game has no scales data file to check against");
    if (!v.is_object()) return Status::Input(where + ": an object of scale id -> value");
    for (auto it = v.begin(); it != v.end(); ++it) {
      const Scale* s = files.scales->Find(it.key());
      if (!s) return Status::Input(where + "/" + it.key() + ": unknown scale (scales: " + scale_names() + ")");
      if (!it->is_number() || s->BucketOf(it->get<double>()) < 0)
        return Status::Input(where + "/" + it.key() + ": " + it->dump() + " " + s->unit + " falls in no bucket of the " + s->id +
                             " scale (" + Number(s->buckets.front().min) + " to " + Number(s->buckets.back().max) + ")");
    }
  }
  return Status::Ok();
}

Status WalkRefs(const Json& node, const std::vector<std::string>& parts, size_t i, const std::string& at,
                const std::string& kind, const std::string& file, const GameFiles& files) {
  if (i == parts.size()) return CheckRef(node, kind, file + ": at " + at, files);
  const std::string& p = parts[i];
  if (p == "*") {
    if (node.is_array()) {
      for (size_t k = 0; k < node.size(); ++k) {
        Status st = WalkRefs(node[k], parts, i + 1, at + "/" + std::to_string(k), kind, file, files);
        if (!st.ok()) return st;
      }
    } else if (node.is_object()) {
      for (auto it = node.begin(); it != node.end(); ++it) {
        Status st = WalkRefs(*it, parts, i + 1, at + "/" + it.key(), kind, file, files);
        if (!st.ok()) return st;
      }
    }
    return Status::Ok();
  }
  if (node.is_object() && node.contains(p)) return WalkRefs(node[p], parts, i + 1, at + "/" + p, kind, file, files);
  return Status::Ok();  // an optional value that is absent
}

// The regions and scales data files (checked beyond their schemas), then every data entry's
// "refs": values that must name a region or a scale, or measures that must fall in a bucket.
Status BuildRegionsAndScales(GameFiles* files) {
  files->regions = nullptr;
  files->scales = nullptr;
  for (const auto& [name, doc] : files->data) {
    const std::string schema = doc.value("$schema_name", std::string());
    const std::string& file = files->data_files[name];
    std::string error;
    if (schema == "regions") {
      if (files->regions) return Status::Input(file + ": a game has one regions data file at most");
      auto set = std::make_shared<RegionSet>();
      if (!RegionSet::FromJson(doc, set.get(), &error)) return Status::Input(file + ": " + error);
      files->regions = std::move(set);
    } else if (schema == "scales") {
      if (files->scales) return Status::Input(file + ": a game has one scales data file at most");
      auto set = std::make_shared<ScaleSet>();
      if (!ScaleSet::FromJson(doc, set.get(), &error)) return Status::Input(file + ": " + error);
      files->scales = std::move(set);
    }
  }
  if (!files->manifest.contains("data")) return Status::Ok();
  for (auto it = files->manifest["data"].begin(); it != files->manifest["data"].end(); ++it) {
    if (!it->contains("refs") || !files->data.count(it.key())) continue;
    for (auto r = (*it)["refs"].begin(); r != (*it)["refs"].end(); ++r) {
      std::vector<std::string> parts;
      std::string path = r.key();
      size_t start = 1;
      while (start <= path.size()) {
        const size_t slash = path.find('/', start);
        parts.push_back(path.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
        if (slash == std::string::npos) break;
        start = slash + 1;
      }
      Status st = WalkRefs(files->data[it.key()], parts, 0, "", r->get<std::string>(), files->data_files[it.key()], *files);
      if (!st.ok()) return st;
    }
  }
  return Status::Ok();
}

}  // namespace

// The way designers see their tree, wherever the folder is.
std::string GameFolderDisplay(const std::string& folder) {
  std::string base = folder;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  std::string name = base.substr(base.find_last_of('/') + 1);
  if (name == "." || name == "..") {  // `plateau validate .` from inside the folder: its own name
    std::error_code ec;
    const std::filesystem::path full = std::filesystem::absolute(base, ec).lexically_normal();
    std::string last = full.filename().string();
    if (last.empty()) last = full.parent_path().filename().string();
    if (!ec && !last.empty()) name = last;
  }
  return "games/" + name;
}

std::vector<std::string> GameFolderCandidates(const std::string& game) {
  if (game.empty()) return {};
  // A path (anything with a slash, or "." / "..") names its folder and nothing else.
  if (game.find('/') != std::string::npos || game == "." || game == "..") return {game};
  // An id: a games/ folder where the command runs (a modder's collection, or the tree itself),
  // then a folder of that name where the command runs (what `plateau new` writes), then the
  // games of the Plateau home (PLATEAU_HOME, else the source tree the binary was built from).
  return {"games/" + game, game, PlateauHome() + "/games/" + game};
}

std::string ResolveGameFolder(const std::string& game) {
  for (const std::string& folder : GameFolderCandidates(game))
    if (IsFile(folder + "/game.json")) return folder;
  return "";
}

std::string UnknownGameMessage(const std::string& game) {
  const std::vector<std::string> places = GameFolderCandidates(game);
  if (places.empty()) return "unknown game '': a game id or a folder is needed";
  // An argument of any length is named, in a message of bounded length.
  auto bounded = [](const std::string& s) {
    return s.size() <= 300 ? s : s.substr(0, 120) + "...(" + std::to_string(s.size()) + " bytes)";
  };
  std::string msg = "unknown game '" + bounded(game) + "': no game.json in ";
  for (size_t i = 0; i < places.size(); ++i) {
    // A path is shown as given; the places an id was looked up in are shown as paths.
    const std::string shown = places.size() == 1 || places[i][0] == '/' ? places[i] : "./" + places[i];
    msg += (i == 0 ? "" : i + 1 == places.size() ? " nor " : ", ") + bounded(shown);
  }
  // Run from inside the game's own folder: the id finds nothing below it, but "." does.
  std::error_code ec;
  const std::filesystem::path here = std::filesystem::current_path(ec);
  if (!ec && places.size() > 1 && here.filename() == game && std::filesystem::exists(here / "game.json", ec))
    msg += " (this is the folder " + game + " itself: name it '.')";
  return msg;
}

Status LoadGameFiles(const std::string& game, GameFiles* out) {
  GameFiles files;
  std::set<std::string> seen;
  Status st = LoadInto(game, &files, &seen);
  if (!st.ok()) return st;
  files.cards = std::make_shared<CardSet>();
  // A card id names one card: the same id in two data files would be two cards the rules
  // cannot tell apart, so the second is refused naming both places.
  std::map<std::string, std::string> where;
  for (auto& [name, doc] : files.data) {
    std::string key;
    if (doc.value("$schema_name", std::string()) == "cards") key = "cards";
    if (doc.contains("$cards_key")) key = doc["$cards_key"].get<std::string>();
    if (key.empty()) continue;
    const std::string& file = files.data_files[name];
    const Json& list = doc.at(key);
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string id = list[i].at("id").get<std::string>();
      const std::string here = file + " /" + key + "/" + std::to_string(i) + "/id";
      const auto [it, fresh] = where.emplace(id, here);
      if (!fresh && it->second.rfind(file + " ", 0) != 0)
        return Status::Input(file + ": at /" + key + "/" + std::to_string(i) + "/id: card '" + id + "' is also defined in " +
                             it->second + "; a card id names one card");
      const CardId c = files.cards->Intern(id);
      if (fresh) files.cards->SetWhere(c, here);
    }
  }
  st = BuildTileSet(&files);
  if (st.ok()) st = BuildRegionsAndScales(&files);
  if (!st.ok()) return st;
  files.look_error = LoadLook(&files);
  *out = std::move(files);
  return Status::Ok();
}

std::vector<std::string> ListGames() {
  std::vector<std::string> ids;
  const std::string dir = PlateauHome() + "/games";
  DIR* d = opendir(dir.c_str());
  if (!d) return ids;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.empty() || n[0] == '.') continue;
    if (IsFile(dir + "/" + n + "/game.json")) ids.push_back(n);
  }
  closedir(d);
  std::sort(ids.begin(), ids.end());
  return ids;
}

Json DataOverridesToJson(const std::vector<DataOverride>& sets) {
  if (sets.empty()) return nullptr;
  Json out = Json::array();
  for (const auto& s : sets) out.push_back({{"path", s.path}, {"value", s.value}});
  return out;
}

bool DataOverridesFromJson(const Json& j, std::vector<DataOverride>* out, std::string* error) {
  out->clear();
  if (!CheckDataOverrides(j, error)) return false;
  for (const auto& e : j) out->push_back({e.at("path").get<std::string>(), e.at("value")});
  return true;
}

std::string DataOverridesText(const std::vector<DataOverride>& sets) {
  std::string out;
  for (const auto& s : sets) out += (out.empty() ? "" : ", ") + s.path + "=" + s.value.dump();
  return out.empty() ? "none" : out;
}

std::vector<std::string> SplitDataPath(const std::string& path, char separator) {
  std::vector<std::string> parts;
  for (size_t at = 0;;) {
    const size_t cut = path.find(separator, at);
    parts.push_back(path.substr(at, cut == std::string::npos ? std::string::npos : cut - at));
    if (cut == std::string::npos) return parts;
    at = cut + 1;
  }
}

std::string DataNames(const GameFiles& files) {
  std::string names;
  for (const auto& [k, d] : files.data) names += (names.empty() ? "" : ", ") + k;
  return names.empty() ? "none" : names;
}

// Walks `path` (<data>.<key>... with list elements named by id or index from 0) to the value
// it names in `files`, or says where the walk stopped and what was there instead.
static Status ResolveDataPath(GameFiles* files, const std::string& path, Json** out, std::string* doc_name,
                              const std::string& option = "--set") {
  const std::string where = option + " " + path + ": ";
  const std::vector<std::string> parts = SplitDataPath(path, '.');
  for (const auto& p : parts)
    if (p.empty()) return Status::Input(where + "empty segment in the path");
  auto doc = files->data.find(parts[0]);
  if (doc == files->data.end())
    return Status::Input(where + "no data file named '" + parts[0] + "' (data files: " + DataNames(*files) +
                         "; parameters take a name without dots)");
  if (parts.size() < 2) return Status::Input(where + "give a path inside the data file, e.g. " + parts[0] + ".<key>");
  if (parts.back() == "id") return Status::Input(where + "ids name things the rules refer to; they cannot be overridden");
  Json* node = &doc->second;
  std::string walked = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& seg = parts[i];
    Json* child = nullptr;
    if (node->is_object()) {
      if (seg[0] == '$') return Status::Input(where + "'" + seg + "' is not a data value");
      auto it = node->find(seg);
      if (it != node->end()) child = &*it;
      else {
        std::string keys;
        for (auto k = node->begin(); k != node->end(); ++k)
          if (k.key()[0] != '$') keys += (keys.empty() ? "" : ", ") + k.key();
        return Status::Input(where + "no '" + seg + "' in " + walked + " (keys: " + keys + ")");
      }
    } else if (node->is_array()) {
      const bool numeric = seg.find_first_not_of("0123456789") == std::string::npos;
      if (numeric) {
        // Counted from 0, as the JSON Pointers of every error message count them
        // (/cards/3/count is --set cards.cards.3.count).
        int64_t k = 0;
        std::string ignored;
        if (!ParseInt(seg, 0, static_cast<int64_t>(node->size()) - 1, "", &k, &ignored))
          return Status::Input(where + walked + " has " + std::to_string(node->size()) + " elements; '" + seg +
                               "' is out of range (indices start at 0, as in the JSON Pointers of error messages)");
        child = &(*node)[k];
      } else {
        std::string ids;
        for (auto& e : *node) {
          if (!e.is_object() || !e.contains("id") || !e["id"].is_string()) continue;
          if (e["id"] == seg) child = &e;
          ids += (ids.empty() ? "" : ", ") + e["id"].get<std::string>();
        }
        if (!child)
          return Status::Input(where + "no element with id '" + seg + "' in " + walked +
                               (ids.empty() ? " (its elements have no ids: use an index from 0)" : " (ids: " + ids + ")"));
      }
    } else {
      return Status::Input(where + walked + " is a value, not an object or a list");
    }
    node = child;
    walked += "." + seg;
  }
  *out = node;
  *doc_name = parts[0];
  return Status::Ok();
}

Status ReadDataValue(const GameFiles& files, const std::string& path, Json* out, const std::string& option) {
  Json* node = nullptr;
  std::string doc;
  // The walk only reads; it is shared with ApplyDataOverrides, which writes through it.
  Status st = ResolveDataPath(const_cast<GameFiles*>(&files), path, &node, &doc, option);
  if (st.ok()) *out = *node;
  return st;
}

Status ApplyDataOverrides(const std::vector<DataOverride>& sets, GameFiles* files) {
  std::set<std::string> changed;
  for (const auto& set : sets) {
    Json* node = nullptr;
    std::string doc;
    Status st = ResolveDataPath(files, set.path, &node, &doc);
    if (!st.ok()) return st;
    *node = set.value;
    changed.insert(doc);
  }
  for (const auto& name : changed) {
    Json doc = files->data[name];
    const std::string schema = doc.value("$schema_name", std::string());
    doc.erase("$schema_name");
    doc.erase("$file");
    doc.erase("$cards_key");
    if (schema.empty()) continue;
    Status st = Validated(schema, doc, files->data_files[name]);
    if (!st.ok()) {
      st.message = "--set made the data invalid: " + st.message;
      return st;
    }
  }
  Status st = BuildTileSet(files);
  if (st.ok()) st = BuildRegionsAndScales(files);
  if (!st.ok()) st.message = "--set made the data invalid: " + st.message;
  return st;
}

std::string RulesFingerprint(const GameFiles& files) {
  TextHash h;
  auto mix = [&](const std::string& text) {
    h.Add(text);
    h.Add("\xff");  // a separator, so "ab"+"c" and "a"+"bc" differ
  };
  mix(DumpJson(files.manifest));
  for (const auto& [name, doc] : files.data) {
    mix(name);
    mix(DumpJson(doc));
  }
  for (const auto& root : files.roots) {
    // Every .lua file but the scenario tests, which do not change what the rules do.
    ListOptions o;
    o.enter = [](const std::string& rel) { return rel != "tests"; };
    std::vector<FolderEntry> entries;
    ListGameFiles(root.folder, root.display, o, &entries);  // a folder it cannot list counts as empty
    for (const auto& e : entries) {
      const std::string& rel = e.rel;
      if (!(rel.size() > 4 && rel.compare(rel.size() - 4, 4, ".lua") == 0)) continue;
      std::string text, error;
      mix(root.display + "/" + rel);
      // An unreadable file still counts, by name: the fingerprint is never an error.
      if (e.regular && ReadGameFile(root.folder, root.display, rel, 16u << 20, &text, &error)) mix(text);
    }
  }
  return h.Hex();
}

}  // namespace plateau

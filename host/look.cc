// A game's look, loaded and checked beyond its schema (see look.h).
#include "host/look.h"

#include <cctype>
#include <set>

#include "host/files.h"
#include "host/schema.h"

namespace plateau {

bool IsColour(const std::string& text) {
  if (text.size() != 4 && text.size() != 7) return false;
  if (text[0] != '#') return false;
  for (size_t i = 1; i < text.size(); ++i)
    if (!std::isxdigit(static_cast<unsigned char>(text[i]))) return false;
  return true;
}

namespace {

// Checks one look document against the game's data; every error names the file and pointer.
class LookChecker {
 public:
  LookChecker(const GameFiles& files, const std::string& file) : files_(files), file_(file) {}

  Status Check(const Json& look) {
    if (look.contains("seat_colours"))
      for (size_t i = 0; i < look["seat_colours"].size(); ++i) Colour(look["seat_colours"][i], "/seat_colours/" + N(i));
    if (look.contains("cards"))
      for (size_t i = 0; i < look["cards"].size(); ++i) Face(look["cards"][i], "/cards/" + N(i));
    if (look.contains("region_maps"))
      for (auto it = look["region_maps"].begin(); it != look["region_maps"].end(); ++it) {
        const std::string at = "/region_maps/" + it.key();
        if (it->contains("short"))
          for (auto r = (*it)["short"].begin(); r != (*it)["short"].end(); ++r) Region(r.key(), at + "/short/" + r.key());
        if (it->contains("colours")) Colours((*it)["colours"], at + "/colours");
      }
    if (look.contains("tiles")) Tiles(look["tiles"]);
    if (look.contains("tokens"))
      for (size_t i = 0; i < look["tokens"].size(); ++i) Token(look["tokens"][i], "/tokens/" + N(i));
    if (look.contains("counters"))
      for (size_t i = 0; i < look["counters"].size(); ++i) {
        const Json& c = look["counters"][i];
        const std::string at = "/counters/" + N(i);
        const Json* list = List(c["names"], at + "/names");
        if (list && c.contains("icons")) Ids(c["icons"], *list, c["names"].get<std::string>(), at + "/icons");
      }
    if (look.contains("values"))
      for (size_t i = 0; i < look["values"].size(); ++i)
        if (look["values"][i].contains("lookup")) List(look["values"][i]["lookup"], "/values/" + N(i) + "/lookup");
    if (look.contains("boards"))
      for (size_t i = 0; i < look["boards"].size(); ++i) List(look["boards"][i]["rows"], "/boards/" + N(i) + "/rows");
    if (look.contains("records"))
      for (size_t i = 0; i < look["records"].size(); ++i)
        if (look["records"][i].contains("lookup"))
          for (auto it = look["records"][i]["lookup"].begin(); it != look["records"][i]["lookup"].end(); ++it)
            List(*it, "/records/" + N(i) + "/lookup/" + it.key());
    if (look.contains("tracks"))
      for (auto it = look["tracks"].begin(); it != look["tracks"].end(); ++it)
        if (it->contains("spaces")) List((*it)["spaces"], "/tracks/" + it.key() + "/spaces");
    if (look.contains("print")) {
      const Json& pr = look["print"];
      if (pr.contains("back_colour")) Colour(pr["back_colour"], "/print/back_colour");
      if (pr.contains("leave_out"))
        for (size_t i = 0; i < pr["leave_out"].size(); ++i) List(pr["leave_out"][i], "/print/leave_out/" + N(i));
      if (pr.contains("sheets"))
        for (size_t i = 0; i < pr["sheets"].size(); ++i) List(pr["sheets"][i]["from"], "/print/sheets/" + N(i) + "/from");
    }
    return error_.empty() ? Status::Ok() : Status::Input(error_);
  }

 private:
  static std::string N(size_t i) { return std::to_string(i); }
  void Fail(const std::string& at, const std::string& why) {
    if (error_.empty()) error_ = file_ + ": at " + at + ": " + why;
  }
  void Colour(const Json& v, const std::string& at, bool seat_ok = false) {
    const std::string text = v.get<std::string>();
    if (seat_ok && text == "seat") return;
    if (!IsColour(text))
      Fail(at, v.dump() + " is not a colour (#rgb or #rrggbb" + std::string(seat_ok ? ", or \"seat\"" : "") + ")");
  }
  void Colours(const Json& m, const std::string& at) {
    for (auto it = m.begin(); it != m.end(); ++it) Colour(*it, at + "/" + it.key());
  }
  // The list a path names ("cards/cards", "chenilles/species/{species}/stages" up to its first
  // {field}), or null after a failure naming the data names or keys that exist.
  const Json* List(const Json& v, const std::string& at, bool whole = false) {
    const std::string path = v.get<std::string>();
    const std::vector<std::string> parts = SplitDataPath(path, '/');
    auto doc = files_.data.find(parts[0]);
    if (doc == files_.data.end()) {
      Fail(at, "no data named '" + parts[0] + "' (data: " + DataNames(files_) + ")");
      return nullptr;
    }
    const Json* node = &doc->second;
    std::string walked = parts[0];
    for (size_t i = 1; i < parts.size(); ++i) {
      const std::string& p = parts[i];
      if (!p.empty() && p.front() == '{') return whole ? nullptr : node;  // a record's value picks the rest
      const Json* next = nullptr;
      if (node->is_object() && node->contains(p)) next = &(*node)[p];
      if (node->is_array())
        for (const auto& e : *node)
          if (e.is_object() && e.value("id", std::string()) == p) next = &e;
      if (!next) {
        Fail(at, "'" + path + "': nothing named '" + p + "' in " + walked);
        return nullptr;
      }
      node = next;
      walked += "/" + p;
    }
    if (!node->is_array() && !node->is_object()) {
      Fail(at, "'" + path + "' is not a list");
      return nullptr;
    }
    return node;
  }
  // Keys of `m` that must be ids of the entries of `list`.
  void Ids(const Json& m, const Json& list, const std::string& path, const std::string& at) {
    std::set<std::string> ids;
    std::string some;
    for (const auto& e : list)
      if (e.is_object() && e.contains("id") && e["id"].is_string()) {
        ids.insert(e["id"].get<std::string>());
        if (ids.size() <= 12) some += (some.empty() ? "" : ", ") + e["id"].get<std::string>();
      }
    for (auto it = m.begin(); it != m.end(); ++it)
      if (!ids.count(it.key())) {
        Fail(at + "/" + it.key(), "no '" + it.key() + "' in " + path + " (ids: " + some + (ids.size() > 12 ? ", ..." : "") + ")");
        return;
      }
  }
  void Face(const Json& f, const std::string& at) {
    const Json* list = List(f["from"], at + "/from");
    if (f.contains("colour")) Colour(f["colour"], at + "/colour");
    if (f.contains("colours")) Colours(f["colours"], at + "/colours");
    if (!list) return;
    const std::string path = f["from"].get<std::string>();
    if (f.contains("icons")) Ids(f["icons"], *list, path, at + "/icons");
    // Each value a colour is given for must be the colour_by field of some entry.
    if (f.contains("colours") && f.contains("colour_by")) {
      const std::string by = f["colour_by"];
      std::set<std::string> values;
      for (const auto& e : *list)
        if (e.is_object() && e.contains(by) && e[by].is_string()) values.insert(e[by].get<std::string>());
      for (auto it = f["colours"].begin(); it != f["colours"].end(); ++it)
        if (!values.count(it.key())) {
          std::string have;
          for (const auto& v : values) have += (have.empty() ? "" : ", ") + v;
          Fail(at + "/colours/" + it.key(), "no entry of " + path + " has " + by + " '" + it.key() + "' (" + by + ": " +
                                                (have.empty() ? "none" : have) + ")");
          return;
        }
    }
  }
  void Region(const std::string& id, const std::string& at) {
    if (!files_.regions) return Fail(at, "the game has no regions data file");
    if (files_.regions->Find(id) < 0) Fail(at, "unknown region '" + id + "'");
  }
  void Tiles(const Json& t) {
    if (t.contains("kinds")) {
      Colours(t["kinds"], "/tiles/kinds");
      const Json* tiles = nullptr;
      for (const auto& [name, doc] : files_.data)
        if (doc.value("$schema_name", std::string()) == "tiles") tiles = &doc;
      if (!tiles) return Fail("/tiles/kinds", "the game has no tiles data file");
      std::set<std::string> kinds;
      if (tiles->contains("edge_kinds"))
        for (auto it = (*tiles)["edge_kinds"].begin(); it != (*tiles)["edge_kinds"].end(); ++it) kinds.insert(it.key());
      for (const auto& tile : (*tiles)["tiles"])
        for (const auto& sg : tile.value("segments", Json::array()))
          if (sg.contains("kind")) kinds.insert(sg["kind"].get<std::string>());
      for (auto it = t["kinds"].begin(); it != t["kinds"].end(); ++it)
        if (!kinds.count(it.key())) {
          std::string have;
          for (const auto& k : kinds) have += (have.empty() ? "" : ", ") + k;
          return Fail("/tiles/kinds/" + it.key(), "no tile has an edge or segment of kind '" + it.key() + "' (kinds: " + have + ")");
        }
    }
  }
  void Token(const Json& t, const std::string& at) {
    if (t.contains("colour")) Colour(t["colour"], at + "/colour", true);
    if (t.contains("icons_of")) {
      const Json* list = List(t["icons_of"], at + "/icons_of");
      if (list && t.contains("icons")) Ids(t["icons"], *list, t["icons_of"].get<std::string>(), at + "/icons");
    }
    if (t.value("on", std::string()) == "region" && !files_.regions) Fail(at + "/on", "the game has no regions data file");
    if (t.value("on", std::string()) == "bucket" && !files_.scales) Fail(at + "/on", "the game has no scales data file");
  }

  const GameFiles& files_;
  std::string file_;
  std::string error_;
};

// The kinds of element a look knows, said by name before the schema's generic wording: a section
// of the look, a place a token stands, a shape, a way to show a zone.
Status KnownKinds(const Json& look, const std::string& file) {
  auto one_of = [](const std::string& v, std::initializer_list<const char*> kinds, std::string* list) {
    bool found = false;
    for (const char* k : kinds) {
      *list += (list->empty() ? "" : ", ") + std::string(k);
      if (v == k) found = true;
    }
    return found;
  };
  if (!look.is_object()) return Status::Ok();  // the schema says what a look is
  for (auto it = look.begin(); it != look.end(); ++it) {
    std::string list;
    if (!one_of(it.key(), {"$comment", "public_data", "seat_colours", "cards", "zones", "region_maps", "tiles", "tokens", "counters", "values", "boards",
                           "lists", "records", "tracks", "print"}, &list))
      return Status::Input(file + ": at /" + it.key() + ": unknown element kind '" + it.key() + "' (a look has: " + list + ")");
  }
  if (look.contains("tokens") && look["tokens"].is_array())
    for (size_t i = 0; i < look["tokens"].size(); ++i) {
      const Json& t = look["tokens"][i];
      const std::string at = file + ": at /tokens/" + std::to_string(i);
      std::string list;
      if (t.is_object() && t.contains("on") && t["on"].is_string() && !one_of(t["on"], {"cell", "corner", "edge", "region", "bucket"}, &list))
        return Status::Input(at + "/on: unknown place " + t["on"].dump() + " for a token (" + list + ")");
      list.clear();
      if (t.is_object() && t.contains("shape") && t["shape"].is_string() && !one_of(t["shape"], {"disc", "square", "ring", "diamond", "icon"}, &list))
        return Status::Input(at + "/shape: unknown shape " + t["shape"].dump() + " (" + list + ")");
    }
  if (look.contains("zones") && look["zones"].is_object())
    for (auto it = look["zones"].begin(); it != look["zones"].end(); ++it) {
      std::string list;
      if (it->is_object() && it->contains("show") && (*it)["show"].is_string() && !one_of((*it)["show"], {"faces", "chips", "pile"}, &list))
        return Status::Input(file + ": at /zones/" + it.key() + "/show: unknown way to show a zone " + (*it)["show"].dump() + " (" + list + ")");
    }
  return Status::Ok();
}

}  // namespace

Status LoadLook(GameFiles* files) {
  files->look = nullptr;
  files->look_file.clear();
  for (const auto& root : files->roots) {
    // Read as the game's other files are (host/files.h): a link, a FIFO or a folder there is
    // refused by name, never followed or waited on.
    Json look;
    std::string error;
    ReadFailure failure = ReadFailure::kNone;
    if (!ReadGameJson(root.folder, root.display, "data/look.json", &look, &error, &failure)) {
      if (failure == ReadFailure::kMissing) continue;
      return Status::Input(error);
    }
    const std::string file = root.display + "/data/look.json";
    Status st = KnownKinds(look, file);
    if (!st.ok()) return st;
    const SchemaSet& set = Schemas(&error);
    if (!error.empty()) return Status::Input(error);
    std::vector<std::string> errors;
    if (!set.Validate("look", look, file, &errors)) {
      std::string msg = errors.empty() ? file + ": does not match schema 'look'" : errors.front();
      for (size_t i = 1; i < errors.size() && i < 4; ++i) msg += "\n" + errors[i];
      return Status::Input(msg);
    }
    st = LookChecker(*files, file).Check(look);
    if (!st.ok()) return st;
    files->look = std::move(look);
    files->look_file = file;
    break;
  }
  return Status::Ok();
}

}  // namespace plateau

// The sections and parts of a game's print (see parts.h): the look's card faces, the tiles data
// with its start tile, and the look's print sheets, or plain faces from the data when the game
// has no look.
#include "designer/print/parts.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "host/json_io.h"
#include "host/state.h"

namespace plateau::print {

std::string Words(const Json& v) {
  if (v.is_null()) return "";
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string out;
    for (const auto& e : v) out += (out.empty() ? "" : ", ") + Words(e);
    return out;
  }
  if (v.is_object()) {
    if (v.contains("en") && v["en"].is_string()) return v["en"];
    if (v.contains("fr") && v["fr"].is_string()) return v["fr"];
    std::string out;
    for (auto it = v.begin(); it != v.end(); ++it) out += (out.empty() ? "" : ", ") + it.key() + " " + Words(*it);
    return out;
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) return std::to_string(static_cast<long long>(d));
  }
  return v.dump();
}

int SmallInt(const Json& v, int fallback) {
  if (!v.is_number()) return fallback;
  const double d = v.get<double>();
  if (!std::isfinite(d)) return fallback;
  return static_cast<int>(std::clamp(std::round(d), -100000.0, 100000.0));
}

namespace {

// A field of an entry: "name", "a.b", "regions.length".
Json FieldOf(const Json& entry, const std::string& path) {
  Json at = entry;
  size_t start = 0;
  for (;;) {
    const size_t dot = path.find('.', start);
    const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (at.is_null()) return Json();
    if (part == "length" && (at.is_array() || at.is_object())) at = at.size();
    else if (part == "length" && at.is_string()) at = at.get<std::string>().size();
    else if (at.is_object() && at.contains(part)) at = at[part];
    else return Json();
    if (dot == std::string::npos) return at;
    start = dot + 1;
  }
}

}  // namespace

std::string Fill(const std::string& tpl, const Json& entry) {
  std::string out;
  for (size_t i = 0; i < tpl.size();) {
    const size_t open = tpl.find('{', i);
    const size_t close = open == std::string::npos ? std::string::npos : tpl.find('}', open);
    if (close == std::string::npos) {
      out += tpl.substr(i);
      break;
    }
    out += tpl.substr(i, open - i);
    out += Words(FieldOf(entry, tpl.substr(open + 1, close - open - 1)));
    i = close + 1;
  }
  return out;
}

namespace {

// What of the tile look a tile's drawing uses: the colours of its edges' and segments' kinds,
// the icons of its segments' animals and of its properties.
std::string TileLookOf(const Json& t, const TileLook& tl) {
  Json used = Json::object();
  auto kind = [&](const Json& k) {
    if (k.is_string() && tl.kinds.count(k.get<std::string>())) used["kinds"][k.get<std::string>()] = tl.kinds.at(k.get<std::string>());
  };
  for (const auto& k : t.value("edges", Json::array())) kind(k);
  for (const auto& sg : t.value("segments", Json::array())) {
    if (!sg.is_object()) continue;
    kind(sg.value("kind", Json()));
    const Json tally = sg.value("tally", Json::object());
    for (const auto& [sp, n] : tally.items())
      used["animals"][sp] = tl.segment_icons.count(sp) ? tl.segment_icons.at(sp) : std::string();
  }
  const Json props = t.value("properties", Json::object());
  for (const auto& [prop, v] : props.items())
    if (tl.properties.count(prop)) used["properties"][prop] = tl.properties.at(prop);
  used["ground"] = tl.ground;
  used["paths"] = tl.paths;
  return DumpJson(used);
}

// A sheet's row: the template's parts between " · " whose fields are all missing or empty are
// left out (a stage with no threshold says nothing of one).
std::string FillRow(const std::string& tpl, const Json& entry) {
  const std::string sep = " · ";
  std::string out;
  for (size_t start = 0;;) {
    const size_t at = tpl.find(sep, start);
    const std::string piece = tpl.substr(start, at == std::string::npos ? std::string::npos : at - start);
    bool fields = false, some = false;
    for (size_t i = piece.find('{'); i != std::string::npos; i = piece.find('{', i + 1)) {
      const size_t close = piece.find('}', i);
      if (close == std::string::npos) break;
      fields = true;
      const Json v = FieldOf(entry, piece.substr(i + 1, close - i - 1));
      if (!v.is_null() && !((v.is_object() || v.is_array() || v.is_string()) && v.empty())) some = true;
    }
    if (!fields || some) out += (out.empty() ? "" : sep) + Fill(piece, entry);
    if (at == std::string::npos) break;
    start = at + sep.size();
  }
  return out;
}

std::string Pretty(std::string id) {
  std::replace(id.begin(), id.end(), '_', ' ');
  return id;
}

std::string Hash(std::initializer_list<std::string> parts) {
  TextHash h;
  for (const auto& p : parts) {
    h.Add(p);
    h.Add("\xff");
  }
  return h.Hex();
}

// The entries of a data list named by a look path ("cards/cards", "chenilles/events"): an
// array's objects with an id, or an object's values with their key as id.
bool Entries(const PrintSource& src, const std::string& path, std::vector<Json>* out) {
  size_t slash = path.find('/');
  auto doc = src.data.find(path.substr(0, slash));
  if (doc == src.data.end()) return false;
  const Json* node = &doc->second;
  while (slash != std::string::npos) {
    const size_t next = path.find('/', slash + 1);
    const std::string p = path.substr(slash + 1, next == std::string::npos ? std::string::npos : next - slash - 1);
    const Json* found = nullptr;
    if (node->is_object() && node->contains(p)) found = &(*node)[p];
    if (node->is_array())
      for (const auto& e : *node)
        if (e.is_object() && e.value("id", std::string()) == p) found = &e;
    if (!found) return false;
    node = found;
    slash = next;
  }
  if (node->is_array()) {
    for (const auto& e : *node)
      if (e.is_object() && e.contains("id") && (e["id"].is_string() || e["id"].is_number())) out->push_back(e);
  } else if (node->is_object()) {
    for (auto it = node->begin(); it != node->end(); ++it)
      if (it->is_object()) {
        Json e = *it;
        e["id"] = it.key();
        out->push_back(e);
      }
  } else {
    return false;
  }
  return true;
}

std::string IdOf(const Json& e) { return e["id"].is_string() ? e["id"].get<std::string>() : e["id"].dump(); }

// How many copies the data gives an entry ("count", default 1).
int CountOf(const Json& e) {
  if (!e.contains("count")) return 1;
  if (!e["count"].is_number()) return 1;
  const double c = e["count"].get<double>();
  return c < 0 ? 0 : c > 10000 ? 10000 : static_cast<int>(c);
}

// The readings a game plays by default (its string parameters' defaults): an entry that lists
// "variants" is printed when one of them is among these (Safari's tiles_variant).
std::set<std::string> DefaultReadings(const Json& manifest) {
  std::set<std::string> out;
  if (manifest.contains("parameters") && manifest["parameters"].is_object())
    for (const auto& [name, p] : manifest["parameters"].items())
      if (p.is_object() && p.contains("default") && p["default"].is_string() && p.contains("choices"))
        out.insert(p["default"].get<std::string>());
  return out;
}

bool InReading(const Json& e, const std::set<std::string>& readings) {
  if (!e.contains("variants") || !e["variants"].is_array()) return true;
  for (const auto& v : e["variants"])
    if (v.is_string() && readings.count(v.get<std::string>())) return true;
  return false;
}

std::string LastPart(const std::string& path) {
  const size_t slash = path.rfind('/');
  return Pretty(slash == std::string::npos ? path : path.substr(slash + 1));
}

double Number(const Json& v, double fallback, double lo, double hi) {
  if (!v.is_number()) return fallback;
  return std::clamp(v.get<double>(), lo, hi);
}

Part CardPart(const Json& spec, const Json& e, const std::string& section, double w, double h) {
  Part p;
  p.id = IdOf(e);
  p.key = section + "#" + p.id;
  std::string title = spec.contains("title") ? Fill(spec["title"], e) : Words(e.value("name", Json()));
  p.title = title.empty() || title == p.id ? Pretty(p.id) : title;
  if (spec.contains("cost")) p.cost = Fill(spec["cost"], e);
  if (spec.contains("text")) p.text = Fill(spec["text"], e);
  if (spec.contains("lower")) p.lower = Fill(spec["lower"], e);
  if (spec.contains("icons") && spec["icons"].contains(p.id)) p.icon = spec["icons"][p.id];
  else if (spec.contains("icon")) p.icon = Fill(spec["icon"], e);
  else if (e.contains("icon") && e["icon"].is_string()) p.icon = e["icon"];
  const std::string cf = spec.value("colour_field", std::string()), by = spec.value("colour_by", std::string());
  if (!cf.empty() && e.contains(cf) && e[cf].is_string()) p.colour = e[cf];
  else if (!by.empty() && spec.contains("colours") && e.contains(by) && e[by].is_string() && spec["colours"].contains(e[by].get<std::string>()))
    p.colour = spec["colours"][e[by].get<std::string>()];
  else if (spec.contains("colour")) p.colour = spec["colour"];
  p.count = CountOf(e);
  // Over what is drawn and how many: another card's icon or a field no face shows is no reason
  // to print this card again.
  p.hash = Hash({"card", p.title, p.cost, p.text, p.lower, p.icon, p.colour, std::to_string(p.count),
                 std::to_string(w) + "x" + std::to_string(h)});
  return p;
}

}  // namespace

Status BuildPrintSet(const PrintSource& src, const std::string& look_file, PrintSet* out) {
  *out = PrintSet();
  const Json& m = src.manifest;
  out->game_id = m.value("id", std::string());
  out->game_name = Words(m.value("name", Json(out->game_id)));
  out->version = m.contains("version") ? Words(m["version"]) : "0";
  out->has_look = src.look.is_object();
  const Json look = out->has_look ? src.look : Json::object();
  const Json pr = look.value("print", Json::object());
  double card_w = 63, card_h = 88;
  if (pr.contains("card_mm") && pr["card_mm"].is_array() && pr["card_mm"].size() == 2) {
    card_w = Number(pr["card_mm"][0], 63, 20, 180);
    card_h = Number(pr["card_mm"][1], 88, 20, 250);
  }
  const double tile_mm = Number(pr.value("tile_mm", Json()), 45, 15, 150);
  double sheet_w = 190, sheet_h = 130;
  if (pr.contains("sheet_mm") && pr["sheet_mm"].is_array() && pr["sheet_mm"].size() == 2) {
    sheet_w = Number(pr["sheet_mm"][0], 190, 40, 190);
    sheet_h = Number(pr["sheet_mm"][1], 130, 40, 270);
  }
  if (pr.contains("back_colour") && pr["back_colour"].is_string()) out->back_colour = pr["back_colour"];
  std::set<std::string> leave_out;
  for (const auto& v : pr.value("leave_out", Json::array()))
    if (v.is_string()) leave_out.insert(v.get<std::string>());
  const std::set<std::string> readings = DefaultReadings(m);

  // Which data file holds what: the manifest's schema for each data name.
  auto schema_of = [&](const std::string& name) {
    if (m.contains("data") && m["data"].contains(name)) return m["data"][name].value("schema", std::string());
    return std::string();
  };

  // One section (deck) of the cards a data list holds, drawn by `spec` (a look's card faces, or
  // the plain text faces of a game with no look).
  auto add_cards = [&](const Json& spec, const std::string& from) {
    std::vector<Json> entries;
    if (!Entries(src, from, &entries)) return;
    Section s;
    s.name = from;
    s.label = LastPart(from);
    s.width_mm = card_w;
    s.height_mm = card_h;
    for (const auto& e : entries) {
      if (!InReading(e, readings)) continue;
      Part p = CardPart(spec, e, from, card_w, card_h);
      if (p.count > 0) s.parts.push_back(std::move(p));
    }
    if (!s.parts.empty()) out->sections.push_back(std::move(s));
  };

  // The look's card faces, one section (deck) per list.
  if (out->has_look)
    for (const auto& spec : look.value("cards", Json::array())) {
      const std::string from = spec.value("from", std::string());
      if (leave_out.count(from)) continue;
      if (from.find('{') == std::string::npos) add_cards(spec, from);
    }
  // No look: every card list of the data as plain text faces (its name and doc).
  if (!out->has_look)
    for (const auto& [name, doc] : src.data) {
      std::string key;
      if (schema_of(name) == "cards") key = "cards";
      else if (m.contains("data") && m["data"].contains(name) && m["data"][name].contains("cards")) key = m["data"][name]["cards"];
      if (key.empty()) continue;
      const std::string from = name + "/" + key;
      add_cards(Json{{"from", from}, {"text", "{doc}"}}, from);
    }

  // Tiles: each tile in its count, then the start tile (its squares in one piece).
  for (const auto& [name, doc] : src.data) {
    if (schema_of(name) != "tiles" || !doc.contains("tiles") || !doc["tiles"].is_array()) continue;
    TileLook& tl = out->tiles;
    if (doc.contains("edge_kinds") && doc["edge_kinds"].is_object())
      for (const auto& [kind, k] : doc["edge_kinds"].items())
        if (k.is_object() && !k.value("feature", true) && tl.ground_kind.empty()) tl.ground_kind = kind;
    const Json lt = look.value("tiles", Json::object());
    // Copies, not temporaries: items() of a temporary would outlive it.
    const Json kinds = lt.value("kinds", Json::object()), icons = lt.value("segment_icons", Json::object()),
               props = lt.value("properties", Json::object());
    for (const auto& [k, c] : kinds.items())
      if (c.is_string()) tl.kinds[k] = c;
    for (const auto& [k, c] : icons.items())
      if (c.is_string()) tl.segment_icons[k] = c;
    for (const auto& [k, c] : props.items())
      if (c.is_string()) tl.properties[k] = c;
    if (tl.kinds.count(tl.ground_kind)) tl.ground = tl.kinds[tl.ground_kind];
    for (const auto& k : pr.value("paths", Json::array()))
      if (k.is_string()) tl.paths.insert(k.get<std::string>());
    Section s;
    s.name = "tiles";
    s.label = "tiles";
    s.kind = PartKind::kTile;
    s.width_mm = s.height_mm = tile_mm;
    std::map<std::string, Json> by_id;
    for (const auto& t : doc["tiles"]) {
      if (!t.is_object() || !t.contains("id") || !t["id"].is_string()) continue;
      by_id[t["id"]] = t;
      if (!InReading(t, readings)) continue;
      Part p;
      p.id = t["id"];
      p.key = "tiles#" + p.id;
      p.title = p.id;
      p.tile = t;
      p.count = CountOf(t);
      p.hash = Hash({"tile", DumpJson(t), TileLookOf(t, tl), std::to_string(tile_mm)});
      if (p.count > 0) s.parts.push_back(std::move(p));
    }
    if (!s.parts.empty()) out->sections.push_back(std::move(s));
    if (doc.contains("start") && doc["start"].is_array()) {
      Json group = Json::array();
      int r0 = 1 << 30, c0 = 1 << 30, r1 = -(1 << 30), c1 = -(1 << 30);
      std::string ids;
      for (const auto& st : doc["start"]) {
        if (!st.is_object() || !InReading(st, readings) || !st.contains("cell") || !st.contains("tile")) continue;
        const std::string tid = st["tile"].is_string() ? st["tile"].get<std::string>() : "";
        if (!by_id.count(tid) || !st["cell"].is_array() || st["cell"].size() != 2) continue;
        const int r = SmallInt(st["cell"][0], 0), c = SmallInt(st["cell"][1], 0);
        r0 = std::min(r0, r), r1 = std::max(r1, r), c0 = std::min(c0, c), c1 = std::max(c1, c);
        group.push_back({{"def", by_id[tid]}, {"row", r}, {"col", c}, {"rotation", SmallInt(st.value("rotation", Json()), 0)}});
        ids += (ids.empty() ? "" : "+") + tid;
      }
      if (!group.empty()) {
        for (auto& g : group) g["row"] = SmallInt(g["row"], 0) - r0, g["col"] = SmallInt(g["col"], 0) - c0;
        Section st;
        st.name = "start tile";
        st.label = "start tile";
        st.kind = PartKind::kTileGroup;
        Part p;
        p.id = "start";
        p.key = "start tile#start";
        p.title = "start tile " + ids;
        p.tile = group;
        p.group_rows = r1 - r0 + 1;
        p.group_cols = c1 - c0 + 1;
        st.width_mm = tile_mm * p.group_cols;
        st.height_mm = tile_mm * p.group_rows;
        std::string looks;
        for (const auto& g : group) looks += TileLookOf(g["def"], tl);
        p.hash = Hash({"start", DumpJson(group), looks, std::to_string(tile_mm)});
        st.parts.push_back(std::move(p));
        out->sections.push_back(std::move(st));
      }
    }
  }

  // The look's sheets: one per entry of a list (its rows a list inside it), or one for the
  // whole list (each entry a row).
  for (const auto& spec : pr.value("sheets", Json::array())) {
    const std::string from = spec.value("from", std::string());
    std::vector<Json> entries;
    if (!Entries(src, from, &entries))
      return Status::Input(look_file + ": at /print/sheets: '" + from + "' names no data list of the game");
    Section s;
    s.name = from;
    s.label = spec.value("label", LastPart(from));
    s.kind = PartKind::kSheet;
    s.width_mm = sheet_w;
    s.height_mm = sheet_h;
    const std::string row_tpl = spec.value("row", std::string("{id}"));
    const int copies = std::clamp(spec.value("count", 1), 1, 100);
    if (spec.value("one", false)) {
      Part p;
      p.id = LastPart(from);
      p.key = from + "#all";
      p.title = spec.value("title", p.id);
      p.text = spec.value("text", std::string());
      for (const auto& e : entries) p.rows.push_back(FillRow(row_tpl, e));
      p.count = copies;
      p.hash = Hash({"sheet", p.title, p.text, DumpJson(p.rows), std::to_string(p.count), std::to_string(sheet_w) + "x" + std::to_string(sheet_h)});
      s.parts.push_back(std::move(p));
    } else {
      const std::string rows = spec.value("rows", std::string());
      for (const auto& e : entries) {
        Part p;
        p.id = IdOf(e);
        p.key = from + "#" + p.id;
        p.title = spec.contains("title") ? Fill(spec["title"], e) : Words(e.value("name", Json(p.id)));
        if (spec.contains("text")) p.text = Fill(spec["text"], e);
        if (!rows.empty() && e.contains(rows) && e[rows].is_array())
          for (const auto& r : e[rows]) p.rows.push_back(FillRow(row_tpl, r));
        p.count = copies;
        p.hash = Hash({"sheet", p.title, p.text, DumpJson(p.rows), std::to_string(p.count), std::to_string(sheet_w) + "x" + std::to_string(sheet_h)});
        s.parts.push_back(std::move(p));
      }
    }
    if (!s.parts.empty()) out->sections.push_back(std::move(s));
  }
  return Status::Ok();
}

}  // namespace plateau::print

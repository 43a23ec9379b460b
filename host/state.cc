// Game state lookup, canonical JSON serialization and hashing (see state.h).
#include "host/state.h"

#include "host/json_io.h"
#include "host/limits.h"
#include "host/text.h"

#include <cstdio>

#include <algorithm>
#include <atomic>

namespace plateau {

uint64_t StateIdentity::Next() {
  static std::atomic<uint64_t> counter{1};
  return counter.fetch_add(1, std::memory_order_relaxed);
}

Zone* State::FindZone(const std::string& name, int owner) {
  for (auto& z : zones)
    if (z.owner == owner && z.name == name) return &z;
  return nullptr;
}
const Zone* State::FindZone(const std::string& name, int owner) const {
  return const_cast<State*>(this)->FindZone(name, owner);
}
int State::ZoneIndex(const std::string& name, int owner) const {
  for (size_t i = 0; i < zones.size(); ++i)
    if (zones[i].owner == owner && zones[i].name == name) return static_cast<int>(i);
  return -1;
}
Zone* State::AddZone(const std::string& name, int owner, Visibility vis) {
  if (Zone* z = FindZone(name, owner)) return z;
  zones.push_back(Zone{name, owner, vis, {}});
  index_.built = false;
  return &zones.back();
}
Grid* State::FindGrid(const std::string& key) {
  for (auto& [k, g] : grids)
    if (k == key) return &g;
  return nullptr;
}
const Grid* State::FindGrid(const std::string& key) const { return const_cast<State*>(this)->FindGrid(key); }
int State::GridIndex(const std::string& key) const {
  for (size_t i = 0; i < grids.size(); ++i)
    if (grids[i].first == key) return static_cast<int>(i);
  return -1;
}
Grid* State::AddGrid(const std::string& key, GridRules rules) {
  if (Grid* g = FindGrid(key)) return g;
  grids.emplace_back(key, Grid(rules));
  index_.built = false;
  return &grids.back().second;
}
const State::Index& State::BuildIndex() const {
  Index ix;
  for (size_t i = 0; i < seats.size(); ++i) {
    const int seat = static_cast<int>(i);
    ix.hand.push_back(ZoneIndex("hand", seat));
    ix.pile.push_back(ZoneIndex("pile", seat));
    ix.grid.push_back(GridIndex(Key("grid", seat)));
    if ((seats[i].kind == "player" || seats[i].kind == "neutral") && ix.hand.back() >= 0)
      ix.rotation.push_back(ix.hand.back());
  }
  ix.deck = ZoneIndex("deck", -1);
  ix.discard = ZoneIndex("discard", -1);
  ix.built = true;
  index_ = std::move(ix);
  return index_;
}

int State::SeatIndex(const std::string& name_or_kind) const {
  for (size_t i = 0; i < seats.size(); ++i)
    if (seats[i].name == name_or_kind || seats[i].kind == name_or_kind) return static_cast<int>(i);
  return -1;
}

// ---------------------------------------------------------------------------------------

void StateUndo::Begin(const State& s) {
  static std::atomic<uint64_t> sessions{0};
  session_ = sessions.fetch_add(1, std::memory_order_relaxed) + 1;
  active_ = true;
  state_ = &s;
  saved_ = 0;
  rng_ = s.rng;
  // Forced dice exist only in tests; copying an empty queue would still allocate.
  has_dice_ = s.dice.HasForced();
  if (has_dice_) dice_ = s.dice;
  move_count_ = s.move_count;
  log_size_ = s.log.size();
  generation_ = s.identity.generation;
  data_version_ = s.data_version;
  all_data_ = false;
  data_keys_.clear();
  slots_.clear();
  asks_.clear();
  commits_saved_ = false;
  map_edits_.clear();
}

TileMap::Journal* StateUndo::EditTileMap(const std::string& name) {
  if (saved_ & kTileMaps) return nullptr;
  for (auto& [n, j] : map_edits_)
    if (n == name) return &j;
  map_edits_.emplace_back(name, TileMap::Journal());
  return &map_edits_.back().second;
}

void StateUndo::SaveSlow(const State& s, uint32_t parts) {
  const uint32_t fresh = parts & ~saved_;
  if (fresh & kZones) zones_ = s.zones;
  if (fresh & kGrids) grids_ = s.grids;
  if (fresh & kCounters) counters_ = s.counters;
  if (fresh & kTracks) tracks_ = s.tracks;
  if (fresh & kFeatures) features_ = s.features;
  if (fresh & kTileMaps) tile_maps_ = s.tile_maps;
  if (fresh & kRegionMaps) region_maps_ = s.region_maps;
  if (fresh & kFlow) flow_ = s.flow;
  saved_ |= fresh;
}

template <typename F>
void StateUndo::FoldSlots(const std::string_view* key, F&& copy) {
  auto mine = [&](const DataSlot& e) { return !key || e.key == *key; };
  bool any = false;
  for (const DataSlot& e : slots_) any = any || mine(e);
  if (!any) {
    copy();
    return;
  }
  // Swapping each slot with its old value takes the writes back; swapping again redoes them.
  for (auto it = slots_.rbegin(); it != slots_.rend(); ++it)
    if (mine(*it)) std::swap(*it->slot, it->old);
  copy();
  for (DataSlot& e : slots_)
    if (mine(e)) std::swap(*e.slot, e.old);
  slots_.erase(std::remove_if(slots_.begin(), slots_.end(), mine), slots_.end());
}

void StateUndo::SaveDataSlot(const State& s, std::string_view key, Json* slot) {
  if (all_data_) return;
  for (const auto& [k, v] : data_keys_)
    if (k == key) return;
  if (slots_.size() >= kMaxSlots) {
    SaveDataKey(s, key);
    return;
  }
  slots_.push_back({std::string(key), slot, *slot});
}

void StateUndo::FoldAllSlots(const State& s) {
  if (&s != state_) return;
  while (!slots_.empty()) {
    const std::string key = slots_.front().key;
    SaveDataKey(s, std::string_view(key));
  }
}

void StateUndo::SaveDataKey(const State& s, std::string_view key) {
  if (all_data_) return;
  for (const auto& [k, v] : data_keys_)
    if (k == key) return;
  if (!s.data.is_object()) {
    SaveAllData(s);
    return;
  }
  FoldSlots(&key, [&] {
    auto it = s.data.find(key);
    data_keys_.emplace_back(std::string(key), it == s.data.end() ? std::nullopt : std::optional<Json>(*it));
  });
}

void StateUndo::SaveAllData(const State& s) {
  if (all_data_) return;
  FoldSlots(nullptr, [&] { data_ = s.data; });
  // Keys saved one by one before this point are older than the whole copy: keep the copy as
  // it was when the move began by putting them back first.
  for (auto it = data_keys_.rbegin(); it != data_keys_.rend(); ++it) {
    if (it->second) data_[it->first] = *it->second;
    else data_.erase(it->first);
  }
  data_keys_.clear();
  all_data_ = true;
}

void StateUndo::ClearAsk(State* s, size_t seat) {
  if (seat >= s->flow.asks.size()) return;
  if (saved_ & kFlow) s->flow.asks[seat].clear();
  else asks_.emplace_back(seat, std::move(s->flow.asks[seat]));
  s->flow.asks[seat].clear();
}

void StateUndo::Restore(State* s) {
  if (saved_ & kZones) s->zones = std::move(zones_);
  if (saved_ & kGrids) s->grids = std::move(grids_);
  if (saved_ & kCounters) s->counters = std::move(counters_);
  if (saved_ & kTracks) s->tracks = std::move(tracks_);
  if (saved_ & kFeatures) s->features = std::move(features_);
  if (saved_ & kTileMaps) s->tile_maps = std::move(tile_maps_);
  // After the whole copy, which (taken after these changes) still holds them.
  for (auto it = map_edits_.rbegin(); it != map_edits_.rend(); ++it) {
    auto m = s->tile_maps.find(it->first);
    if (m != s->tile_maps.end()) m->second.Undo(&it->second);
  }
  map_edits_.clear();
  if (saved_ & kRegionMaps) s->region_maps = std::move(region_maps_);
  if (all_data_) {
    s->data = std::move(data_);
  } else {
    for (auto it = slots_.rbegin(); it != slots_.rend(); ++it) *it->slot = std::move(it->old);
    for (auto it = data_keys_.rbegin(); it != data_keys_.rend(); ++it) {
      if (it->second) s->data[it->first] = std::move(*it->second);
      else if (s->data.is_object()) s->data.erase(it->first);
    }
  }
  slots_.clear();
  s->rng = rng_;
  if (has_dice_) s->dice = dice_;
  else s->dice.ClearForced();
  if (saved_ & kFlow) s->flow = std::move(flow_);
  // After the flow: a flow saved later than a ClearAsk holds the question already cleared.
  for (auto it = asks_.rbegin(); it != asks_.rend(); ++it) {
    if (s->flow.asks.size() <= it->first) s->flow.asks.resize(it->first + 1);
    s->flow.asks[it->first] = std::move(it->second);
  }
  asks_.clear();
  if (commits_saved_) {
    s->flow.pending = std::move(pending_);
    s->flow.committed = std::move(committed_);
    commits_saved_ = false;
  }
  s->move_count = move_count_;
  if (s->log.size() > log_size_) s->log.resize(log_size_);
  s->InvalidateIndex();
  s->identity.generation = generation_;  // the same content as then: its cached answers hold
  s->data_version = data_version_;
  saved_ = 0;
  data_keys_.clear();
  all_data_ = false;
  active_ = false;
}

bool CheckDataOverrides(const Json& j, std::string* error) {
  if (!j.is_array()) {
    *error = "data_overrides must be a list";
    return false;
  }
  for (const auto& e : j)
    if (!e.is_object() || !e.contains("path") || !e.at("path").is_string() || !e.contains("value")) {
      *error = "each of data_overrides must be {\"path\": \"<data>.<path>\", \"value\": ...}";
      return false;
    }
  return true;
}

Json MoveToJson(const Move& m, const CardSet& cards) {
  Json j = m.args->is_object() ? *m.args : Json::object();
  j["type"] = m.type;
  if (m.card != kNoCard) j["card"] = cards.Name(m.card);
  if (m.has_cell) j["cell"] = {m.cell.row, m.cell.col};
  if (m.has_to) j["to"] = {m.to.row, m.to.col};
  return j;
}

static bool ReadCoord(const Json& j, Coord* out) {
  if (!j.is_array() || j.size() != 2 || !j[0].is_number_integer() || !j[1].is_number_integer()) return false;
  // Within the host's cell range, never narrowed: [2^32, 0] is not [0, 0].
  for (size_t i = 0; i < 2; ++i)
    if (j[i].is_number_unsigned() ? j[i].get<uint64_t>() > static_cast<uint64_t>(limits::kCoord)
                                  : (j[i].get<int64_t>() < -limits::kCoord || j[i].get<int64_t>() > limits::kCoord))
      return false;
  out->row = static_cast<int>(j[0].get<int64_t>());
  out->col = static_cast<int>(j[1].get<int64_t>());
  return true;
}

bool MoveFromJson(const Json& j, const CardSet& cards, Move* out, std::string* error) {
  if (!j.is_object()) {
    *error = "move must be a JSON object, got " + std::string(j.type_name());
    return false;
  }
  auto t = j.find("type");
  if (t == j.end() || !t->is_string()) {
    *error = "move needs a string field 'type'";
    return false;
  }
  Move m;
  m.type = t->get<std::string>();
  Json args;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    if (k == "type") continue;
    if (k == "card" && it->is_string()) {
      m.card = cards.Find(it->get<std::string>());
      if (m.card == kNoCard) {
        *error = "unknown card '" + it->get<std::string>() + "' in move";
        return false;
      }
    } else if (k == "cell") {
      if (!ReadCoord(*it, &m.cell)) { *error = "move field 'cell' must be [row, col] within -4096..4096"; return false; }
      m.has_cell = true;
    } else if (k == "to") {
      if (!ReadCoord(*it, &m.to)) { *error = "move field 'to' must be [row, col] within -4096..4096"; return false; }
      m.has_to = true;
    } else {
      args[k] = *it;
    }
  }
  m.args = std::move(args);
  *out = std::move(m);
  return true;
}

std::string MoveToString(const Move& m, const CardSet& cards) { return DumpJson(MoveToJson(m, cards)); }

// ---------------------------------------------------------------------------------------

static Json GridToJson(const Grid& g, const CardSet& cards) {
  Json cells = Json::array();
  std::vector<Coord> occ;
  g.OccupiedCells(&occ);
  for (const Coord& c : occ) {
    const Cell* cell = g.Get(c.row, c.col);
    Json e = {c.row, c.col, cards.Name(cell->item)};
    if (cell->rotation || cell->face_down) {
      e.push_back(cell->rotation);
      e.push_back(cell->face_down != 0);
    }
    cells.push_back(std::move(e));
  }
  return {{"max_rows", g.rules().max_rows}, {"max_cols", g.rules().max_cols},
          {"must_touch", g.rules().must_touch}, {"cells", std::move(cells)}};
}

Json State::ToJson() const {
  Json j;
  j["format"] = 1;
  j["game"] = game_id;
  j["seed"] = seed;
  j["rng"] = rng.ToString();
  j["params"] = params;
  if (data_overrides.is_array() && !data_overrides.empty()) j["data_overrides"] = data_overrides;
  j["player_count"] = player_count;
  Json s = Json::array();
  for (const auto& seat : seats) s.push_back({{"name", seat.name}, {"kind", seat.kind}});
  j["seats"] = std::move(s);
  Json z = Json::array();
  for (const auto& zone : zones) {
    Json names = Json::array();
    for (CardId c : zone.cards) names.push_back(cards->Name(c));
    z.push_back({{"name", zone.name}, {"owner", zone.owner}, {"visibility", VisibilityName(zone.visibility)},
                 {"cards", std::move(names)}});
  }
  j["zones"] = std::move(z);
  Json g = Json::array();
  for (const auto& [key, grid] : grids) {
    Json e = GridToJson(grid, *cards);
    e["key"] = key;
    g.push_back(std::move(e));
  }
  j["grids"] = std::move(g);
  Json c = Json::object();
  for (const auto& [key, ctr] : counters)
    c[key] = {{"value", ctr.value}, {"min", ctr.min}, {"max", ctr.max}, {"lost", ctr.lost}};
  j["counters"] = std::move(c);
  Json t = Json::object();
  for (const auto& [key, tr] : tracks)
    t[key] = {{"length", tr.length}, {"circular", tr.circular}, {"position", tr.position}, {"laps", tr.laps}};
  j["tracks"] = std::move(t);
  Json f = Json::object();
  for (const auto& [key, fg] : features) {
    const auto d = fg.Export();
    Json occ = Json::array(), tal = Json::array();
    for (const auto& m : d.occupants) {
      Json o = Json::object();
      for (auto [owner, k] : m) o[std::to_string(owner)] = k;
      occ.push_back(std::move(o));
    }
    for (const auto& m : d.tally) tal.push_back(Json(m));
    f[key] = {{"kind", d.kind}, {"open", d.open}, {"parent", d.parent}, {"rank", d.rank},
              {"occupants", std::move(occ)}, {"tally", std::move(tal)}, {"connections", d.connections}};
  }
  j["features"] = std::move(f);
  if (!tile_maps.empty()) {
    Json tm = Json::object();
    for (const auto& [key, m] : tile_maps) tm[key] = m.ToJson();
    j["tile_maps"] = std::move(tm);
  }
  if (!region_maps.empty()) {
    Json rm = Json::object();
    for (const auto& [key, m] : region_maps) rm[key] = m.ToJson();
    j["region_maps"] = std::move(rm);
  }
  j["data"] = data;
  Json fl;
  fl["phase"] = flow.phase;
  fl["round"] = flow.round;
  fl["step"] = flow.step;
  fl["turn"] = flow.turn;
  fl["to_move"] = flow.to_move;
  fl["committed"] = flow.committed;
  Json pend = Json::array();
  for (size_t i = 0; i < flow.pending.size(); ++i)
    pend.push_back(i < flow.committed.size() && flow.committed[i] ? MoveToJson(flow.pending[i], *cards) : Json());
  fl["pending"] = std::move(pend);
  Json asks = Json::array();
  for (const auto& a : flow.asks) {
    Json moves = Json::array();
    for (const auto& m : a) moves.push_back(MoveToJson(m, *cards));
    asks.push_back(std::move(moves));
  }
  fl["asks"] = std::move(asks);
  fl["terminal"] = flow.terminal;
  j["flow"] = std::move(fl);
  j["move_count"] = move_count;
  Json lg = Json::array();
  for (const auto& e : log) lg.push_back({{"seat", e.seat}, {"kind", e.kind}, {"detail", e.detail}});
  j["log"] = std::move(lg);
  return j;
}

bool State::FromJson(const Json& j, std::shared_ptr<const CardSet> card_set, State* out, std::string* error,
                     std::shared_ptr<const TileSet> tiles, std::shared_ptr<const RegionSet> regions) {
  // Where the reading is, as a JSON pointer: every refusal names the field ("at /flow/round").
  std::string at;
  try {
    State s;
    s.cards = card_set;
    s.tiles = tiles;
    s.regions = regions;
    at = "/format";
    if (limits::JsonInt(j.at("format"), INT64_MIN, INT64_MAX, "") != 1) {
      *error = "unsupported save format";
      return false;
    }
    at = "/game";
    s.game_id = j.at("game").get<std::string>();
    at = "/seed";
    if (!j.at("seed").is_number_unsigned() && !(j.at("seed").is_number_integer() && j.at("seed").get<int64_t>() >= 0))
      throw std::runtime_error("expected a whole number from 0 to 2^64-1, got " + DumpJson(j.at("seed")));
    s.seed = j.at("seed").get<uint64_t>();
    at = "/rng";
    if (!Rng::FromString(j.at("rng").get<std::string>(), &s.rng)) {
      *error = "bad rng state";
      return false;
    }
    at = "/params";
    s.params = j.at("params");
    if (!s.params.is_object()) throw std::runtime_error("expected an object, got " + std::string(s.params.type_name()));
    at = "/data_overrides";
    if (j.contains("data_overrides")) {
      std::string why;
      if (!CheckDataOverrides(j.at("data_overrides"), &why)) throw std::runtime_error(why);
      s.data_overrides = j.at("data_overrides");
    }
    at = "/player_count";
    s.player_count = static_cast<int>(limits::JsonInt(j.at("player_count"), 1, limits::kSeats, ""));
    at = "/seats";
    if (!j.at("seats").is_array() || j.at("seats").size() > static_cast<size_t>(limits::kSeats))
      throw std::runtime_error("expected a list of at most " + std::to_string(limits::kSeats) + " seats");
    for (size_t i = 0; i < j.at("seats").size(); ++i) {
      at = "/seats/" + std::to_string(i);
      const Json& seat = j.at("seats")[i];
      s.seats.push_back({seat.at("name"), seat.at("kind")});
    }
    auto card = [&](const Json& name) {
      const CardId id = card_set->Find(name.get<std::string>());
      if (id == kNoCard) throw std::runtime_error("unknown card '" + name.get<std::string>() + "'");
      return id;
    };
    at = "/zones";
    size_t zi = 0;
    for (const auto& z : j.at("zones")) {
      at = "/zones/" + std::to_string(zi++);
      Zone zone;
      zone.name = z.at("name");
      at += "/owner";
      zone.owner = static_cast<int>(limits::JsonInt(z.at("owner"), -1, limits::kSeats - 1, ""));
      at.resize(at.size() - 6);
      if (!ParseVisibility(z.at("visibility"), &zone.visibility)) throw std::runtime_error("bad zone visibility");
      for (const auto& c : z.at("cards")) zone.cards.push_back(card(c));
      s.zones.push_back(std::move(zone));
    }
    at = "/grids";
    size_t gi = 0;
    for (const auto& g : j.at("grids")) {
      const std::string grid_at = "/grids/" + std::to_string(gi++);
      at = grid_at + "/max_rows";
      const int max_rows = static_cast<int>(limits::JsonInt(g.at("max_rows"), 0, 1000, ""));
      at = grid_at + "/max_cols";
      const int max_cols = static_cast<int>(limits::JsonInt(g.at("max_cols"), 0, 1000, ""));
      at = grid_at;
      GridRules rules{max_rows, max_cols, g.at("must_touch")};
      Grid grid(rules);
      size_t ci = 0;
      for (const auto& e : g.at("cells")) {
        at = grid_at + "/cells/" + std::to_string(ci++);
        Cell cell;
        cell.item = card(e.at(2));
        if (e.size() > 3) {
          cell.rotation = static_cast<uint8_t>(limits::JsonInt(e.at(3), 0, 3, "cell rotation"));
          cell.face_down = e.at(4).get<bool>() ? 1 : 0;
        }
        const int row = static_cast<int>(limits::JsonInt(e.at(0), -limits::kCoord, limits::kCoord, "row"));
        const int col = static_cast<int>(limits::JsonInt(e.at(1), -limits::kCoord, limits::kCoord, "column"));
        if (grid.Occupied(row, col))
          throw std::runtime_error("cell [" + std::to_string(row) + ", " + std::to_string(col) + "] is given twice");
        grid.Set(row, col, cell);
      }
      at = grid_at + "/key";
      s.grids.emplace_back(g.at("key").get<std::string>(), std::move(grid));
    }
    at = "/counters";
    for (auto it = j.at("counters").begin(); it != j.at("counters").end(); ++it)
      at = "/counters/" + it.key(), s.counters[it.key()] = Counter{limits::JsonInt(it->at("value"), INT64_MIN, INT64_MAX, "counter " + it.key() + " value"),
                                     limits::JsonInt(it->at("min"), INT64_MIN, INT64_MAX, "counter " + it.key() + " min"),
                                     limits::JsonInt(it->at("max"), INT64_MIN, INT64_MAX, "counter " + it.key() + " max"),
                                     limits::JsonInt(it->at("lost"), 0, INT64_MAX, "counter " + it.key() + " lost")};
    at = "/tracks";
    for (auto it = j.at("tracks").begin(); it != j.at("tracks").end(); ++it)
      at = "/tracks/" + it.key(), s.tracks[it.key()] = Track{static_cast<int>(limits::JsonInt(it->at("length"), 1, limits::kTrackLength, "track " + it.key() + " length")),
                                 it->at("circular").get<bool>(),
                                 static_cast<int>(limits::JsonInt(it->at("position"), 0, limits::kTrackLength - 1, "track " + it.key() + " position")),
                                 static_cast<int>(limits::JsonInt(it->at("laps"), INT32_MIN, INT32_MAX, "track " + it.key() + " laps"))};
    at = "/features";
    if (!j.at("features").is_object()) throw std::runtime_error("expected an object of feature graphs by name");
    for (auto it = j.at("features").begin(); it != j.at("features").end(); ++it) {
      const std::string fat = "/features/" + it.key();
      at = fat;
      FeatureGraph::Data d;
      // Every number within the range the running code keeps it in, read without narrowing.
      auto ints = [&](const char* field, int64_t lo, int64_t hi) {
        at = fat + "/" + field;
        std::vector<int> out;
        const Json& list = it->at(field);
        if (!list.is_array()) throw std::runtime_error("expected a list");
        for (const auto& v : list) out.push_back(static_cast<int>(limits::JsonInt(v, lo, hi, "")));
        return out;
      };
      at = fat + "/kind";
      d.kind = it->at("kind").get<std::vector<std::string>>();
      for (const auto& k : d.kind)
        if (k.size() > limits::kNameBytes) throw std::runtime_error("a kind of at most " + std::to_string(limits::kNameBytes) + " bytes");
      d.open = ints("open", -limits::kFeaturePieces, limits::kFeaturePieces);
      d.parent = ints("parent", 0, INT32_MAX);
      d.rank = ints("rank", 0, 64);
      at = fat + "/occupants";
      for (const auto& o : it->at("occupants")) {
        std::map<int, int> m;
        if (!o.is_object()) throw std::runtime_error("each entry is an object of seat -> pieces");
        for (auto oi = o.begin(); oi != o.end(); ++oi) {
          int64_t owner = 0;
          std::string why;
          if (!ParseInt(oi.key(), 0, limits::kSeats - 1, "seat", &owner, &why)) throw std::runtime_error(why);
          m[static_cast<int>(owner)] = static_cast<int>(limits::JsonInt(*oi, 0, limits::kFeaturePieces, "pieces"));
        }
        d.occupants.push_back(std::move(m));
      }
      at = fat + "/tally";
      for (const auto& t : it->at("tally")) {
        std::map<std::string, int> m;
        if (!t.is_object()) throw std::runtime_error("each entry is an object of key -> count");
        for (auto ti = t.begin(); ti != t.end(); ++ti) {
          if (ti.key().empty() || ti.key().size() > limits::kTallyKeyBytes)
            throw std::runtime_error("a tally key of 1 to " + std::to_string(limits::kTallyKeyBytes) + " bytes");
          m[ti.key()] = static_cast<int>(limits::JsonInt(*ti, -limits::kTally, limits::kTally, "tally " + ti.key()));
        }
        d.tally.push_back(std::move(m));
      }
      at = fat + "/connections";
      for (const auto& c : it->at("connections")) {
        if (!c.is_array() || c.size() != 2) throw std::runtime_error("each connection is [segment, segment]");
        d.connections.emplace_back(static_cast<int>(limits::JsonInt(c[0], 0, INT32_MAX, "segment")),
                                   static_cast<int>(limits::JsonInt(c[1], 0, INT32_MAX, "segment")));
      }
      at = fat;
      FeatureGraph fg;
      std::string why;
      if (!FeatureGraph::Import(d, &fg, &why)) throw std::runtime_error(why);
      s.features.emplace(it.key(), std::move(fg));
    }
    at = "/tile_maps";
    if (j.contains("tile_maps")) {
      if (!j["tile_maps"].is_object()) throw std::runtime_error("tile_maps: an object of tile maps by name");
      for (auto it = j["tile_maps"].begin(); it != j["tile_maps"].end(); ++it) {
        TileMap m;
        std::string why;
        at = "/tile_maps/" + it.key();
        if (!TileMap::FromJson(*it, tiles, &m, &why)) throw std::runtime_error(why);
        s.tile_maps.emplace(it.key(), std::move(m));
      }
    }
    at = "/region_maps";
    if (j.contains("region_maps")) {
      if (!j["region_maps"].is_object()) throw std::runtime_error("region_maps: an object of region maps by name");
      for (auto it = j["region_maps"].begin(); it != j["region_maps"].end(); ++it) {
        RegionMap m;
        std::string why;
        at = "/region_maps/" + it.key();
        if (!RegionMap::FromJson(*it, regions, &m, &why)) throw std::runtime_error(why);
        s.region_maps.emplace(it.key(), std::move(m));
      }
    }
    at = "/data";
    s.data = j.at("data");
    s.data_version = NewContentVersion();
    at = "/flow";
    const Json& fl = j.at("flow");
    at = "/flow/phase";
    s.flow.phase = fl.at("phase");
    at = "/flow/round";
    s.flow.round = static_cast<int>(limits::JsonInt(fl.at("round"), 0, limits::kRounds, ""));
    at = "/flow/step";
    s.flow.step = static_cast<int>(limits::JsonInt(fl.at("step"), 0, limits::kMoves, ""));
    at = "/flow/turn";
    s.flow.turn = static_cast<int>(limits::JsonInt(fl.at("turn"), 0, limits::kMoves, ""));
    at = "/flow/to_move";
    if (fl.at("to_move").size() > static_cast<size_t>(limits::kSeats)) throw std::runtime_error("more entries than seats");
    for (const auto& v : fl.at("to_move")) s.flow.to_move.push_back(static_cast<int>(limits::JsonInt(v, 0, limits::kSeats - 1, "seat index")));
    at = "/flow/committed";
    for (const auto& v : fl.at("committed")) s.flow.committed.push_back(static_cast<int>(limits::JsonInt(v, 0, 1, "")));
    at = "/flow/pending";
    for (const auto& p : fl.at("pending")) {
      Move m;
      if (!p.is_null() && !MoveFromJson(p, *card_set, &m, error)) return false;
      s.flow.pending.push_back(std::move(m));
    }
    at = "/flow/asks";
    if (fl.contains("asks"))
      for (const auto& a : fl.at("asks")) {
        std::vector<Move> moves;
        for (const auto& mj : a) {
          Move m;
          if (!MoveFromJson(mj, *card_set, &m, error)) return false;
          moves.push_back(std::move(m));
        }
        s.flow.asks.push_back(std::move(moves));
      }
    at = "/flow/terminal";
    s.flow.terminal = fl.at("terminal");
    at = "/move_count";
    s.move_count = static_cast<int>(limits::JsonInt(j.at("move_count"), 0, limits::kMoves, ""));
    at = "/log";
    size_t li = 0;
    for (const auto& e : j.at("log")) {
      at = "/log/" + std::to_string(li++) + "/seat";
      s.log.push_back({static_cast<int>(limits::JsonInt(e.at("seat"), -1, limits::kSeats - 1, "")), e.at("kind"), e.at("detail")});
    }
    at.clear();
    std::string why;
    if (!s.CheckInvariants(&why)) throw std::runtime_error(why);
    *out = std::move(s);
    return true;
  } catch (const std::exception& e) {
    *error = std::string("bad saved state: ") + (at.empty() ? "" : "at " + at + ": ") + e.what();
    return false;
  }
}

bool State::CheckInvariants(std::string* error) const {
  auto fail = [&](const std::string& why) {
    *error = why;
    return false;
  };
  const int n = static_cast<int>(seats.size());
  if (n < 1) return fail("at /seats: a game has at least one seat");
  if (player_count < 1 || player_count > n)
    return fail("at /player_count: " + std::to_string(player_count) + " is not between 1 and the " + std::to_string(n) + " seats");
  for (int i = 0; i < player_count; ++i)
    if (seats[static_cast<size_t>(i)].kind != "player")
      return fail("at /seats/" + std::to_string(i) + ": the first " + std::to_string(player_count) + " seats are players");
  if (!params.is_object()) return fail("at /params: expected an object");
  if (!data.is_object()) return fail("at /data: expected an object");
  const size_t kinds[] = {zones.size(), grids.size(), counters.size(), tracks.size(), tile_maps.size(), region_maps.size()};
  for (size_t k : kinds)
    if (k > static_cast<size_t>(limits::kComponents))
      return fail("the state holds more than " + std::to_string(limits::kComponents) + " components of one kind");
  int64_t cards_total = 0;
  for (size_t zi = 0; zi < zones.size(); ++zi) {
    const Zone& z = zones[zi];
    if (z.owner < -1 || z.owner >= n)
      return fail("at /zones/" + std::to_string(zi) + "/owner: seat " + std::to_string(z.owner + 1) + " of zone '" + z.name + "' is not one of 1.." + std::to_string(n));
    if (static_cast<int64_t>(z.cards.size()) > limits::kZoneCards)
      return fail("at /zones/" + std::to_string(zi) + ": zone '" + z.name + "' holds more than " + std::to_string(limits::kZoneCards) + " cards");
    cards_total += static_cast<int64_t>(z.cards.size());
  }
  if (cards_total > limits::kStateCards) return fail("the zones hold more than " + std::to_string(limits::kStateCards) + " cards");
  int64_t cells = 0;
  for (const auto& [key, grid] : grids) {
    cells += grid.window_cells();
    const auto colon = key.rfind(':');
    if (colon != std::string::npos && colon + 1 < key.size() &&
        key.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
      const std::string digits = key.substr(colon + 1);
      int64_t seat = 0;
      std::string ignored;
      if (!ParseInt(digits, 1, n, "", &seat, &ignored))
        return fail("at /grids: grid '" + key + "' is for seat " + digits + ", not one of 1.." + std::to_string(n));
    }
  }
  if (cells > limits::kStateGridCells) return fail("the grids store more than " + std::to_string(limits::kStateGridCells) + " cells");
  for (const auto& [key, c] : counters)
    if (c.min > c.max || c.value < c.min || c.value > c.max) return fail("at /counters/" + key + ": needs min <= value <= max");
  // What scripts may make, a save may hold (host/limits.h): the same names, counts and owners.
  auto named = [&](const char* part, const std::string& key) {
    return key.empty() || key.size() > limits::kNameBytes
               ? std::string("at /") + part + "/" + key.substr(0, 80) + ": a name of 1 to " + std::to_string(limits::kNameBytes) + " bytes"
               : std::string();
  };
  for (const auto& [key, c] : counters)
    if (auto why = named("counters", key); !why.empty()) return fail(why);
  for (const auto& [key, t] : tracks)
    if (auto why = named("tracks", key); !why.empty()) return fail(why);
  if (static_cast<int64_t>(tile_maps.size()) > limits::kMaps) return fail("at /tile_maps: more than " + std::to_string(limits::kMaps) + " tile maps");
  if (static_cast<int64_t>(region_maps.size()) > limits::kMaps) return fail("at /region_maps: more than " + std::to_string(limits::kMaps) + " region maps");
  for (const auto& [key, m] : tile_maps) {
    if (auto why = named("tile_maps", key); !why.empty()) return fail(why);
    for (int s = 0; s < m.graph().segment_count(); ++s)
      if (m.FeatureOf(s) == s)
        for (const auto& [owner, k] : m.graph().Occupants(s))
          if (owner < 0 || owner >= n)
            return fail("at /tile_maps/" + key + "/occupants: pieces of seat " + std::to_string(owner + 1) + ", not one of 1.." + std::to_string(n));
  }
  for (const auto& [key, m] : region_maps) {
    if (auto why = named("region_maps", key); !why.empty()) return fail(why);
    for (int r = 0; r < m.set().size(); ++r)
      for (int owner : m.Marks(r))
        if (owner < 0 || owner >= n)
          return fail("at /region_maps/" + key + "/marks/" + m.set().regions[static_cast<size_t>(r)].id + ": a piece of seat " +
                      std::to_string(owner + 1) + ", not one of 1.." + std::to_string(n));
  }
  for (const auto& [key, g] : features) {
    const auto d = g.Export();
    for (const auto& occ : d.occupants)
      for (const auto& [owner, k] : occ)
        if (owner < 0 || owner >= n)
          return fail("at /features/" + key + "/occupants: pieces of seat " + std::to_string(owner + 1) + ", not one of 1.." + std::to_string(n));
  }
  for (const auto& [key, t] : tracks)
    if (t.position < 0 || t.position >= t.length) return fail("at /tracks/" + key + "/position: outside the track");
  std::vector<bool> seen(static_cast<size_t>(n), false);
  for (int seat : flow.to_move) {
    if (seat < 0 || seat >= n) return fail("at /flow/to_move: seat " + std::to_string(seat + 1) + " is not one of 1.." + std::to_string(n));
    if (seen[static_cast<size_t>(seat)]) return fail("at /flow/to_move: seat " + std::to_string(seat + 1) + " is listed twice");
    seen[static_cast<size_t>(seat)] = true;
  }
  if (!flow.committed.empty() && flow.committed.size() != seats.size())
    return fail("at /flow/committed: " + std::to_string(flow.committed.size()) + " entries for " + std::to_string(n) + " seats");
  if (flow.pending.size() != flow.committed.size())
    return fail("at /flow/pending: " + std::to_string(flow.pending.size()) + " entries, flow.committed has " +
                std::to_string(flow.committed.size()));
  if (!flow.asks.empty() && flow.asks.size() != seats.size())
    return fail("at /flow/asks: " + std::to_string(flow.asks.size()) + " entries for " + std::to_string(n) + " seats");
  for (size_t li = 0; li < log.size(); ++li)
    if (log[li].seat < -1 || log[li].seat >= n)
      return fail("at /log/" + std::to_string(li) + "/seat: seat " + std::to_string(log[li].seat + 1) + " is not a seat");
  return true;
}

namespace {

// Writes the bytes DumpJson(ToJson() without "log") would give, straight into the hash: no JSON
// tree is built. Hashing a state ran on every move of the conformance checks, every step of a
// golden playthrough and every event of watch and the studio; building and freeing the tree was
// half of a Fauna conformance run. Keys come in the order nlohmann's std::map gives them
// (sorted), and every string and every JSON subtree (params, data, a move's own fields) goes
// through nlohmann's own serializer, so the text is the same byte for byte
// (tests/host/state_hash_test.cc holds the two to each other on every shipped game).
class HashOut : public nlohmann::detail::output_adapter_protocol<char> {
 public:
  explicit HashOut(TextHash* h) : h_(h) {}
  void write_character(char c) override { h_->Add(std::string_view(&c, 1)); }
  void write_characters(const char* s, std::size_t n) override { h_->Add(std::string_view(s, n)); }

 private:
  TextHash* h_;
};

class CanonicalWriter {
 public:
  CanonicalWriter() : out_(std::make_shared<HashOut>(&hash_)), json_(out_, ' ', Json::error_handler_t::replace) {}
  void Raw(std::string_view text) { hash_.Add(text); }
  void Key(std::string_view key, bool first = false) {
    if (!first) Raw(",");
    String(key);
    Raw(":");
  }
  void String(std::string_view s) {
    // Plain printable ASCII is written as it is; anything else the way nlohmann escapes it.
    for (char c : s)
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        Value(Json(std::string(s)));
        return;
      }
    Raw("\"");
    Raw(s);
    Raw("\"");
  }
  void Int(int64_t v) {
    char buf[24];
    const int n = std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    Raw(std::string_view(buf, static_cast<size_t>(n)));
  }
  void Uint(uint64_t v) {
    char buf[24];
    const int n = std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
    Raw(std::string_view(buf, static_cast<size_t>(n)));
  }
  void Bool(bool b) { Raw(b ? "true" : "false"); }
  void Value(const Json& j) { json_.dump(j, false, false, 0); }
  std::string Hex() const { return hash_.Hex(); }

 private:
  TextHash hash_;
  nlohmann::detail::output_adapter_t<char> out_;
  nlohmann::detail::serializer<Json> json_;
};

// A move as MoveToJson writes it: its own fields with type, card, cell and to set over them.
void WriteMove(CanonicalWriter& w, const Move& m, const CardSet& cards) {
  const Json& args = *m.args;
  if (args.is_object() && !args.empty()) {
    w.Value(MoveToJson(m, cards));  // rare in the flow (questions with fields): the general path
    return;
  }
  w.Raw("{");
  bool first = true;
  if (m.card != kNoCard) {
    w.Key("card", first);
    w.String(cards.Name(m.card));
    first = false;
  }
  if (m.has_cell) {
    w.Key("cell", first);
    w.Raw("[");
    w.Int(m.cell.row);
    w.Raw(",");
    w.Int(m.cell.col);
    w.Raw("]");
    first = false;
  }
  if (m.has_to) {
    w.Key("to", first);
    w.Raw("[");
    w.Int(m.to.row);
    w.Raw(",");
    w.Int(m.to.col);
    w.Raw("]");
    first = false;
  }
  w.Key("type", first);
  w.String(m.type);
  w.Raw("}");
}

template <typename T, typename F>
void WriteList(CanonicalWriter& w, const T& list, F&& each) {
  w.Raw("[");
  bool first = true;
  for (const auto& x : list) {
    if (!first) w.Raw(",");
    first = false;
    each(x);
  }
  w.Raw("]");
}

// An object of `map`'s entries in its (sorted) key order, each value written by `each`.
template <typename M, typename F>
void WriteObject(CanonicalWriter& w, const M& map, F&& each) {
  w.Raw("{");
  bool first = true;
  for (const auto& [key, value] : map) {
    w.Key(key, first);
    first = false;
    each(value);
  }
  w.Raw("}");
}

}  // namespace

std::string State::Hash() const {
  CanonicalWriter w;
  const CardSet& names = *cards;
  w.Raw("{");
  w.Key("counters", true);
  WriteObject(w, counters, [&](const auto& c) {
    w.Raw("{\"lost\":");
    w.Int(c.lost);
    w.Raw(",\"max\":");
    w.Int(c.max);
    w.Raw(",\"min\":");
    w.Int(c.min);
    w.Raw(",\"value\":");
    w.Int(c.value);
    w.Raw("}");
  });
  w.Key("data");
  w.Value(data);
  if (data_overrides.is_array() && !data_overrides.empty()) {
    w.Key("data_overrides");
    w.Value(data_overrides);
  }
  w.Key("features");
  WriteObject(w, features, [&](const auto& fg) {
    const auto d = fg.Export();
    auto ints = [&](const std::vector<int>& v) { WriteList(w, v, [&](int x) { w.Int(x); }); };
    w.Raw("{\"connections\":");
    WriteList(w, d.connections, [&](const std::pair<int, int>& c) {
      w.Raw("[");
      w.Int(c.first);
      w.Raw(",");
      w.Int(c.second);
      w.Raw("]");
    });
    w.Raw(",\"kind\":");
    WriteList(w, d.kind, [&](const std::string& k) { w.String(k); });
    w.Raw(",\"occupants\":");
    WriteList(w, d.occupants, [&](const std::map<int, int>& m) {
      // Keys are the owners as text, in text order ("10" before "2").
      std::map<std::string, int> byname;
      for (auto [owner, k] : m) byname[std::to_string(owner)] = k;
      WriteObject(w, byname, [&](int v) { w.Int(v); });
    });
    w.Raw(",\"open\":");
    ints(d.open);
    w.Raw(",\"parent\":");
    ints(d.parent);
    w.Raw(",\"rank\":");
    ints(d.rank);
    w.Raw(",\"tally\":");
    WriteList(w, d.tally, [&](const std::map<std::string, int>& m) { WriteObject(w, m, [&](int v) { w.Int(v); }); });
    w.Raw("}");
  });
  w.Key("flow");
  w.Raw("{\"asks\":");
  WriteList(w, flow.asks, [&](const std::vector<Move>& a) { WriteList(w, a, [&](const Move& m) { WriteMove(w, m, names); }); });
  w.Raw(",\"committed\":");
  WriteList(w, flow.committed, [&](int x) { w.Int(x); });
  w.Raw(",\"pending\":[");
  for (size_t i = 0; i < flow.pending.size(); ++i) {
    if (i) w.Raw(",");
    if (i < flow.committed.size() && flow.committed[i]) WriteMove(w, flow.pending[i], names);
    else w.Raw("null");
  }
  w.Raw("],\"phase\":");
  w.String(flow.phase);
  w.Raw(",\"round\":");
  w.Int(flow.round);
  w.Raw(",\"step\":");
  w.Int(flow.step);
  w.Raw(",\"terminal\":");
  w.Bool(flow.terminal);
  w.Raw(",\"to_move\":");
  WriteList(w, flow.to_move, [&](int x) { w.Int(x); });
  w.Raw(",\"turn\":");
  w.Int(flow.turn);
  w.Raw("}");
  w.Key("format");
  w.Int(1);
  w.Key("game");
  w.String(game_id);
  w.Key("grids");
  WriteList(w, grids, [&](const std::pair<std::string, Grid>& kg) {
    const Grid& g = kg.second;
    w.Raw("{\"cells\":[");
    std::vector<Coord> occ;
    g.OccupiedCells(&occ);
    for (size_t i = 0; i < occ.size(); ++i) {
      if (i) w.Raw(",");
      const Cell* cell = g.Get(occ[i].row, occ[i].col);
      w.Raw("[");
      w.Int(occ[i].row);
      w.Raw(",");
      w.Int(occ[i].col);
      w.Raw(",");
      w.String(names.Name(cell->item));
      if (cell->rotation || cell->face_down) {
        w.Raw(",");
        w.Int(cell->rotation);
        w.Raw(",");
        w.Bool(cell->face_down != 0);
      }
      w.Raw("]");
    }
    w.Raw("],\"key\":");
    w.String(kg.first);
    w.Raw(",\"max_cols\":");
    w.Int(g.rules().max_cols);
    w.Raw(",\"max_rows\":");
    w.Int(g.rules().max_rows);
    w.Raw(",\"must_touch\":");
    w.Bool(g.rules().must_touch);
    w.Raw("}");
  });
  w.Key("move_count");
  w.Int(move_count);
  w.Key("params");
  w.Value(params);
  w.Key("player_count");
  w.Int(player_count);
  if (!region_maps.empty()) {
    w.Key("region_maps");
    WriteObject(w, region_maps, [&](const auto& m) { w.Value(m.ToJson()); });
  }
  w.Key("rng");
  w.String(rng.ToString());
  w.Key("seats");
  WriteList(w, seats, [&](const Seat& seat) {
    w.Raw("{\"kind\":");
    w.String(seat.kind);
    w.Raw(",\"name\":");
    w.String(seat.name);
    w.Raw("}");
  });
  w.Key("seed");
  w.Uint(seed);
  if (!tile_maps.empty()) {
    w.Key("tile_maps");
    WriteObject(w, tile_maps, [&](const auto& m) { w.Value(m.ToJson()); });
  }
  w.Key("tracks");
  WriteObject(w, tracks, [&](const auto& t) {
    w.Raw("{\"circular\":");
    w.Bool(t.circular);
    w.Raw(",\"laps\":");
    w.Int(t.laps);
    w.Raw(",\"length\":");
    w.Int(t.length);
    w.Raw(",\"position\":");
    w.Int(t.position);
    w.Raw("}");
  });
  w.Key("zones");
  WriteList(w, zones, [&](const Zone& z) {
    w.Raw("{\"cards\":");
    WriteList(w, z.cards, [&](CardId c) { w.String(names.Name(c)); });
    w.Raw(",\"name\":");
    w.String(z.name);
    w.Raw(",\"owner\":");
    w.Int(z.owner);
    w.Raw(",\"visibility\":");
    w.String(VisibilityName(z.visibility));
    w.Raw("}");
  });
  w.Raw("}");
  return w.Hex();
}

std::string TextHash::Hex() const {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
  return buf;
}

}  // namespace plateau

// fuzz_maps: saves and positions of the games with tile maps and region maps (Safari, Fauna),
// generated from the input instead of parsed from it, so that nearly every input reaches the
// checks behind the JSON parse (issue 30, class 4): a real game in progress is played from a
// seed the input picks, saved (State::ToJson), then edited by a stream of structured changes
// the input spells out, one after another:
//   tile maps: pieces (any segment, owner, count), added tallies (any key, amount), closing
//     ends, tiles moved, removed, duplicated, re-rotated or renamed, whole maps copied or renamed;
//   region maps: marks added, removed or given any owner, regions renamed;
//   the flow and the seats: seats added or dropped, player count, to_move, committed, pending;
//   numbers: any integer of the edit replaced by one of the boundary values (0, -1, 2^31,
//     2^32, 2^53, 2^63, 1e308...).
// The edited save goes the way `play --load` takes it (FromJson, CheckSave with and without the
// rebuild, then a few random moves, Score, View, ToJson round trip); the same edits made to a
// position (`plateau score`'s tiles, pieces and marks) go through PositionState and Score.
// Checks (Finding() aborts): a save that loads saves again to the same hash and loads back; a
// state CheckSave accepts plays on without a crash; every refusal is a Status.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/bots.h"
#include "host/json_io.h"
#include "host/render.h"
#include "host/replay.h"
#include "host/schema.h"
#include "scripting/lua_rules.h"
#include "tests/fuzz/fuzz_util.h"

namespace plateau::fuzz {
namespace {

using scripting::LuaRules;

const std::vector<std::string> kGames = {"safari", "fauna"};

std::vector<std::unique_ptr<LuaRules>>& Rules() {
  static std::vector<std::unique_ptr<LuaRules>> rules = [] {
    std::vector<std::unique_ptr<LuaRules>> r;
    for (const auto& g : kGames) {
      std::unique_ptr<LuaRules> one;
      Status st = LuaRules::Load(g, GameLimits(), &one);
      if (!st.ok()) SetupFailed(g + " does not load: " + st.message);
      r.push_back(std::move(one));
    }
    return r;
  }();
  return rules;
}

// The input read as a stream of small decisions; past its end every read is 0.
class Bytes {
 public:
  Bytes(const uint8_t* d, size_t n) : d_(d), n_(n) {}
  uint8_t Next() { return at_ < n_ ? d_[at_++] : 0; }
  uint32_t Below(uint32_t n) { return n == 0 ? 0 : (static_cast<uint32_t>(Next()) << 8 | Next()) % n; }
  bool done() const { return at_ >= n_; }

 private:
  const uint8_t* d_;
  size_t n_, at_ = 0;
};

Json Boundary(Bytes& b) {
  static const Json kValues[] = {0, -1, 1, 2, 63, 64, 100, 101, 1000000, 1000001, 2147483647LL, 2147483648LL,
                                 4294967296LL, 9007199254740993LL, INT64_MAX, INT64_MIN, 18446744073709551615ULL,
                                 1e308, -1e308, 0.5, "end:x", "", nullptr, Json::array(), Json::object()};
  return kValues[b.Below(sizeof kValues / sizeof kValues[0])];
}

// A random element of a JSON array (or null when empty).
Json* Pick(Json& list, Bytes& b) {
  if (!list.is_array() || list.empty()) return nullptr;
  return &list[b.Below(static_cast<uint32_t>(list.size()))];
}

void EditTileMap(Json& map, Bytes& b, int seats) {
  if (!map.is_object()) return;
  Json& tiles = map["tiles"];
  Json& occ = map["occupants"];
  Json& tally = map["tally"];
  switch (b.Below(9)) {
    case 0:  // pieces: a segment, an owner, a count, each possibly out of range
      if (!occ.is_array()) occ = Json::array();
      for (int k = 0, n = 1 + b.Below(b.Next() > 250 ? 3000 : 4); k < n; ++k)
        occ.push_back({b.Below(200) - 10, static_cast<int>(b.Below(seats + 3)) - 1,
                       b.Next() > 200 ? Boundary(b) : Json(1 + b.Below(1000000))});
      break;
    case 1:  // tallies
      if (!tally.is_array()) tally = Json::array();
      for (int k = 0, n = 1 + b.Below(b.Next() > 250 ? 3000 : 4); k < n; ++k)
        tally.push_back({b.Below(200), b.Next() > 128 ? Json("zebra") : Json(std::string(b.Below(70), 'k')),
                         b.Next() > 200 ? Boundary(b) : Json(static_cast<int>(b.Below(2000001)) - 1000000)});
      break;
    case 2:  // closing ends
      map["closing_ends"] = b.Next() > 128 ? Json::array({"dead_end"}) : Json::array({"bush", "dead_end", std::string(b.Below(80), 'e')});
      break;
    case 3:  // a tile moved, removed or duplicated
      if (Json* t = Pick(tiles, b); t && t->is_array() && t->size() == 4) {
        if (b.Next() > 128) (*t)[b.Below(2)] = static_cast<int>(b.Below(9)) - 4;
        else tiles.push_back(*t);
      } else if (tiles.is_array() && !tiles.empty()) {
        tiles.erase(tiles.begin() + b.Below(static_cast<uint32_t>(tiles.size())));
      }
      break;
    case 4:  // re-rotated, renamed
      if (Json* t = Pick(tiles, b); t && t->is_array() && t->size() == 4) {
        if (b.Next() > 128) (*t)[3] = b.Next() > 200 ? Boundary(b) : Json(90 * b.Below(5));
        else (*t)[2] = b.Next() > 128 ? Json("unknown") : (*Pick(tiles, b))[2];
      }
      break;
    case 5:  // tiles in another order (a later tile first: it no longer touches anything)
      if (tiles.is_array() && tiles.size() > 2) std::swap(tiles[1], tiles[tiles.size() - 1]);
      break;
    case 6:  // any number of the map replaced by a boundary value
      if (Json* o = Pick(occ, b); o && o->is_array() && !o->empty()) (*o)[b.Below(static_cast<uint32_t>(o->size()))] = Boundary(b);
      break;
    case 7:
      if (Json* t = Pick(tally, b); t && t->is_array() && !t->empty()) (*t)[b.Below(static_cast<uint32_t>(t->size()))] = Boundary(b);
      break;
    default:
      map.erase(b.Next() > 128 ? "occupants" : "closing_ends");
  }
}

void EditRegionMap(Json& map, Bytes& b, int seats, const RegionSet* regions) {
  if (!map.is_object() || !map["marks"].is_object()) return;
  Json& marks = map["marks"];
  const std::string region = regions && regions->size() > 0
                                 ? regions->regions[b.Below(static_cast<uint32_t>(regions->size()))].id
                                 : std::string("alaska");
  switch (b.Below(5)) {
    case 0:
      if (!marks[region].is_array()) marks[region] = Json::array();
      for (int k = 0, n = 1 + b.Below(b.Next() > 240 ? 150 : 3); k < n; ++k)
        marks[region].push_back(static_cast<int>(b.Below(seats + 3)) - 1);
      break;
    case 1:
      marks.erase(region);
      break;
    case 2:
      marks[b.Next() > 128 ? "atlantis" : region] = Json::array({Boundary(b)});
      break;
    case 3:
      marks[region] = Boundary(b);
      break;
    default:
      map = Boundary(b);
  }
}

void EditFlowAndSeats(Json& s, Bytes& b) {
  Json& flow = s["flow"];
  switch (b.Below(7)) {
    case 0:
      if (s["seats"].is_array()) s["seats"].push_back({{"name", "X"}, {"kind", b.Next() > 128 ? "player" : "neutral"}});
      break;
    case 1:
      if (s["seats"].is_array() && !s["seats"].empty()) s["seats"].erase(s["seats"].end() - 1);
      break;
    case 2:
      s["player_count"] = b.Next() > 128 ? Boundary(b) : Json(1 + b.Below(5));
      break;
    case 3:
      flow["to_move"] = Json::array({static_cast<int>(b.Below(8)) - 1});
      break;
    case 4:
      flow["committed"] = Json::array();
      for (int k = 0, n = b.Below(5); k < n; ++k) flow["committed"].push_back(b.Below(2));
      break;
    case 5:
      flow["pending"] = Json::array({nullptr});
      break;
    default:
      flow[b.Next() > 128 ? "round" : "turn"] = Boundary(b);
  }
}

void PlayOn(LuaRules& rules, const State& state) {
  State played = state;
  std::string error;
  std::unique_ptr<Bot> bot = MakeBot("random", 5, &error);
  for (int i = 0; i < 4; ++i) {
    std::vector<int> seats;
    if (!rules.ToMove(played, &seats).ok() || seats.empty()) break;
    Move m;
    if (!bot->ChooseIn(rules, &played, seats.front(), &m).ok()) break;
    if (!rules.Apply(&played, seats.front(), m).ok()) break;
  }
  ScoreTable scores;
  if (rules.Score(played, &scores).ok()) (void)RenderScores(scores);
  (void)rules.View(played, -1);
}

void Run(const uint8_t* data, size_t size) {
  if (size < 2) return;
  Bytes b(data, size);
  auto& all = Rules();
  LuaRules& rules = *all[b.Next() % all.size()];
  const int players = std::max(rules.info().min_players, std::min(2 + static_cast<int>(b.Below(3)), rules.info().max_players));
  Json params;
  if (!ResolveParams(rules.info(), Json::object(), &params).ok()) return;
  State state;
  if (!rules.NewGame(params, players, 1 + b.Below(1000), &state).ok()) return;
  std::string error;
  std::unique_ptr<Bot> bot = MakeBot("random", 7, &error);
  for (int i = 0, n = b.Below(12); i < n; ++i) {
    std::vector<int> seats;
    if (!rules.ToMove(state, &seats).ok() || seats.empty()) break;
    Move m;
    if (!bot->ChooseIn(rules, &state, seats.front(), &m).ok() || !rules.Apply(&state, seats.front(), m).ok()) break;
  }
  Json save = state.ToJson();
  const bool as_position = b.Next() > 200;
  for (int k = 0, edits = 1 + b.Below(6); k < edits && !b.done(); ++k) {
    switch (b.Below(4)) {
      case 0:
      case 1:
        if (save.contains("tile_maps") && save["tile_maps"].is_object() && !save["tile_maps"].empty()) {
          auto it = save["tile_maps"].begin();
          if (b.Next() > 240) save["tile_maps"][b.Next() > 128 ? std::string(70, 'm') : "second"] = *it;
          else EditTileMap(*it, b, players);
        } else if (save.contains("region_maps") && save["region_maps"].is_object() && !save["region_maps"].empty()) {
          EditRegionMap(save["region_maps"].begin().value(), b, players, rules.files().regions.get());
        }
        break;
      case 2:
        EditFlowAndSeats(save, b);
        break;
      default:
        if (save.contains("region_maps") && save["region_maps"].is_object() && !save["region_maps"].empty())
          EditRegionMap(save["region_maps"].begin().value(), b, players, rules.files().regions.get());
    }
  }
  if (as_position) {
    // The same edits, made into a position file for `plateau score`.
    Json pos = {{"players", Json::array()}};
    for (int i = 0; i < players; ++i) pos["players"].push_back({{"name", "P" + std::to_string(i + 1)}});
    if (save.contains("tile_maps") && save["tile_maps"].is_object() && !save["tile_maps"].empty()) {
      const Json& m = save["tile_maps"].begin().value();
      if (m.is_object() && m.contains("tiles")) pos["tiles"] = m["tiles"];
    }
    if (save.contains("region_maps") && save["region_maps"].is_object() && !save["region_maps"].empty()) {
      const Json& m = save["region_maps"].begin().value();
      if (m.is_object() && m.contains("marks") && m["marks"].is_object()) {
        Json marks = Json::object();
        for (auto it = m["marks"].begin(); it != m["marks"].end(); ++it)
          if (it->is_array())
            for (const auto& o : *it)
              if (o.is_number_integer() && o.get<int64_t>() >= 0 && o.get<int64_t>() < 16) marks[it.key()].push_back(o.get<int64_t>() + 1);
        pos["regions"] = {{"marks", marks}};
      }
    }
    std::vector<std::string> errors;
    if (!Schemas(&error).Validate("position", pos, "position.json", &errors)) return;
    State scored;
    if (!rules.PositionState(pos, "position.json", Json::object(), &scored).ok()) return;
    ScoreTable scores;
    if (rules.Score(scored, &scores).ok()) (void)RenderScores(scores);
    return;
  }
  // The save, the way play --load takes it.
  const std::string text = DumpJson(save);
  Json j;
  if (!ParseJsonLimited(text, "save.json", &j, &error)) return;
  State loaded;
  if (!State::FromJson(j, rules.files().cards, &loaded, &error, rules.files().tiles, rules.files().regions)) return;
  {
    const Json again = loaded.ToJson();
    State back;
    if (!State::FromJson(again, rules.files().cards, &back, &error, rules.files().tiles, rules.files().regions))
      Finding("a loaded save does not load again after ToJson: " + error);
    if (back.Hash() != loaded.Hash()) Finding("a loaded save saved and loaded again changed its hash");
  }
  if (!CheckSave(rules, loaded, /*rebuild=*/false).ok()) return;
  PlayOn(rules, loaded);
  if (CheckSave(rules, loaded, /*rebuild=*/true).ok()) PlayOn(rules, loaded);
}

}  // namespace
}  // namespace plateau::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  plateau::fuzz::Run(data, size);
  return 0;
}

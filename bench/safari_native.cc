// Native Safari greedy baseline for plateau-bench (see safari_native.h). The rules are those of
// games/safari under its default parameters (safari/tiles.lua, actions.lua, holes.lua,
// vehicles.lua, scoring.lua), the numbers read from its data files, the geometry done by the
// host's own TileMap as the Lua game has it done. The players weigh moves as the scripted greedy
// bot does with safari/bots.lua: the same evaluate measure, the same moves valued without a
// trial (placements from the map's placement changes, actions relative to passing) and the same
// ones left to a trial, so the two do the same kind of work per decision and the ratio measures
// the scripting, not a cleverer player.
#include "bench/safari_native.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "host/limits.h"
#include "host/loader.h"
#include "host/rng.h"
#include "host/tile_map.h"

namespace plateau::bench {
namespace {

constexpr int kMaxSeats = 5;
constexpr int kMaxSpecies = 8;
// The vertex a corner of cell (r, c) lies on (as the top-left corner of cell r + dr, c + dc) and
// which quarter of that vertex's circle the cell is (1 NW of it, 2 NE, 3 SE, 4 SW), corners in
// the host's order NE, SE, SW, NW: safari/data.lua's CORNER_VERTEX, which names holes and
// decides which markers of a hole touch.
constexpr int kCornerVertex[4][3] = {{0, 1, 4}, {1, 1, 1}, {1, 0, 2}, {0, 0, 3}};

struct Data {
  bool ok = false;
  std::shared_ptr<const TileSet> set;
  std::vector<char> baobab;  // per tile of the set
  std::vector<int> bag;      // the land tiles of the default reading, each as often as its count
  struct Start {
    int tile, row, col, rotation;
  };
  std::vector<Start> start;
  std::array<Coord, 2> vehicles{};
  // By id, as the Lua's `distinct` orders a hand: the order moves are listed in, which the
  // random tie-breaks see.
  std::vector<std::string> species;
  int savanna = -1, trail = -1;
  int markers_per_species = 0, markers_at_setup = 0, meeples = 0, points_per_bird = 0, boosts_per_scoring = 0;
  int capture_points = 0, baobab_on_meeple = 0, baobab_on_completion = 0, baobab_neighbours = 8;
  int hole_start = 0, hole_complete = 0, final_per_animal = 0, final_per_marker = 0;
  std::vector<int> diversity, hole_extend;
};

bool InVariant(const Json& entry, const std::string& variant) {
  if (!entry.contains("variants")) return true;
  for (const Json& v : entry["variants"])
    if (v.get<std::string>() == variant) return true;
  return false;
}

// A number of the game's data, range-checked (limits::JsonInt: no narrowing of input).
int Int(const Json& j, const char* what) { return static_cast<int>(limits::JsonInt(j, -1'000'000, 1'000'000, what)); }

std::vector<int> Ints(const Json& j, const char* what) {
  std::vector<int> out;
  for (const Json& x : j) out.push_back(Int(x, what));
  return out;
}

Data LoadDataOrThrow();

Data LoadData() {
  try {
    return LoadDataOrThrow();
  } catch (const std::exception&) {
    return Data{};  // d.ok false: the bench prints 0 rather than crash on a broken data file
  }
}

Data LoadDataOrThrow() {
  Data d;
  GameFiles files;
  if (!LoadGameFiles("safari", &files).ok() || !files.tiles || !files.data.count("tiles") || !files.data.count("safari"))
    return d;
  d.set = files.tiles;
  const TileSet& set = *d.set;
  const Json& tiles = files.data.at("tiles");
  const Json& S = files.data.at("safari");
  // The default parameters (game.json): the transcription's tiles, a dead end closes a trail,
  // majority scoring, baobab markers usable at once, vehicles to any frontier space, a tile may
  // stop a hole, a trail curve's corner is free, birds count in the final scoring.
  const std::string variant = "transcription";
  d.baobab.assign(set.tiles.size(), 0);
  for (const Json& t : tiles.at("tiles")) {
    const int index = set.Find(t.at("id").get<std::string>());
    if (index < 0) return d;
    if (t.contains("properties") && t["properties"].value("baobab", false)) d.baobab[static_cast<size_t>(index)] = 1;
    if (!InVariant(t, variant)) continue;
    for (int k = 0, n = static_cast<int>(limits::JsonIntField(t, "count", 0, 0, 1000, "count")); k < n; ++k) d.bag.push_back(index);
  }
  for (const Json& s : tiles.at("start")) {
    if (!InVariant(s, variant)) continue;
    const int index = set.Find(s.at("tile").get<std::string>());
    if (index < 0) return d;
    d.start.push_back({index, Int(s.at("cell")[0], "cell"), Int(s.at("cell")[1], "cell"),
                       static_cast<int>(limits::JsonIntField(s, "rotation", 0, 0, 270, "rotation")) / 90});
  }
  const Json& vehicles = tiles.at("vehicles");
  for (size_t i = 0; i < 2 && i < vehicles.size(); ++i) d.vehicles[i] = {Int(vehicles[i][0], "vehicle"), Int(vehicles[i][1], "vehicle")};
  for (const Json& sp : S.at("species")) d.species.push_back(sp.at("id").get<std::string>());
  if (d.species.empty() || d.species.size() > kMaxSpecies) return d;
  std::sort(d.species.begin(), d.species.end());
  d.savanna = set.FindKind("savanna");
  d.trail = set.FindKind("trail");
  d.markers_per_species = Int(S.at("markers_per_species"), "markers_per_species");
  d.markers_at_setup = Int(S.at("markers_at_setup"), "markers_at_setup");
  d.meeples = Int(S.at("meeples"), "meeples");
  d.diversity = Ints(S.at("diversity_points"), "diversity_points");
  d.points_per_bird = Int(S.at("points_per_bird"), "points_per_bird");
  d.boosts_per_scoring = Int(S.at("boosts_per_scoring"), "boosts_per_scoring");
  d.capture_points = Int(S.at("vehicle_capture_points"), "vehicle_capture_points");
  d.baobab_on_meeple = Int(S.at("baobab_markers_on_meeple"), "baobab_markers_on_meeple");
  d.baobab_on_completion = Int(S.at("baobab_markers_on_completion"), "baobab_markers_on_completion");
  d.baobab_neighbours = Int(S.at("baobab_neighbours"), "baobab_neighbours");
  d.hole_start = Int(S.at("hole_start_points"), "hole_start_points");
  d.hole_extend = Ints(S.at("hole_extend_points"), "hole_extend_points");
  d.hole_complete = Int(S.at("hole_complete_points"), "hole_complete_points");
  d.final_per_animal = Int(S.at("final_points_per_animal"), "final_points_per_animal");
  d.final_per_marker = Int(S.at("final_points_per_marker"), "final_points_per_marker");
  d.ok = d.savanna >= 0 && d.trail >= 0 && !d.diversity.empty() && d.hole_extend.size() >= 3 && !d.bag.empty();
  return d;
}

// Loaded once per process, like the Lua's data derived once per VM.
const Data& SafariData() {
  static const Data d = LoadData();
  return d;
}

enum MoveType : int8_t { kPlace, kRelocate, kMeeple, kBaobab, kHole, kExtend, kVehicle, kPass, kBoost };
enum Step : int8_t { kPlaceStep, kRelocateStep, kActionStep };

struct Move {
  MoveType type = kPass;
  int8_t index = 0;     // the rotation (place), the vehicle (relocate, vehicle), the segment (meeple)
  int8_t corner = 0;    // hole, extend: NE, SE, SW, NW
  int8_t species = -1;  // hole, extend, boost (-1: the boost declined)
  int row = 0, col = 0;
};

struct Points {
  int trails = 0, bushes = 0, holes = 0, vehicles = 0;
  int Sum() const { return trails + bushes + holes + vehicles; }
};
struct Baobab {
  int row, col, seat;
};
struct HoleMarker {
  int8_t q, species, seat;
  bool meeple;
};
struct Hole {
  int vr = 0, vc = 0, n = 0;
  bool complete = false;
  std::array<HoleMarker, 4> markers{};
};
struct Ask {
  int feature, seat;
};
struct Boost {
  int feature, seat, species;
};

// A feature's part of the end-of-game estimate (scoring.lua's feature_entry).
struct Entry {
  int points = 0;
  bool bush = false;
  int who_n = 0;
  std::array<int, kMaxSeats> who{};
};

// Everything but the map: what a trial copies and puts back (the map's changes go in its journal).
struct Table {
  std::vector<int> bag;  // drawn from the end
  int aside = 0;
  std::vector<int8_t> supply, spent;
  std::array<std::vector<int8_t>, kMaxSeats> hand;
  std::array<int, kMaxSeats> meeples{};
  std::array<Points, kMaxSeats> points{};
  std::array<Coord, 2> vehicles{};
  std::vector<Baobab> baobabs;
  std::vector<Hole> holes;
  int turn = 0, tile = -1, captured = -1;
  Step step = kPlaceStep;
  bool asking = false, over = false;
  Coord placed;
  std::vector<int> completed;
  std::vector<Ask> queue;
  std::vector<Boost> boosts;
};

class Game {
 public:
  Game(const Data& d, uint64_t seed, int players)
      : d_(d), n_(players), map_(d.set, {"bush", "dead_end"}, {"bush"}), rng_(seed) {
    for (const Data::Start& s : d.start) map_.Place(s.tile, s.row, s.col, s.rotation, nullptr, nullptr);
    t_.bag = d.bag;
    Shuffle(&t_.bag);
    for (size_t sp = 0; sp < d.species.size(); ++sp)
      for (int k = 0; k < d.markers_per_species; ++k) t_.supply.push_back(static_cast<int8_t>(sp));
    Shuffle(&t_.supply);
    t_.vehicles = d.vehicles;
    for (int s = 0; s < n_; ++s) {
      t_.meeples[static_cast<size_t>(s)] = d.meeples;
      DrawMarkers(s, d.markers_at_setup);
    }
    DrawTile();
  }

  bool Over() const { return t_.over; }
  int ToMove() const { return t_.asking ? t_.queue.front().seat : t_.turn; }

  // The greedy choice (host/bots.cc's OnePlyBot over safari/bots.lua's evaluate_moves): the
  // values the game gives without a trial, a trial for every other move, the best kept and ties
  // broken by reservoir sampling on the bot's own RNG.
  void Decide(Rng* bot, Move* out) {
    const int seat = ToMove();
    LegalMoves(seat, &moves_);
    if (moves_.size() == 1) {
      *out = moves_[0];
      return;
    }
    values_.assign(moves_.size(), std::numeric_limits<double>::quiet_NaN());
    if (!t_.asking) {
      if (t_.step == kPlaceStep) {
        PlacementValues(seat);
      } else if (t_.step == kRelocateStep) {
        // The captured vehicle's new space changes nothing evaluate reads: every one is worth
        // the first one's trial.
        const double v = Trial(moves_[0], seat);
        std::fill(values_.begin(), values_.end(), v);
      } else {
        ActionValues(seat);
      }
    }
    double best = -1e300;
    int ties = 0;
    size_t pick = 0;
    for (size_t i = 0; i < moves_.size(); ++i) {
      const double v = std::isnan(values_[i]) ? Trial(moves_[i], seat) : values_[i];
      if (v > best) {
        best = v;
        pick = i;
        ties = 1;
      } else if (v == best && bot->Below(static_cast<uint32_t>(++ties)) == 0) {
        pick = i;
      }
    }
    *out = moves_[pick];
  }

  void Apply(const Move& m, TileMap::Journal* j) {
    const int seat = ToMove();
    switch (m.type) {
      case kPlace: {
        map_.Place(t_.tile, m.row, m.col, m.index, &t_.completed, nullptr, j);
        t_.placed = {m.row, m.col};
        t_.tile = -1;
        const int v = VehicleAt(m.row, m.col);
        if (v >= 0) {
          t_.points[static_cast<size_t>(seat)].vehicles += d_.capture_points;
          t_.captured = v;
          t_.step = kRelocateStep;
        } else {
          t_.step = kActionStep;
        }
        return;
      }
      case kRelocate:
        t_.vehicles[static_cast<size_t>(m.index)] = {m.row, m.col};
        t_.step = kActionStep;
        return;
      case kMeeple:
        map_.Occupy(map_.Segment(t_.placed.row, t_.placed.col, m.index), seat, 1, j);
        --t_.meeples[static_cast<size_t>(seat)];
        break;
      case kBaobab:
        t_.baobabs.push_back({t_.placed.row, t_.placed.col, seat});
        --t_.meeples[static_cast<size_t>(seat)];
        DrawMarkers(seat, d_.baobab_on_meeple);
        break;
      case kHole:
      case kExtend:
        AddHoleMarker(seat, m, m.type == kHole);
        break;
      case kVehicle:
        t_.vehicles[static_cast<size_t>(m.index)] = {m.row, m.col};
        break;
      case kPass:
        break;
      case kBoost:
        if (m.species >= 0) {
          TakeMarker(seat, m.species);
          t_.spent.push_back(m.species);
          t_.boosts.push_back({t_.queue.front().feature, seat, m.species});
        }
        t_.queue.erase(t_.queue.begin());
        if (!AskNextBoost()) Award(j);
        return;
    }
    FinishTurn(j);
  }

  // The final score (scoring.lua's score): points during the game, unfinished trails and bushes
  // to their controllers, markers left. The sum of the totals.
  int64_t FinalTotal() const {
    std::array<int, kMaxSeats> ft{}, fb{};
    FeatureParts(&ft, &fb, nullptr);
    int64_t sum = 0;
    for (int s = 0; s < n_; ++s) {
      const size_t k = static_cast<size_t>(s);
      sum += t_.points[k].Sum() + ft[k] + fb[k] + static_cast<int64_t>(t_.hand[k].size()) * d_.final_per_marker;
    }
    return sum;
  }

 private:
  template <typename T>
  void Shuffle(std::vector<T>* v) {
    for (size_t i = v->size(); i > 1; --i) std::swap((*v)[i - 1], (*v)[rng_.Below(static_cast<uint32_t>(i))]);
  }

  int VehicleAt(int row, int col) const {
    for (int i = 0; i < 2; ++i)
      if (t_.vehicles[static_cast<size_t>(i)] == Coord{row, col}) return i;
    return -1;
  }

  Hole* FindHole(int vr, int vc) {
    for (Hole& h : t_.holes)
      if (h.vr == vr && h.vc == vc) return &h;
    return nullptr;
  }

  int Triangle(int species) const {
    if (species <= 0) return 0;
    return d_.diversity[static_cast<size_t>(std::min(species, static_cast<int>(d_.diversity.size())) - 1)];
  }

  static int TallyOf(const TileMap::FeatureInfo& f, const std::string& key) {
    const auto it = f.tally.find(key);
    return it == f.tally.end() ? 0 : it->second;
  }

  int SpeciesOn(const TileMap::FeatureInfo& f) const {
    int n = 0;
    for (const std::string& sp : d_.species) n += TallyOf(f, sp) > 0;
    return n;
  }

  // What one feature would score at the end: a complete one as at the end of a turn (no boost),
  // an unfinished one 1 per animal, birds included.
  int FeaturePoints(const TileMap::FeatureInfo& f) const {
    const bool bush = f.kind == "bush";
    if (f.complete) return Triangle(SpeciesOn(f)) + (bush ? TallyOf(f, "bird") * d_.points_per_bird : 0);
    int animals = TallyOf(f, "bird");
    for (const std::string& sp : d_.species) animals += TallyOf(f, sp);
    return animals * d_.final_per_animal;
  }

  // The seats with the most pieces on a feature, every tied seat (zone_scoring = majority).
  static int Majority(const std::map<int, int>& occupants, std::array<int, kMaxSeats>* who) {
    int best = 0, n = 0;
    for (const auto& [owner, k] : occupants) best = std::max(best, k);
    if (best > 0)
      for (const auto& [owner, k] : occupants)
        if (k == best && n < kMaxSeats) (*who)[static_cast<size_t>(n++)] = owner;
    return n;
  }

  Entry EntryOf(const TileMap::FeatureInfo& f) const {
    Entry e;
    e.bush = f.kind == "bush";
    e.points = FeaturePoints(f);
    e.who_n = Majority(f.occupants, &e.who);
    return e;
  }

  static bool Held(const std::map<int, int>& occupants) {
    for (const auto& [owner, k] : occupants)
      if (k > 0) return true;
    return false;
  }

  // Trails and bushes by seat as the end of the game would score them now, over the features
  // holding a piece; with `entries`, each one's entry by its id.
  void FeatureParts(std::array<int, kMaxSeats>* ft, std::array<int, kMaxSeats>* fb,
                    std::vector<std::pair<int, Entry>>* entries) const {
    ft->fill(0);
    fb->fill(0);
    for (int fid : map_.Features(-1, true)) {
      const Entry e = EntryOf(map_.Feature(fid, false));
      if (entries) entries->emplace_back(fid, e);
      std::array<int, kMaxSeats>& into = e.bush ? *fb : *ft;
      for (int k = 0; k < e.who_n; ++k) into[static_cast<size_t>(e.who[static_cast<size_t>(k)])] += e.points;
    }
  }

  // safari/bots.lua's value_of: the seat's points so far, features' and markers' parts and half
  // a point per meeple in hand, against the best other seat's.
  double ValueOf(int seat, const std::array<int, kMaxSeats>& meeples, const std::array<int, kMaxSeats>& ft,
                 const std::array<int, kMaxSeats>& fb) const {
    auto value = [&](int s) {
      const size_t k = static_cast<size_t>(s);
      return t_.points[k].Sum() + ft[k] + fb[k] + static_cast<double>(t_.hand[k].size()) * d_.final_per_marker +
             0.5 * meeples[k];
    };
    double best = -std::numeric_limits<double>::infinity();
    for (int s = 0; s < n_; ++s)
      if (s != seat) best = std::max(best, value(s));
    return value(seat) - best;
  }

  double Evaluate(int seat) const {
    std::array<int, kMaxSeats> ft{}, fb{};
    FeatureParts(&ft, &fb, nullptr);
    return ValueOf(seat, t_.meeples, ft, fb);
  }

  // A move applied, judged and taken back: the map by its journal, the rest by a copy.
  double Trial(const Move& m, int seat) {
    scratch_ = t_;
    const Rng rng = rng_;
    Apply(m, &journal_);
    const double v = Evaluate(seat);
    map_.Undo(&journal_);
    std::swap(t_, scratch_);
    rng_ = rng;
    return v;
  }

  // ---- moves ---------------------------------------------------------------------------------

  // Species of the seat's markers a feature lacks (scoring.lua's boost_choices), by id.
  int BoostChoices(int seat, const TileMap::FeatureInfo& f, std::array<int8_t, kMaxSpecies>* out) const {
    std::array<bool, kMaxSpecies> have{};
    for (int8_t sp : t_.hand[static_cast<size_t>(seat)]) have[static_cast<size_t>(sp)] = true;
    int n = 0;
    for (size_t sp = 0; sp < d_.species.size(); ++sp)
      if (have[sp] && TallyOf(f, d_.species[sp]) == 0) (*out)[static_cast<size_t>(n++)] = static_cast<int8_t>(sp);
    return n;
  }

  // Empty spaces next to the map that hold no vehicle (vehicle_destination = frontier).
  void VehicleCells(std::vector<Coord>* out) const {
    out->clear();
    for (const Coord& c : map_.Frontier())
      if (VehicleAt(c.row, c.col) < 0) out->push_back(c);
  }

  // Start a hole on a free corner no marker of it takes yet (a meeple with it), or extend one
  // with a species it lacks on a corner next to one of its markers (holes.lua's hole_moves).
  void HoleMoves(int seat, std::vector<Move>* out) {
    std::array<bool, kMaxSpecies> have{};
    bool any = false;
    for (int8_t sp : t_.hand[static_cast<size_t>(seat)]) any = have[static_cast<size_t>(sp)] = true;
    if (!any) return;
    const bool has_meeple = t_.meeples[static_cast<size_t>(seat)] > 0;
    const int species = static_cast<int>(d_.species.size());
    for (const Coord& c : map_.order())
      for (int k = 0; k < 4; ++k) {
        const int kind = map_.CornerKind(c.row, c.col, k);
        if (kind != d_.savanna && kind != d_.trail) continue;
        const int q = kCornerVertex[k][2];
        const Hole* hole = FindHole(c.row + kCornerVertex[k][0], c.col + kCornerVertex[k][1]);
        bool taken = false, touching = false;
        unsigned present = 0;
        if (hole)
          for (int i = 0; i < hole->n; ++i) {
            const HoleMarker& m = hole->markers[static_cast<size_t>(i)];
            if (m.q == q) taken = true;
            if (m.q % 4 + 1 == q || q % 4 + 1 == m.q) touching = true;
            present |= 1u << m.species;
          }
        if (taken || !(touching || has_meeple)) continue;
        for (int sp = 0; sp < species; ++sp) {
          if (!have[static_cast<size_t>(sp)] || (touching && (present & (1u << sp)))) continue;
          Move m;
          m.type = touching ? kExtend : kHole;
          m.corner = static_cast<int8_t>(k);
          m.species = static_cast<int8_t>(sp);
          m.row = c.row;
          m.col = c.col;
          out->push_back(m);
        }
      }
  }

  void LegalMoves(int seat, std::vector<Move>* out) {
    out->clear();
    if (t_.asking) {
      const TileMap::FeatureInfo f = map_.Feature(t_.queue.front().feature, false);
      std::array<int8_t, kMaxSpecies> choices{};
      const int n = BoostChoices(seat, f, &choices);
      Move m;
      m.type = kBoost;
      out->push_back(m);
      for (int i = 0; i < n; ++i) {
        m.species = choices[static_cast<size_t>(i)];
        out->push_back(m);
      }
      return;
    }
    Move m;
    if (t_.step == kPlaceStep) {
      map_.Placements(t_.tile, &placements_);
      m.type = kPlace;
      for (const TilePlacement& p : placements_) {
        m.index = static_cast<int8_t>(p.rotation);
        m.row = p.cell.row;
        m.col = p.cell.col;
        out->push_back(m);
      }
      return;
    }
    VehicleCells(&cells_);
    if (t_.step == kRelocateStep) {
      m.type = kRelocate;
      m.index = static_cast<int8_t>(t_.captured);
      for (const Coord& c : cells_) {
        m.row = c.row;
        m.col = c.col;
        out->push_back(m);
      }
      return;
    }
    // The action: a meeple on each free feature of the tile and on its baobab, the watering
    // holes, the vehicles (not in a turn that captured one), no action.
    const int pr = t_.placed.row, pc = t_.placed.col;
    if (t_.meeples[static_cast<size_t>(seat)] > 0) {
      const int segments = map_.SegmentCount(pr, pc);
      m.type = kMeeple;
      for (int i = 0; i < segments; ++i)
        if (!Held(map_.graph().Occupants(map_.FeatureOf(map_.Segment(pr, pc, i))))) {
          m.index = static_cast<int8_t>(i);
          out->push_back(m);
        }
      if (d_.baobab[static_cast<size_t>(map_.At(pr, pc)->tile)]) {
        m = Move();
        m.type = kBaobab;
        out->push_back(m);
      }
    }
    HoleMoves(seat, out);
    if (t_.captured < 0) {
      m = Move();
      m.type = kVehicle;
      for (int v = 0; v < 2; ++v)
        for (const Coord& c : cells_) {
          m.index = static_cast<int8_t>(v);
          m.row = c.row;
          m.col = c.col;
          out->push_back(m);
        }
    }
    out->push_back(Move());  // pass
  }

  // ---- values without a trial (safari/bots.lua's evaluate_moves) -----------------------------

  // A placement changes nothing evaluate reads but the occupied features it joins, extends or
  // completes, which the map tells without placing: the base table's value less the entries it
  // takes in, plus those it makes. A capture is left to a trial.
  void PlacementValues(int seat) {
    std::array<int, kMaxSeats> ft{}, fb{}, t2{}, b2{};
    entries_.clear();
    FeatureParts(&ft, &fb, &entries_);
    for (size_t i = 0; i < moves_.size(); ++i) {
      const Move& m = moves_[i];
      if (VehicleAt(m.row, m.col) >= 0) continue;
      if (!map_.PlacementChanges(t_.tile, m.row, m.col, m.index, &changes_, nullptr, true)) continue;
      t2 = ft;
      b2 = fb;
      for (const TileMap::FeatureChange& ch : changes_) {
        for (int old : ch.joined)
          for (const auto& [fid, e] : entries_)
            if (fid == old) {
              std::array<int, kMaxSeats>& into = e.bush ? b2 : t2;
              for (int k = 0; k < e.who_n; ++k) into[static_cast<size_t>(e.who[static_cast<size_t>(k)])] -= e.points;
            }
        if (Held(ch.after.occupants)) {
          const Entry e = EntryOf(ch.after);
          std::array<int, kMaxSeats>& into = e.bush ? b2 : t2;
          for (int k = 0; k < e.who_n; ++k) into[static_cast<size_t>(e.who[static_cast<size_t>(k)])] += e.points;
        }
      }
      values_[i] = ValueOf(seat, t_.meeples, t2, b2);
    }
  }

  // Whether this turn's end asks a boost question after passing, and the one species whose
  // marker, spent by the actor's hole, would leave none to ask (-1 when there is no such one).
  bool BoostQuestion(int seat, int* spoils) {
    *spoils = -1;
    if (d_.boosts_per_scoring <= 0) return false;
    bool asked = false;
    int only = -1;
    std::array<int8_t, kMaxSpecies> choices{};
    std::array<int, kMaxSeats> who{};
    for (int fid : t_.completed) {
      const TileMap::FeatureInfo f = map_.Feature(fid, false);
      const int nw = Majority(f.occupants, &who);
      for (int w = 0; w < nw; ++w) {
        const int s = who[static_cast<size_t>(w)];
        const int nc = BoostChoices(s, f, &choices);
        for (int c = 0; c < nc; ++c) {
          const int sp = choices[static_cast<size_t>(c)];
          if (s != seat || (asked && only != sp)) return true;
          asked = true;
          only = sp;
        }
      }
    }
    if (!asked) return false;
    int usable = 0;
    for (int8_t sp : t_.hand[static_cast<size_t>(seat)]) usable += sp == only;
    if (usable <= 1) *spoils = only;
    return true;
  }

  // The action step relative to passing (one trial): a vehicle moved changes nothing, a hole
  // started or extended adds its points and spends a marker (and a meeple), a meeple on the
  // tile's free feature in a turn that completed nothing gives the actor that feature's
  // estimate. Everything is left to trials when the end of turn may draw markers (a baobab
  // surrounded) or end the game (no tile left that fits).
  void ActionValues(int seat) {
    for (const Baobab& b : t_.baobabs)
      if (map_.FilledAround(b.row, b.col) >= d_.baobab_neighbours) return;
    bool fits = false;
    for (size_t k = t_.bag.size(); k-- > 0;)
      if (map_.CanPlaceAnywhere(t_.bag[k])) {
        fits = true;
        break;
      }
    if (!fits) return;
    int spoils = -1;
    const bool asked = BoostQuestion(seat, &spoils);
    double shift = 0;
    if (asked && spoils >= 0) {
      // The hole leaves no question: the features are awarded at once and their meeples go
      // back, which is all it changes in the value.
      std::array<int, kMaxSeats> ft{}, fb{};
      FeatureParts(&ft, &fb, nullptr);
      std::array<int, kMaxSeats> back = t_.meeples;
      for (int fid : t_.completed)
        for (const auto& [owner, k] : map_.graph().Occupants(fid)) back[static_cast<size_t>(owner)] += k;
      shift = ValueOf(seat, back, ft, fb) - ValueOf(seat, t_.meeples, ft, fb);
    }
    const size_t base = moves_.size() - 1;
    const double from = Trial(moves_[base], seat);
    const bool quiet = t_.completed.empty();
    const int marker = d_.final_per_marker;
    for (size_t i = 0; i < base; ++i) {
      const Move& m = moves_[i];
      switch (m.type) {
        case kVehicle:
          values_[i] = from;
          break;
        case kMeeple:
          if (quiet)
            values_[i] = from + FeaturePoints(map_.Feature(map_.Segment(t_.placed.row, t_.placed.col, m.index), false)) - 0.5;
          break;
        case kHole:
        case kExtend: {
          const Hole* h = FindHole(m.row + kCornerVertex[m.corner][0], m.col + kCornerVertex[m.corner][1]);
          const int n = (h ? h->n : 0) + 1;
          if (n >= 4) break;
          double v = m.type == kHole ? d_.hole_start - marker - 0.5
                                     : d_.hole_extend[static_cast<size_t>(std::min(std::max(n - 1, 1), 3) - 1)] - marker;
          if (asked && spoils == m.species) v += shift;
          values_[i] = from + v;
          break;
        }
        default:
          break;
      }
    }
    values_[base] = from;
  }

  // ---- the rules -----------------------------------------------------------------------------

  // Draws markers from the face-down supply, the spent ones reshuffled into it when it runs out.
  void DrawMarkers(int seat, int n) {
    for (int k = 0; k < n; ++k) {
      if (t_.supply.empty() && !t_.spent.empty()) {
        std::swap(t_.supply, t_.spent);
        t_.spent.clear();
        Shuffle(&t_.supply);
      }
      if (t_.supply.empty()) return;
      t_.hand[static_cast<size_t>(seat)].push_back(t_.supply.back());
      t_.supply.pop_back();
    }
  }

  void TakeMarker(int seat, int species) {
    std::vector<int8_t>& hand = t_.hand[static_cast<size_t>(seat)];
    for (size_t i = hand.size(); i-- > 0;)
      if (hand[i] == species) {
        hand.erase(hand.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
  }

  void AddHoleMarker(int seat, const Move& m, bool with_meeple) {
    const int vr = m.row + kCornerVertex[m.corner][0], vc = m.col + kCornerVertex[m.corner][1];
    TakeMarker(seat, m.species);
    Hole* hole = FindHole(vr, vc);
    if (!hole) {
      t_.holes.emplace_back();
      hole = &t_.holes.back();
      hole->vr = vr;
      hole->vc = vc;
    }
    hole->markers[static_cast<size_t>(hole->n++)] = {static_cast<int8_t>(kCornerVertex[m.corner][2]), m.species,
                                                     static_cast<int8_t>(seat), with_meeple};
    const int n = hole->n;
    Points& p = t_.points[static_cast<size_t>(seat)];
    if (with_meeple) {
      --t_.meeples[static_cast<size_t>(seat)];
      p.holes += d_.hole_start;
    } else {
      p.holes += d_.hole_extend[static_cast<size_t>(std::min(std::max(n - 1, 1), 3) - 1)];
    }
    if (n < 4) return;
    // Complete: each meeple owner scores once and takes every meeple of theirs back.
    hole->complete = true;
    std::array<int, kMaxSeats> owners{};
    for (const HoleMarker& hm : hole->markers)
      if (hm.meeple) ++owners[static_cast<size_t>(hm.seat)];
    for (int s = 0; s < n_; ++s)
      if (owners[static_cast<size_t>(s)] > 0) {
        t_.points[static_cast<size_t>(s)].holes += d_.hole_complete;
        t_.meeples[static_cast<size_t>(s)] += owners[static_cast<size_t>(s)];
      }
  }

  // Baobabs now surrounded give their meeple back with markers; then each controller of a
  // completed feature is asked for a boost, and the features are awarded once all have answered.
  void FinishTurn(TileMap::Journal* j) {
    for (size_t i = 0; i < t_.baobabs.size();) {
      const Baobab b = t_.baobabs[i];
      if (map_.FilledAround(b.row, b.col) >= d_.baobab_neighbours) {
        ++t_.meeples[static_cast<size_t>(b.seat)];
        DrawMarkers(b.seat, d_.baobab_on_completion);
        t_.baobabs.erase(t_.baobabs.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
    t_.queue.clear();
    if (d_.boosts_per_scoring > 0) {
      std::array<int, kMaxSeats> who{};
      for (int fid : t_.completed) {
        const int nw = Majority(map_.graph().Occupants(fid), &who);
        for (int w = 0; w < nw; ++w) t_.queue.push_back({fid, who[static_cast<size_t>(w)]});
      }
    }
    if (!AskNextBoost()) Award(j);
  }

  bool AskNextBoost() {
    std::array<int8_t, kMaxSpecies> choices{};
    while (!t_.queue.empty()) {
      const Ask q = t_.queue.front();
      if (BoostChoices(q.seat, map_.Feature(q.feature, false), &choices) > 0) {
        t_.asking = true;
        return true;
      }
      t_.queue.erase(t_.queue.begin());
    }
    t_.asking = false;
    return false;
  }

  // The completed trails and bushes scored for their controllers (species diversity, a boost's
  // extra species, birds in a bush), their meeples back; then the next player draws.
  void Award(TileMap::Journal* j) {
    std::array<int, kMaxSeats> who{};
    for (int fid : t_.completed) {
      const TileMap::FeatureInfo f = map_.Feature(fid, false);
      const bool bush = f.kind == "bush";
      const int species = SpeciesOn(f), birds = bush ? TallyOf(f, "bird") : 0;
      const int nw = Majority(f.occupants, &who);
      for (int w = 0; w < nw; ++w) {
        const int seat = who[static_cast<size_t>(w)];
        int extra = 0;
        for (const Boost& b : t_.boosts)
          if (b.feature == fid && b.seat == seat && b.species >= 0) extra = 1;
        const int pts = Triangle(species + extra) + birds * d_.points_per_bird;
        Points& p = t_.points[static_cast<size_t>(seat)];
        (bush ? p.bushes : p.trails) += pts;
      }
      for (const auto& [owner, k] : map_.Vacate(fid, j)) t_.meeples[static_cast<size_t>(owner)] += k;
    }
    t_.turn = (t_.turn + 1) % n_;
    t_.step = kPlaceStep;
    t_.captured = -1;
    t_.completed.clear();
    t_.boosts.clear();
    DrawTile();
  }

  // The next tile, any that fits nowhere set aside; the game ends when none is left.
  void DrawTile() {
    while (!t_.bag.empty()) {
      const int tile = t_.bag.back();
      t_.bag.pop_back();
      if (map_.CanPlaceAnywhere(tile)) {
        t_.tile = tile;
        return;
      }
      ++t_.aside;
    }
    t_.tile = -1;
    t_.over = true;
  }

  const Data& d_;
  int n_;
  TileMap map_;
  Rng rng_;
  Table t_, scratch_;
  TileMap::Journal journal_;
  std::vector<Move> moves_;
  std::vector<double> values_;
  std::vector<TilePlacement> placements_;
  std::vector<Coord> cells_;
  std::vector<TileMap::FeatureChange> changes_;
  std::vector<std::pair<int, Entry>> entries_;
};

}  // namespace

int64_t NativeSafariGreedyGame(uint64_t seed, int players) {
  const Data& d = SafariData();
  if (!d.ok) return 0;
  players = std::max(2, std::min(kMaxSeats, players));
  Game game(d, seed, players);
  std::array<Rng, kMaxSeats> bots;
  for (int s = 0; s < players; ++s) bots[static_cast<size_t>(s)].Seed(seed * 31 + static_cast<uint64_t>(s));
  Move m;
  for (int moves = 0; moves < 100000 && !game.Over(); ++moves) {
    game.Decide(&bots[static_cast<size_t>(game.ToMove())], &m);
    game.Apply(m, nullptr);
  }
  return game.FinalTotal();
}

}  // namespace plateau::bench

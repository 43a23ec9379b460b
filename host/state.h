// The game state the host owns: seats, RNG, zones, grids, counters, tracks, feature
// graphs, free-form game data, the flow (phase, round, who must move, hidden commitments)
// and the move log. It serializes to canonical JSON and back exactly; the state hash is a
// hash of that JSON, so save/load, replay and hot reload can prove nothing was lost.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "host/cards.h"
#include "host/counter.h"
#include "host/dice.h"
#include "host/feature_graph.h"
#include "host/grid.h"
#include "host/region_map.h"
#include "host/rng.h"
#include "host/tile_map.h"
#include "host/zone.h"

namespace plateau {

using Json = nlohmann::json;

// 64-bit FNV-1a over text, shown as 16 hex digits: state hashes and rules fingerprints, the
// same on every run and machine.
class TextHash {
 public:
  void Add(std::string_view text) {
    for (unsigned char c : text) {
      h_ ^= c;
      h_ *= 1099511628211ULL;
    }
  }
  std::string Hex() const;

 private:
  uint64_t h_ = 1469598103934665603ULL;
};

// An immutable JSON value shared by its copies. A move's own fields are set once, when a
// script lists the move, and then copied many times (legal move lists, questions, bots'
// lists, the undo journal): sharing makes each copy a reference count, not a deep copy.
class SharedJson {
 public:
  SharedJson() = default;
  SharedJson(std::nullptr_t) {}  // NOLINT: a move with no fields of its own
  SharedJson(Json j) : p_(j.is_null() ? nullptr : std::make_shared<const Json>(std::move(j))) {}  // NOLINT
  const Json& operator*() const { return p_ ? *p_ : Null(); }
  const Json* operator->() const { return &**this; }
  bool is_null() const { return p_ == nullptr; }
  bool operator==(const SharedJson& o) const { return p_ == o.p_ || **this == *o; }
  bool operator==(const Json& o) const { return **this == o; }

 private:
  static const Json& Null() {
    static const Json null;
    return null;
  }
  std::shared_ptr<const Json> p_;
};

// A move: a type plus the fields most moves use (a card, one or two cells), and any other
// fields a script defines in `args`. Compact so the playout loop never builds JSON.
struct Move {
  std::string type;
  CardId card = kNoCard;
  bool has_cell = false, has_to = false;
  Coord cell{}, to{};
  SharedJson args;  // object or null

  bool operator==(const Move& o) const {
    // The integers first: a bot's candidate is checked against every listed move.
    return card == o.card && has_cell == o.has_cell && has_to == o.has_to && (!has_cell || cell == o.cell) &&
           (!has_to || to == o.to) && type == o.type && args == o.args;
  }
};

struct Seat {
  std::string name;
  std::string kind = "player";  // "player", or a pseudo-seat such as "neutral" or "opponent"
  bool operator==(const Seat&) const = default;
};

struct LogEntry {
  int seat = -1;        // -1: the host (chance events, reloads)
  std::string kind;     // "move", "roll", "shuffle", "reveal", "reload", ...
  Json detail;
  bool operator==(const LogEntry&) const = default;
};

struct Flow {
  std::string phase;
  int round = 0;
  int step = 0;
  int turn = 0;
  std::vector<int> to_move;       // seats that must move now (several: simultaneous)
  std::vector<int> committed;     // per seat: 1 once its hidden choice is in
  std::vector<Move> pending;      // per seat: the hidden choice, revealed when all are in
  // Per seat: a question the rules asked (its answers are the legal moves). While any seat
  // has one, those seats are the ones to move and the host answers who/what without a script.
  std::vector<std::vector<Move>> asks;
  bool terminal = false;
  bool HasAsks() const {
    for (const auto& a : asks)
      if (!a.empty()) return true;
    return false;
  }
  bool operator==(const Flow&) const = default;
};

// Identity of a state's contents for caches of pure rule queries (legal moves, who moves).
// Every copy or assignment gets a fresh uid; the rules bump `generation` on every change.
// Code that edits a state directly (tests, tools) must call State::Touch() afterwards.
struct StateIdentity {
  uint64_t uid = Next();
  uint64_t generation = 0;
  StateIdentity() = default;
  StateIdentity(const StateIdentity&) : uid(Next()) {}
  StateIdentity& operator=(const StateIdentity&) {
    uid = Next();
    generation = 0;
    return *this;
  }
  static uint64_t Next();
};

class State {
 public:
  State() = default;
  State(const State&) = default;
  State& operator=(const State&) = default;

  StateIdentity identity;
  // Generations are drawn from one global sequence, never reused, so a state restored to an
  // earlier content may take back that content's generation (StateUndo does) and its cached
  // answers stay valid, while no other content can ever carry the same (uid, generation).
  void Touch() {
    identity.generation = StateIdentity::Next();
    data_version = NewContentVersion();
  }
  // For a change the host makes itself and knows leaves `data` alone (a draft pick tried in
  // place moves a card from a hand to a grid): the data's version, and what scripts cached
  // under it, stay good.
  void TouchOutsideData() { identity.generation = StateIdentity::Next(); }

  std::string game_id;
  uint64_t seed = 0;
  Rng rng;
  Dice dice;  // forced results are test input, not state
  std::shared_ptr<const CardSet> cards;
  std::vector<Seat> seats;  // players first, pseudo-seats after
  int player_count = 0;
  Json params = Json::object();
  // The data overrides (--set <data>.<path>=value) the game was made with, as
  // [{"path": ..., "value": ...}]; null when none. Saved, so a saved game, its replay and a
  // hot reload load the rules with the same numbers.
  Json data_overrides;

  std::vector<Zone> zones;
  std::vector<std::pair<std::string, Grid>> grids;  // key "name" or "name:<seat>"
  std::map<std::string, Counter> counters;
  std::map<std::string, Track> tracks;
  std::map<std::string, FeatureGraph> features;
  // Tile maps by name, and the game's tile set they place from (the "tiles" data file).
  std::shared_ptr<const TileSet> tiles;
  std::map<std::string, TileMap> tile_maps;
  // Region maps by name (pieces on regions), and the game's regions they mark.
  std::shared_ptr<const RegionSet> regions;
  std::map<std::string, RegionMap> region_maps;
  Json data = Json::object();
  // Changes whenever `data` may have changed (every Touch, a load, an undo takes back the
  // version it saved), never for two different contents: scripts key caches on it together
  // with the grids' versions (state:data_version(), grid:version()). Not saved, not compared.
  uint64_t data_version = NewContentVersion();
  Flow flow;
  int move_count = 0;
  std::vector<LogEntry> log;
  bool record = true;  // keep the move log (playouts that never replay turn it off); not saved

  // Derived lookup tables for the playout loop (zone and grid indices per seat); rebuilt
  // on demand, never serialized. Valid because components are only added at setup.
  struct Index {
    std::vector<int> hand, grid, pile;
    std::vector<int> rotation;  // zone indices of the hands that circulate, in table order
    int deck = -1, discard = -1;
    bool built = false;
  };
  // Inline: the draft loop asks for it several times per move.
  const Index& index() const {
    return index_.built && index_.hand.size() == seats.size() ? index_ : BuildIndex();
  }
  void InvalidateIndex() { index_.built = false; }

  // Component lookup. Keys are "name" for shared components, "name:<seat>" for owned ones.
  static std::string Key(const std::string& name, int seat) {
    return seat < 0 ? name : name + ":" + std::to_string(seat + 1);
  }
  Zone* FindZone(const std::string& name, int owner);
  const Zone* FindZone(const std::string& name, int owner) const;
  int ZoneIndex(const std::string& name, int owner) const;
  Zone* AddZone(const std::string& name, int owner, Visibility vis);
  Grid* FindGrid(const std::string& key);
  const Grid* FindGrid(const std::string& key) const;
  int GridIndex(const std::string& key) const;
  Grid* AddGrid(const std::string& key, GridRules rules);
  int SeatIndex(const std::string& name_or_kind) const;  // -1 when none

  const std::string& CardName(CardId id) const { return cards->Name(id); }
  void Log(int seat, std::string kind, Json detail) {
    log.push_back({seat, std::move(kind), std::move(detail)});
  }

  // Canonical JSON: everything above, including the log.
  Json ToJson() const;
  // Restores a state from ToJson() output. The card set must contain every card named.
  // `tiles` and `regions` are the game's tile set and regions, needed when the state holds tile
  // maps or region maps.
  static bool FromJson(const Json& j, std::shared_ptr<const CardSet> cards, State* out, std::string* error,
                       std::shared_ptr<const TileSet> tiles = nullptr, std::shared_ptr<const RegionSet> regions = nullptr);
  // Whether the parts agree with each other and with the host's limits (host/limits.h): seats
  // that exist, flow lists sized to the seats, counters within their bounds, tracks, zones and
  // grids within their limits. FromJson refuses a state that does not; false with the reason.
  bool CheckInvariants(std::string* error) const;
  // FNV-1a of the canonical JSON without the log; equal hashes mean equal tables.
  std::string Hash() const;

 private:
  mutable Index index_;
  const Index& BuildIndex() const;
};

// Undo journal for a state changed by a rule script: instead of copying the whole state
// before a move, each part is copied the first time the move writes it (zones, grids,
// counters, tracks, the flow, and state.data one top-level key at a time); the RNG, dice,
// move count and log length are kept at Begin. Restore puts back exactly what was there, so a
// failed move leaves the state (and its hash) as it was, at the cost of what it touched.
class StateUndo {
 public:
  enum Part : uint32_t { kZones = 1, kGrids = 2, kCounters = 4, kTracks = 8, kFeatures = 16, kFlow = 32, kTileMaps = 64, kRegionMaps = 128 };
  void Begin(const State& s);
  // Copies the parts not copied since Begin.
  void Save(const State& s, uint32_t parts) {
    if ((saved_ & parts) != parts) SaveSlow(s, parts);
  }
  // Before changing the tile map `name` in place (a placement, pieces, a tally): the journal
  // that change records into, so Restore takes back only what changed instead of a copy of
  // every map. Null when this span copied the maps whole (Save(kTileMaps): a map added), which
  // Restore puts back before taking back the journals' changes.
  TileMap::Journal* EditTileMap(const std::string& name);
  // Before writing state.data[key] or anything under it.
  void SaveDataKey(const State& s, std::string_view key);
  // Before overwriting the scalar at `slot`, a node under state.data[key] that stays where it
  // is (the write adds and removes nothing): keeps that one old value, not a copy of the key.
  // A later SaveDataKey or SaveAllData that covers the slot turns it into their copy, so the
  // pointer is never used after a change that could move its node.
  // Past kMaxSlots slots (a loop writing one number again and again), the key is saved whole
  // instead, so the journal stays small.
  void SaveDataSlot(const State& s, std::string_view key, Json* slot);
  // Turns every slot into a whole-key save. Before anything that may replace the nodes of
  // state.data while this journal is open (a nested trial on a copy, a move applied inside a
  // trial): the slots' pointers would not survive it. Nothing to do for another state.
  void FoldAllSlots(const State& s);
  static constexpr size_t kMaxSlots = 256;
  // Before replacing state.data as a whole.
  void SaveAllData(const State& s);
  // Clears the question put to `seat`, keeping it (moved, not copied) to put back.
  void ClearAsk(State* s, size_t seat);
  // Before changing the question put to `seat` (and nothing else of the flow; the list of
  // questions already has a place for every seat).
  void SaveAsk(const State& s, size_t seat) {
    if (!(saved_ & kFlow)) asks_.emplace_back(seat, s.flow.asks[seat]);
  }
  // Before changing the hidden choices (flow.pending, flow.committed) and nothing else of the
  // flow: the questions, often long lists, are left out.
  void SaveCommits(const State& s) {
    if ((saved_ & kFlow) || commits_saved_) return;
    pending_ = s.flow.pending;
    committed_ = s.flow.committed;
    commits_saved_ = true;
  }
  void Restore(State* s);
  bool active() const { return active_; }
  void End() {
    active_ = false;
    slots_.clear();  // their pointers are only good while the span lasts
    map_edits_.clear();
  }
  // Names one Begin..End span among all journals of the process, so a caller may remember
  // "already saved in this span" without holding on to the journal.
  uint64_t session() const { return session_; }

 private:
  void SaveSlow(const State& s, uint32_t parts);
  // Runs `copy` on the data as it was before the slots of `key` (all keys when null) were
  // written, then writes them again and forgets them.
  template <typename F>
  void FoldSlots(const std::string_view* key, F&& copy);
  bool active_ = false;
  const State* state_ = nullptr;  // the state of the span (its slots point into its data)
  uint64_t session_ = 0;
  uint32_t saved_ = 0;
  std::vector<Zone> zones_;
  std::vector<std::pair<std::string, Grid>> grids_;
  std::map<std::string, Counter> counters_;
  std::map<std::string, Track> tracks_;
  std::map<std::string, FeatureGraph> features_;
  std::map<std::string, TileMap> tile_maps_;
  std::vector<std::pair<std::string, TileMap::Journal>> map_edits_;  // by map, in first-change order
  std::map<std::string, RegionMap> region_maps_;
  Rng rng_;
  Dice dice_;
  bool has_dice_ = false;
  Flow flow_;
  std::vector<std::pair<size_t, std::vector<Move>>> asks_;  // questions cleared by ClearAsk
  bool commits_saved_ = false;
  std::vector<Move> pending_;
  std::vector<int> committed_;
  int move_count_ = 0;
  size_t log_size_ = 0;
  uint64_t generation_ = 0;
  uint64_t data_version_ = 0;
  bool all_data_ = false;
  Json data_;
  std::vector<std::pair<std::string, std::optional<Json>>> data_keys_;  // nullopt: was absent
  struct DataSlot {
    std::string key;
    Json* slot;
    Json old;
  };
  std::vector<DataSlot> slots_;  // in write order; their keys are not in data_keys_
};

// Whether `j` has the form of State::data_overrides, [{"path": "<data>.<path>", "value": ...}];
// if not, says why in *error.
bool CheckDataOverrides(const Json& j, std::string* error);

Json MoveToJson(const Move& m, const CardSet& cards);
bool MoveFromJson(const Json& j, const CardSet& cards, Move* out, std::string* error);
std::string MoveToString(const Move& m, const CardSet& cards);

}  // namespace plateau

// Tile maps: an unbounded square map of placed tiles (Carcassonne-style), with the tiles'
// features built incrementally on a FeatureGraph as tiles are placed.
//  - TileSet: the tiles a game's data declares: four typed edges, and inner segments (a trail,
//    a bush...) that cover the feature edges, with what lies on them (tally) and how a
//    segment's inner ends end (a dead end, a bush).
//  - TileMap: placed tiles with rotations, the open frontier, where a tile fits and in which
//    rotations, the 8 neighbours of a cell, and the features: kind, open edges, open ends,
//    completeness, tiles, tallies, occupants and majority.
// Nothing here knows a game: which inner ends close a feature, and which kinds of feature stay
// open while they enclose an empty space (a Carcassonne city or a Safari bush around a hole),
// are the map's settings, chosen by the rules when they create the map.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "host/feature_graph.h"
#include "host/grid.h"

namespace plateau {

struct TileSegmentDef {
  int kind = 0;            // index into TileSet::kinds
  uint8_t sides = 0;       // bit s set: touches side s (0 N, 1 E, 2 S, 3 W) before rotation
  std::vector<std::string> ends;             // how the segment's inner ends end
  std::map<std::string, int> tally;          // what lies on it (animals, birds)
  bool operator==(const TileSegmentDef&) const = default;
};

struct TileDef {
  std::string id;
  std::array<int, 4> edges{};             // kind on N, E, S, W before rotation
  std::vector<TileSegmentDef> segments;
  std::array<int, 4> side_segment{};      // segment covering each side before rotation, or -1
  std::array<int, 4> corner_kind{};       // kind shown at corners NE, SE, SW, NW before rotation
  std::vector<int> rotations;             // quarter turns that give distinct tiles (0 first)
};

class TileSet {
 public:
  std::vector<std::string> kinds;     // edge and segment kinds, in the data's order
  std::vector<bool> feature;          // per kind: whether segments of it form features
  std::vector<TileDef> tiles;

  int Find(const std::string& id) const;  // -1 when unknown
  int FindKind(const std::string& kind) const;
  // Builds a set from a tiles data document (schemas/tiles.schema.json) and checks what the
  // schema cannot: known kinds, segments covering exactly the feature edges, unique ids.
  // On failure *error reads "at /tiles/3/segments/0/sides: ...".
  static bool FromJson(const nlohmann::json& doc, TileSet* out, std::string* error);

 private:
  std::unordered_map<std::string, int> by_id_;
};

// Rotations are quarter turns clockwise (0..3); scripts and files speak degrees.
struct TilePlacement {
  Coord cell;
  int rotation = 0;
};

class TileMap {
 public:
  struct Placed {
    int tile = -1;
    int rotation = 0;
    int first_segment = 0;  // global id of the tile's segment 0 in the feature graph
  };
  struct FeatureInfo {
    int id = -1;  // the feature's root segment
    std::string kind;
    int open_edges = 0;
    std::map<std::string, int> ends;   // inner ends by how they end
    int open_ends = 0;                 // ends that do not close the feature
    int empty_inside = 0;              // empty cells the feature encloses (kinds in filled_inside)
    bool complete = false;
    std::map<std::string, int> tally;
    std::map<int, int> occupants;      // owner -> pieces
    std::vector<Coord> tiles;          // in placement order, each once
    std::vector<int> segments;
  };

  // What a run of changes did to the map, to take them back (Undo) at the cost of what they
  // changed rather than of a copy (a bot's trial placement, a move that fails): the counts of
  // what only grows, the frontier's changes, the enclosed cells and version as they were, and
  // the graph's own journal. Each change given a journal records into it.
  struct Journal {
    bool started = false;
    size_t placed = 0, added_tally = 0;
    uint64_t version = 0;
    std::map<uint64_t, std::vector<int>> enclosed;
    std::vector<std::pair<uint64_t, bool>> frontier;  // (cell, true: added / false: removed)
    FeatureGraph::Journal graph;
  };

  TileMap() = default;
  // `filled_inside` names the kinds whose features are complete only when no empty cell lies
  // inside them, whatever the edges facing that cell show; unknown names are ignored (the
  // callers check them: KindsError).
  TileMap(std::shared_ptr<const TileSet> set, std::vector<std::string> closing_ends,
          std::vector<std::string> filled_inside = {});

  const TileSet& set() const { return *set_; }
  const std::shared_ptr<const TileSet>& set_ptr() const { return set_; }
  const std::vector<std::string>& closing_ends() const { return closing_; }
  const std::vector<std::string>& filled_inside() const { return filled_inside_; }
  // Why a list of filled_inside kinds does not fit the set ("" when it does): each must be a
  // kind that forms features.
  static std::string KindsError(const TileSet& set, const std::vector<std::string>& kinds);
  int size() const { return static_cast<int>(placed_.size()); }
  const Placed* At(int row, int col) const;
  const std::vector<Coord>& order() const { return order_; }

  // Whether `tile` with `rotation` may go at (row, col): the cell is empty, touches a placed
  // tile orthogonally (unless the map is empty) and every shared edge shows the same kind.
  bool Fits(int tile, int row, int col, int rotation, std::string* why) const;
  // Every cell and distinct rotation where `tile` fits, cells in row-major order.
  void Placements(int tile, std::vector<TilePlacement>* out) const;
  bool CanPlaceAnywhere(int tile) const;
  // Empty cells orthogonally next to a placed tile, row-major.
  std::vector<Coord> Frontier() const;
  size_t FrontierSize() const { return frontier_.size(); }
  // The k-th cell (0-based) of Frontier()'s order, without the list; k < FrontierSize().
  Coord FrontierCell(size_t k) const;
  bool OnFrontier(int row, int col) const { return frontier_.count(Key(row, col)) != 0; }
  // Places a tile (Fits must hold, or *why says why not) and joins its segments to the
  // features across each shared edge. *completed gets the features this placement completed:
  // its own, and those of a filled_inside kind that enclosed the cell it fills.
  bool Place(int tile, int row, int col, int rotation, std::vector<int>* completed, std::string* why,
             Journal* journal = nullptr);
  // Placed tiles among the 8 cells around (row, col).
  int FilledAround(int row, int col) const;
  // The kind shown at a corner (0 NE, 1 SE, 2 SW, 3 NW) of the placed tile at (row, col).
  int CornerKind(int row, int col, int corner) const;
  // The tile's side (0..3, after rotation) a segment of a placed tile touches.
  uint8_t SegmentSides(int row, int col, int index) const;

  // Segments and features. A segment id is global; a tile's segments are `first_segment + i`.
  int Segment(int row, int col, int index) const;  // -1 when there is none
  int SegmentCount(int row, int col) const;
  int segment_count() const { return graph_.segment_count(); }
  int FeatureOf(int segment) const { return graph_.Find(segment); }
  // Without `whole`, the lists of where the feature lies (segments, tiles, ends) stay empty.
  FeatureInfo Feature(int segment, bool whole = true) const;
  bool Complete(int segment) const;
  // Empty cells the segment's feature encloses, when its kind is a filled_inside kind (else 0).
  int EmptyInside(int segment) const;
  // Roots of every feature (kind -1: all), ascending; with `occupied`, only those holding a piece.
  std::vector<int> Features(int kind, bool occupied = false) const;
  void Occupy(int segment, int owner, int pieces, Journal* journal = nullptr);
  // Takes every piece off the feature; returns them by owner.
  std::map<int, int> Vacate(int segment, Journal* journal = nullptr);
  void AddTally(int segment, const std::string& key, int amount, Journal* journal = nullptr);
  // What placing `tile` would make of the features it changes, without placing it (the map is
  // placed on and put back by a journal: versions and all unchanged): each feature after the
  // placement that holds one of the tile's segments or enclosed the cell the tile fills,
  // described as Feature(id, false) describes it (its id a root after the
  // placement), with the roots before the placement of the features it took in. False, with
  // *why, when the tile does not fit there.
  struct FeatureChange {
    FeatureInfo after;
    std::vector<int> joined;  // roots before the placement, ascending
  };
  // With `occupied_only`, only the features holding a piece after the placement: a placement
  // that meets no occupied feature is then answered without placing.
  bool PlacementChanges(int tile, int row, int col, int rotation, std::vector<FeatureChange>* out, std::string* why,
                        bool occupied_only = false);
  // Takes back every change recorded in `journal`: the map is then as at the journal's first
  // change, versions included, as if a copy made then had been put back. Empties the journal.
  void Undo(Journal* journal);
  size_t added_tallies() const { return added_tally_.size(); }
  const FeatureGraph& graph() const { return graph_; }

  // Exact form for saves: placements in order (the graph is rebuilt by placing them again),
  // occupants and extra tallies by feature root, and the closing ends.
  nlohmann::json ToJson() const;
  static bool FromJson(const nlohmann::json& j, std::shared_ptr<const TileSet> set, TileMap* out, std::string* error);
  bool operator==(const TileMap& o) const;
  // Changes with every change of the map (a placement, pieces, tallies) and of nothing else, as
  // Grid::version: a number no other content carried in this process, kept by a copy (so a
  // trial undone by copying the map back brings it back), so a script may keep what it worked
  // out from the map while the version is the same. Not part of the content: not saved, not
  // compared.
  uint64_t version() const { return version_; }
  // The same for one feature: changes whenever what Feature(segment) gives changes (the graph's
  // own version), and, for a feature enclosing empty cells, with every change of the map (a
  // tile filling one of them touches no segment of the feature).
  uint64_t FeatureVersion(int segment) const;

 private:
  static uint64_t Key(int row, int col) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(row)) << 32) | static_cast<uint32_t>(col);
  }
  int SideKind(const Placed& p, int side) const;
  int SideSegment(const Placed& p, int side) const;  // global segment id or -1
  void CountEnds(int root, std::map<std::string, int>* ends, int* open_ends) const;
  // After a placement closed a cycle in the feature of `root`: records the empty cells its
  // drawing now encloses (a flood over the grid points of the feature's bounding box).
  void RecordEnclosed(int root);
  void Start(Journal* journal) const;
  // A known tile that fits at (row, col) with *rotation (taken mod 4), or false and *why.
  bool CheckPlacement(int tile, int row, int col, int* rotation, std::string* why) const;

  std::shared_ptr<const TileSet> set_;
  std::vector<std::string> closing_;
  std::vector<std::string> filled_inside_;
  std::vector<bool> filled_kind_;             // per kind of the set: in filled_inside_
  std::unordered_map<uint64_t, int> cells_;   // cell -> index in placed_
  std::vector<Placed> placed_;
  std::vector<Coord> order_;
  std::set<uint64_t> frontier_;
  std::vector<int> segment_tile_;             // global segment -> index in placed_
  FeatureGraph graph_;
  // Tallies added by the rules after placement (not from tile data), for the save.
  std::vector<std::tuple<int, std::string, int>> added_tally_;
  uint64_t version_ = NewContentVersion();
  // Empty cells enclosed by features of a filled_inside kind: the cell, and one segment of each
  // feature that enclosed it when it was found (features merge later: compare their roots).
  // Rebuilt by placing the tiles again, so the save does not hold it. Empty in most games.
  std::map<uint64_t, std::vector<int>> enclosed_;
};

}  // namespace plateau

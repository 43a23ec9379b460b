// Tile sets from data, and tile maps whose features grow as tiles are placed (tile_map.h).
#include "host/tile_map.h"

#include "host/limits.h"

#include <algorithm>
#include <climits>
#include <tuple>

namespace plateau {

namespace {

// Whether a feature's occupants hold at least one piece.
bool HoldsPiece(const std::map<int, int>& occupants) {
  return std::any_of(occupants.begin(), occupants.end(), [](const auto& o) { return o.second > 0; });
}

constexpr int kDelta[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};
constexpr int kCornerDelta[4][2] = {{-1, 1}, {1, 1}, {1, -1}, {-1, -1}};  // NE, SE, SW, NW
const char* const kSideLetters = "NESW";

int Rotate(int side, int rotation) { return (side + rotation) & 3; }
int Unrotate(int side, int rotation) { return ((side - rotation) % 4 + 4) & 3; }

bool SortCoord(const Coord& a, const Coord& b) { return a.row != b.row ? a.row < b.row : a.col < b.col; }

// The tile after `rotation` quarter turns, as comparable data: edges, then each segment's
// rotated sides with its ends and tally, sorted.
using RotatedForm = std::pair<std::array<int, 4>, std::vector<std::tuple<int, int, std::vector<std::string>, std::map<std::string, int>>>>;
RotatedForm Rotated(const TileDef& t, int rotation) {
  RotatedForm f;
  for (int s = 0; s < 4; ++s) f.first[static_cast<size_t>(s)] = t.edges[static_cast<size_t>(Unrotate(s, rotation))];
  for (const auto& seg : t.segments) {
    int sides = 0;
    for (int s = 0; s < 4; ++s)
      if (seg.sides & (1 << s)) sides |= 1 << Rotate(s, rotation);
    f.second.emplace_back(seg.kind, sides, seg.ends, seg.tally);
  }
  std::sort(f.second.begin(), f.second.end());
  return f;
}

}  // namespace

int TileSet::Find(const std::string& id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? -1 : it->second;
}

int TileSet::FindKind(const std::string& kind) const {
  for (size_t i = 0; i < kinds.size(); ++i)
    if (kinds[i] == kind) return static_cast<int>(i);
  return -1;
}

bool TileSet::FromJson(const nlohmann::json& doc, TileSet* out, std::string* error) {
  TileSet set;
  auto fail = [&](const std::string& where, const std::string& why) {
    *error = "at " + where + ": " + why;
    return false;
  };
  if (!doc.is_object() || !doc.contains("edge_kinds") || !doc["edge_kinds"].is_object())
    return fail("/edge_kinds", "a tiles file needs an object of edge kinds");
  if (!doc.contains("tiles") || !doc["tiles"].is_array()) return fail("/tiles", "a tiles file needs a list of tiles");
  for (auto it = doc["edge_kinds"].begin(); it != doc["edge_kinds"].end(); ++it) {
    set.kinds.push_back(it.key());
    set.feature.push_back(it->is_object() && it->value("feature", false));
  }
  int field = -1;  // the first kind that forms no feature: what a corner shows by default
  for (size_t k = 0; k < set.kinds.size(); ++k)
    if (!set.feature[k]) {
      field = static_cast<int>(k);
      break;
    }
  const auto& tiles = doc["tiles"];
  for (size_t i = 0; i < tiles.size(); ++i) {
    const std::string at = "/tiles/" + std::to_string(i);
    const auto& tj = tiles[i];
    if (!tj.is_object() || !tj.contains("id") || !tj["id"].is_string()) return fail(at + "/id", "a tile needs a string id");
    TileDef t;
    t.id = tj["id"].get<std::string>();
    if (set.by_id_.count(t.id)) return fail(at + "/id", "duplicate tile id '" + t.id + "'");
    if (!tj.contains("edges") || !tj["edges"].is_array() || tj["edges"].size() != 4)
      return fail(at + "/edges", "a tile needs 4 edges (N, E, S, W)");
    for (int s = 0; s < 4; ++s) {
      const auto& e = tj["edges"][static_cast<size_t>(s)];
      const int k = e.is_string() ? set.FindKind(e.get<std::string>()) : -1;
      if (k < 0)
        return fail(at + "/edges/" + std::to_string(s),
                    "unknown edge kind " + e.dump() + " (edge_kinds declares " + [&] {
                      std::string names;
                      for (const auto& n : set.kinds) names += (names.empty() ? "" : ", ") + n;
                      return names;
                    }() + ")");
      t.edges[static_cast<size_t>(s)] = k;
    }
    t.side_segment.fill(-1);
    const nlohmann::json no_segments = nlohmann::json::array();
    const auto& segs = tj.contains("segments") ? tj["segments"] : no_segments;
    for (size_t g = 0; g < segs.size(); ++g) {
      const std::string sat = at + "/segments/" + std::to_string(g);
      const auto& sj = segs[g];
      TileSegmentDef seg;
      const int k = sj.contains("kind") && sj["kind"].is_string() ? set.FindKind(sj["kind"].get<std::string>()) : -1;
      if (k < 0) return fail(sat + "/kind", "unknown segment kind " + sj.value("kind", nlohmann::json()).dump());
      if (!set.feature[static_cast<size_t>(k)])
        return fail(sat + "/kind", "'" + set.kinds[static_cast<size_t>(k)] + "' forms no features (edge_kinds says feature: false)");
      seg.kind = k;
      if (sj.contains("sides"))
        for (size_t n = 0; n < sj["sides"].size(); ++n) {
          const auto& sd = sj["sides"][n];
          const char* p = sd.is_string() && sd.get<std::string>().size() == 1 ? std::strchr(kSideLetters, sd.get<std::string>()[0]) : nullptr;
          if (!p || !*p) return fail(sat + "/sides/" + std::to_string(n), "a side is one of N, E, S, W, not " + sd.dump());
          const int side = static_cast<int>(p - kSideLetters);
          if (seg.sides & (1 << side)) return fail(sat + "/sides/" + std::to_string(n), "side listed twice");
          if (t.edges[static_cast<size_t>(side)] != k)
            return fail(sat + "/sides/" + std::to_string(n), std::string("the segment is a ") + set.kinds[static_cast<size_t>(k)] +
                                                               " but the tile's " + kSideLetters[side] + " edge is " +
                                                               set.kinds[static_cast<size_t>(t.edges[static_cast<size_t>(side)])]);
          if (t.side_segment[static_cast<size_t>(side)] >= 0)
            return fail(sat + "/sides/" + std::to_string(n), std::string("side ") + kSideLetters[side] + " is already covered by segment " +
                                                               std::to_string(t.side_segment[static_cast<size_t>(side)]));
          seg.sides |= static_cast<uint8_t>(1 << side);
          t.side_segment[static_cast<size_t>(side)] = static_cast<int>(g);
        }
      if (sj.contains("ends"))
        for (const auto& e : sj["ends"]) seg.ends.push_back(e.get<std::string>());
      if (seg.sides == 0 && seg.ends.empty()) return fail(sat, "a segment touches no side and has no end");
      if (sj.contains("tally"))
        for (auto it = sj["tally"].begin(); it != sj["tally"].end(); ++it) {
          if (it.key().rfind("end:", 0) == 0) return fail(sat + "/tally/" + it.key(), "tally keys may not start with 'end:'");
          if (!it->is_number_integer() || it->get<int64_t>() < 0 || it->get<int64_t>() > limits::kTallyStep)
            return fail(sat + "/tally/" + it.key(), "a whole number from 0 to " + std::to_string(limits::kTallyStep));
          seg.tally[it.key()] = static_cast<int>(it->get<int64_t>());
        }
      t.segments.push_back(std::move(seg));
    }
    for (int s = 0; s < 4; ++s) {
      const int k = t.edges[static_cast<size_t>(s)];
      if (set.feature[static_cast<size_t>(k)] && t.side_segment[static_cast<size_t>(s)] < 0)
        return fail(at + "/segments", std::string("the ") + kSideLetters[s] + " edge is " + set.kinds[static_cast<size_t>(k)] +
                                          " but no segment covers it");
    }
    // A corner shows a segment that covers both sides around it (a bush across the corner),
    // otherwise the field.
    for (int c = 0; c < 4; ++c) {
      const int a = c, b = (c + 1) & 3;  // NE: N and E; SE: E and S; SW: S and W; NW: W and N
      const int sa = t.side_segment[static_cast<size_t>(a)], sb = t.side_segment[static_cast<size_t>(b)];
      t.corner_kind[static_cast<size_t>(c)] = sa >= 0 && sa == sb ? t.segments[static_cast<size_t>(sa)].kind : field;
    }
    if (tj.contains("corners")) {
      const auto& cj = tj["corners"];
      if (!cj.is_array() || cj.size() != 4) return fail(at + "/corners", "corners lists 4 kinds (NE, SE, SW, NW)");
      for (size_t c = 0; c < 4; ++c) {
        const int k = cj[c].is_string() ? set.FindKind(cj[c].get<std::string>()) : -1;
        if (k < 0) return fail(at + "/corners/" + std::to_string(c), "unknown kind " + cj[c].dump());
        t.corner_kind[c] = k;
      }
    }
    const RotatedForm base = Rotated(t, 0);
    std::vector<RotatedForm> seen{base};
    t.rotations.push_back(0);
    for (int r = 1; r < 4; ++r) {
      RotatedForm f = Rotated(t, r);
      if (std::find(seen.begin(), seen.end(), f) != seen.end()) continue;
      seen.push_back(std::move(f));
      t.rotations.push_back(r);
    }
    set.by_id_[t.id] = static_cast<int>(set.tiles.size());
    set.tiles.push_back(std::move(t));
  }
  *out = std::move(set);
  return true;
}

// ---------------------------------------------------------------------------------------

TileMap::TileMap(std::shared_ptr<const TileSet> set, std::vector<std::string> closing_ends,
                 std::vector<std::string> filled_inside)
    : set_(std::move(set)), closing_(std::move(closing_ends)), filled_inside_(std::move(filled_inside)) {
  std::sort(closing_.begin(), closing_.end());
  closing_.erase(std::unique(closing_.begin(), closing_.end()), closing_.end());
  std::sort(filled_inside_.begin(), filled_inside_.end());
  filled_inside_.erase(std::unique(filled_inside_.begin(), filled_inside_.end()), filled_inside_.end());
  if (set_) {
    filled_kind_.assign(set_->kinds.size(), false);
    for (const auto& name : filled_inside_) {
      const int k = set_->FindKind(name);
      if (k >= 0 && set_->feature[static_cast<size_t>(k)]) filled_kind_[static_cast<size_t>(k)] = true;
    }
  }
}

std::string TileMap::KindsError(const TileSet& set, const std::vector<std::string>& kinds) {
  for (const auto& name : kinds) {
    const int k = set.FindKind(name);
    if (k < 0) {
      std::string known;
      for (size_t i = 0; i < set.kinds.size(); ++i)
        if (set.feature[i]) known += (known.empty() ? "" : ", ") + set.kinds[i];
      return "unknown kind '" + name + "' (the kinds that form features: " + known + ")";
    }
    if (!set.feature[static_cast<size_t>(k)]) return "'" + name + "' forms no features";
  }
  return "";
}

const TileMap::Placed* TileMap::At(int row, int col) const {
  auto it = cells_.find(Key(row, col));
  return it == cells_.end() ? nullptr : &placed_[static_cast<size_t>(it->second)];
}

int TileMap::SideKind(const Placed& p, int side) const {
  return set_->tiles[static_cast<size_t>(p.tile)].edges[static_cast<size_t>(Unrotate(side, p.rotation))];
}

int TileMap::SideSegment(const Placed& p, int side) const {
  const int local = set_->tiles[static_cast<size_t>(p.tile)].side_segment[static_cast<size_t>(Unrotate(side, p.rotation))];
  return local < 0 ? -1 : p.first_segment + local;
}

bool TileMap::Fits(int tile, int row, int col, int rotation, std::string* why) const {
  static const char* kSideName[4] = {"north", "east", "south", "west"};
  if (At(row, col)) {
    if (why) *why = "cell [" + std::to_string(row) + ", " + std::to_string(col) + "] already holds a tile";
    return false;
  }
  if (!placed_.empty() && !OnFrontier(row, col)) {
    if (why) *why = "cell [" + std::to_string(row) + ", " + std::to_string(col) + "] touches no placed tile";
    return false;
  }
  const TileDef& me = set_->tiles[static_cast<size_t>(tile)];
  for (int side = 0; side < 4; ++side) {
    const Placed* n = At(row + kDelta[side][0], col + kDelta[side][1]);
    if (!n) continue;
    const int mine = me.edges[static_cast<size_t>(Unrotate(side, rotation))];
    const int theirs = SideKind(*n, (side + 2) & 3);
    if (mine != theirs) {
      if (why)
        *why = std::string("the ") + kSideName[side] + " edge is " + set_->kinds[static_cast<size_t>(mine)] +
               " but the neighbouring tile shows " + set_->kinds[static_cast<size_t>(theirs)];
      return false;
    }
  }
  return true;
}

std::vector<Coord> TileMap::Frontier() const {
  std::vector<Coord> out;
  out.reserve(frontier_.size());
  for (uint64_t k : frontier_) out.push_back({static_cast<int>(static_cast<uint32_t>(k >> 32)), static_cast<int>(static_cast<uint32_t>(k))});
  std::sort(out.begin(), out.end(), SortCoord);
  return out;
}

Coord TileMap::FrontierCell(size_t k) const {
  std::vector<Coord> cells = Frontier();
  return cells[k];
}

void TileMap::Placements(int tile, std::vector<TilePlacement>* out) const {
  out->clear();
  const TileDef& t = set_->tiles[static_cast<size_t>(tile)];
  if (placed_.empty()) {
    for (int r : t.rotations) out->push_back({{0, 0}, r});
    return;
  }
  for (const Coord& c : Frontier())
    for (int r : t.rotations)
      if (Fits(tile, c.row, c.col, r, nullptr)) out->push_back({c, r});
}

bool TileMap::CanPlaceAnywhere(int tile) const {
  if (placed_.empty()) return true;
  const TileDef& t = set_->tiles[static_cast<size_t>(tile)];
  for (uint64_t k : frontier_) {
    const int row = static_cast<int>(static_cast<uint32_t>(k >> 32)), col = static_cast<int>(static_cast<uint32_t>(k));
    for (int r : t.rotations)
      if (Fits(tile, row, col, r, nullptr)) return true;
  }
  return false;
}

bool TileMap::CheckPlacement(int tile, int row, int col, int* rotation, std::string* why) const {
  if (tile < 0 || tile >= static_cast<int>(set_->tiles.size())) {
    if (why) *why = "unknown tile";
    return false;
  }
  *rotation &= 3;
  return Fits(tile, row, col, *rotation, why);
}

void TileMap::Start(Journal* j) const {
  if (!j || j->started) return;
  j->started = true;
  j->placed = placed_.size();
  j->added_tally = added_tally_.size();
  j->version = version_;
  j->enclosed = enclosed_;  // empty but in games whose features must enclose no empty cell
  j->frontier.clear();
  j->graph = FeatureGraph::Journal();
}

void TileMap::Undo(Journal* j) {
  if (!j->started) return;
  graph_.Undo(&j->graph);
  for (auto it = j->frontier.rbegin(); it != j->frontier.rend(); ++it) {
    if (it->second) frontier_.erase(it->first);
    else frontier_.insert(it->first);
  }
  for (size_t i = j->placed; i < order_.size(); ++i) cells_.erase(Key(order_[i].row, order_[i].col));
  placed_.resize(j->placed);
  order_.resize(j->placed);
  segment_tile_.resize(static_cast<size_t>(graph_.segment_count()));
  added_tally_.resize(j->added_tally);
  enclosed_ = std::move(j->enclosed);
  version_ = j->version;
  *j = Journal();
}

bool TileMap::Place(int tile, int row, int col, int rotation, std::vector<int>* completed, std::string* why,
                    Journal* journal) {
  if (!CheckPlacement(tile, row, col, &rotation, why)) return false;
  const TileDef& t = set_->tiles[static_cast<size_t>(tile)];
  Start(journal);
  FeatureGraph::Journal* gj = journal ? &journal->graph : nullptr;
  Placed p{tile, rotation, graph_.segment_count()};
  for (size_t i = 0; i < t.segments.size(); ++i) {
    const TileSegmentDef& seg = t.segments[i];
    const int id = graph_.AddSegment(set_->kinds[static_cast<size_t>(seg.kind)], __builtin_popcount(seg.sides), gj);
    segment_tile_.push_back(static_cast<int>(placed_.size()));
    for (const auto& [key, n] : seg.tally) graph_.AddTally(id, key, n, gj);
    for (const auto& e : seg.ends) graph_.AddTally(id, "end:" + e, 1, gj);
  }
  const uint64_t key = Key(row, col);
  cells_[key] = static_cast<int>(placed_.size());
  placed_.push_back(p);
  order_.push_back({row, col});
  if (frontier_.erase(key) && journal) journal->frontier.emplace_back(key, false);
  // Segments whose joining closed a cycle in a feature that an empty cell inside keeps open.
  int cycles[4];
  int cycle_count = 0;
  for (int side = 0; side < 4; ++side) {
    const int nr = row + kDelta[side][0], nc = col + kDelta[side][1];
    const Placed* n = At(nr, nc);
    if (!n) {
      if (frontier_.insert(Key(nr, nc)).second && journal) journal->frontier.emplace_back(Key(nr, nc), true);
      continue;
    }
    const int mine = SideSegment(p, side);
    if (mine < 0) continue;
    const int theirs = SideSegment(*n, (side + 2) & 3);
    // Edges matched, so a feature edge faces a segment of the same kind.
    if (theirs < 0) continue;
    if (!filled_inside_.empty() && filled_kind_[static_cast<size_t>(t.edges[static_cast<size_t>(Unrotate(side, rotation))])] &&
        graph_.Find(mine) == graph_.Find(theirs))
      cycles[cycle_count++] = mine;
    graph_.Connect(mine, theirs, nullptr, gj);
  }
  // The cell was perhaps enclosed: those features may be complete now.
  std::vector<int> freed;
  if (!enclosed_.empty()) {
    auto it = enclosed_.find(key);
    if (it != enclosed_.end()) {
      freed = std::move(it->second);
      enclosed_.erase(it);
    }
  }
  for (int i = 0; i < cycle_count; ++i) RecordEnclosed(graph_.Find(cycles[i]));
  if (completed) {
    completed->clear();
    auto consider = [&](int segment) {
      const int root = graph_.Find(segment);
      if (std::find(completed->begin(), completed->end(), root) == completed->end() && Complete(root)) completed->push_back(root);
    };
    for (size_t i = 0; i < t.segments.size(); ++i) consider(p.first_segment + static_cast<int>(i));
    for (int s : freed) consider(s);
  }
  version_ = NewContentVersion();
  return true;
}

bool TileMap::PlacementChanges(int tile, int row, int col, int rotation, std::vector<FeatureChange>* out,
                               std::string* why, bool occupied_only) {
  out->clear();
  if (!CheckPlacement(tile, row, col, &rotation, why)) return false;
  const TileDef& t = set_->tiles[static_cast<size_t>(tile)];
  const Placed p{tile, rotation, graph_.segment_count()};
  // The features each of the tile's segments meets across its sides, as they are now.
  std::vector<std::vector<int>> meets(t.segments.size());
  for (int side = 0; side < 4; ++side) {
    const Placed* n = At(row + kDelta[side][0], col + kDelta[side][1]);
    if (!n) continue;
    const int mine = SideSegment(p, side), theirs = SideSegment(*n, (side + 2) & 3);
    if (mine >= 0 && theirs >= 0) meets[static_cast<size_t>(mine - p.first_segment)].push_back(graph_.Find(theirs));
  }
  // The features that enclose the cell: one empty cell fewer inside each, or complete.
  std::vector<std::pair<int, int>> around;  // (a segment, its root now)
  if (auto it = enclosed_.find(Key(row, col)); it != enclosed_.end())
    for (int s : it->second) around.emplace_back(s, graph_.Find(s));
  // A new tile brings no piece: a feature holds one after the placement only if a feature it
  // took in (or the one enclosing the cell) held one before.
  if (occupied_only) {
    bool any = false;
    for (const std::vector<int>& roots : meets)
      for (int r : roots) any = any || HoldsPiece(graph_.Occupants(r));
    for (const auto& a : around) any = any || HoldsPiece(graph_.Occupants(a.second));
    if (!any) return true;
  }
  Journal journal;
  if (!Place(tile, row, col, rotation, nullptr, why, &journal)) return false;
  auto change_of = [&](int root) -> FeatureChange& {
    for (FeatureChange& c : *out)
      if (c.after.id == root) return c;
    out->push_back({Feature(root, false), {}});
    return out->back();
  };
  for (size_t i = 0; i < t.segments.size(); ++i) {
    FeatureChange& c = change_of(graph_.Find(p.first_segment + static_cast<int>(i)));
    c.joined.insert(c.joined.end(), meets[i].begin(), meets[i].end());
  }
  // Every feature the placement completed is among these: the tile's own, or one whose last
  // empty cell it filled (Place completes no other).
  for (const auto& [segment, before] : around) change_of(graph_.Find(segment)).joined.push_back(before);
  for (FeatureChange& c : *out) {
    std::sort(c.joined.begin(), c.joined.end());
    c.joined.erase(std::unique(c.joined.begin(), c.joined.end()), c.joined.end());
  }
  if (occupied_only)
    out->erase(std::remove_if(out->begin(), out->end(), [](const FeatureChange& c) { return !HoldsPiece(c.after.occupants); }),
               out->end());
  Undo(&journal);
  return true;
}

// The drawing of a feature on the map: each of its segments that touches two or more sides is
// a star from a point inside the tile to the middle of those sides (a segment on one side only
// is a stub that encloses nothing), and stars of joined tiles meet at the middle of the shared
// edge. Whether that drawing encloses an empty cell is a question about the grid points (tile
// corners): the four tile corners around a grid point always see each other (the drawing
// crosses tile edges only at their middles), and within a tile two corners see each other
// unless a star runs between them. A flood over the grid points of the feature's bounding box
// (with a margin) from its outer corner reaches every corner of every cell outside the
// drawing; an empty cell whose corners it does not reach is enclosed.
void TileMap::RecordEnclosed(int root) {
  const FeatureGraph::Feature f = graph_.Describe(root);
  // The feature's stars, by cell: each a mask of the sides it touches (after rotation).
  std::map<uint64_t, std::vector<uint8_t>> stars;
  int r0 = INT32_MAX, r1 = INT32_MIN, c0 = INT32_MAX, c1 = INT32_MIN;
  for (int s : f.segments) {
    const int ti = segment_tile_[static_cast<size_t>(s)];
    const Coord& at = order_[static_cast<size_t>(ti)];
    r0 = std::min(r0, at.row), r1 = std::max(r1, at.row), c0 = std::min(c0, at.col), c1 = std::max(c1, at.col);
    const uint8_t sides = SegmentSides(at.row, at.col, s - placed_[static_cast<size_t>(ti)].first_segment);
    if (__builtin_popcount(sides) >= 2) stars[Key(at.row, at.col)].push_back(sides);
  }
  if (r1 - r0 < 2 || c1 - c0 < 2) return;  // a drawing that encloses a cell spans 3 cells each way
  // Grid points (r, c) for r in r0-1..r1+2, c in c0-1..c1+2: the top-left corners of the cells
  // of the box with a one-cell margin.
  const int rows = r1 - r0 + 4, cols = c1 - c0 + 4;
  std::vector<int> parent(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < parent.size(); ++i) parent[i] = static_cast<int>(i);
  auto find = [&](int x) {
    while (parent[static_cast<size_t>(x)] != x) {
      const int up = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
      parent[static_cast<size_t>(x)] = up;
      x = up;
    }
    return x;
  };
  auto point = [&](int r, int c) { return (r - (r0 - 1)) * cols + (c - (c0 - 1)); };
  auto join = [&](int a, int b) { parent[static_cast<size_t>(find(a))] = find(b); };
  for (int r = r0 - 1; r <= r1 + 1; ++r)
    for (int c = c0 - 1; c <= c1 + 1; ++c) {
      // Corners NE, SE, SW, NW as grid points.
      const int corner[4] = {point(r, c + 1), point(r + 1, c + 1), point(r + 1, c), point(r, c)};
      const auto it = stars.find(Key(r, c));
      if (it == stars.end()) {
        for (int k = 1; k < 4; ++k) join(corner[0], corner[k]);
        continue;
      }
      // Corner k lies between sides k and k+1: a star puts it in the part of the tile up to
      // the next side it touches clockwise. Corners alike for every star see each other.
      int part[4] = {0, 0, 0, 0};
      for (uint8_t mask : it->second)
        for (int k = 0; k < 4; ++k) {
          int next = (k + 1) & 3;
          while (!(mask & (1 << next))) next = (next + 1) & 3;
          part[k] = part[k] * 4 + next;
        }
      for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b)
          if (part[a] == part[b]) join(corner[a], corner[b]);
    }
  const int outside = find(point(r0 - 1, c0 - 1));
  for (int r = r0 + 1; r < r1; ++r)
    for (int c = c0 + 1; c < c1; ++c) {
      if (cells_.count(Key(r, c)) || find(point(r, c)) == outside) continue;
      std::vector<int>& by = enclosed_[Key(r, c)];
      const bool known = std::any_of(by.begin(), by.end(), [&](int s) { return graph_.Find(s) == root; });
      if (!known) by.push_back(root);
    }
}

int TileMap::FilledAround(int row, int col) const {
  int n = 0;
  for (int dr = -1; dr <= 1; ++dr)
    for (int dc = -1; dc <= 1; ++dc)
      if ((dr || dc) && At(row + dr, col + dc)) ++n;
  return n;
}

int TileMap::CornerKind(int row, int col, int corner) const {
  const Placed* p = At(row, col);
  if (!p) return -1;
  return set_->tiles[static_cast<size_t>(p->tile)].corner_kind[static_cast<size_t>(Unrotate(corner, p->rotation))];
}

uint8_t TileMap::SegmentSides(int row, int col, int index) const {
  const Placed* p = At(row, col);
  if (!p) return 0;
  const TileDef& t = set_->tiles[static_cast<size_t>(p->tile)];
  if (index < 0 || index >= static_cast<int>(t.segments.size())) return 0;
  uint8_t out = 0;
  for (int s = 0; s < 4; ++s)
    if (t.segments[static_cast<size_t>(index)].sides & (1 << s)) out |= static_cast<uint8_t>(1 << Rotate(s, p->rotation));
  return out;
}

int TileMap::Segment(int row, int col, int index) const {
  const Placed* p = At(row, col);
  if (!p || index < 0 || index >= static_cast<int>(set_->tiles[static_cast<size_t>(p->tile)].segments.size())) return -1;
  return p->first_segment + index;
}

int TileMap::SegmentCount(int row, int col) const {
  const Placed* p = At(row, col);
  return p ? static_cast<int>(set_->tiles[static_cast<size_t>(p->tile)].segments.size()) : 0;
}

void TileMap::CountEnds(int root, std::map<std::string, int>* ends, int* open_ends) const {
  *open_ends = 0;
  for (const auto& [key, n] : graph_.Tally(root)) {
    if (key.rfind("end:", 0) != 0 || n == 0) continue;
    const std::string how = key.substr(4);
    if (ends) (*ends)[how] += n;
    if (!std::binary_search(closing_.begin(), closing_.end(), how)) *open_ends += n;
  }
}

bool TileMap::Complete(int segment) const {
  if (graph_.OpenEdges(segment) != 0) return false;
  for (const auto& [key, n] : graph_.Tally(segment))
    if (n > 0 && key.rfind("end:", 0) == 0 && !std::binary_search(closing_.begin(), closing_.end(), key.substr(4))) return false;
  return enclosed_.empty() || EmptyInside(segment) == 0;
}

int TileMap::EmptyInside(int segment) const {
  if (enclosed_.empty()) return 0;
  const int root = graph_.Find(segment);
  int n = 0;
  for (const auto& [cell, by] : enclosed_)
    if (std::any_of(by.begin(), by.end(), [&](int s) { return graph_.Find(s) == root; })) ++n;
  return n;
}

uint64_t TileMap::FeatureVersion(int segment) const {
  if (!enclosed_.empty()) {
    const int root = graph_.Find(segment);
    for (const auto& [cell, by] : enclosed_)
      if (std::any_of(by.begin(), by.end(), [&](int s) { return graph_.Find(s) == root; })) return version_;
  }
  return graph_.Version(segment);
}

TileMap::FeatureInfo TileMap::Feature(int segment, bool whole) const {
  FeatureInfo info;
  const int root = graph_.Find(segment);
  info.id = root;
  info.kind = graph_.Kind(root);
  info.open_edges = graph_.OpenEdges(root);
  for (const auto& [key, n] : graph_.Tally(root))
    if (key.rfind("end:", 0) != 0) info.tally[key] = n;
  CountEnds(root, whole ? &info.ends : nullptr, &info.open_ends);
  info.empty_inside = EmptyInside(root);
  info.complete = info.open_edges == 0 && info.open_ends == 0 && info.empty_inside == 0;
  info.occupants = graph_.Occupants(root);
  if (!whole) return info;
  const FeatureGraph::Feature f = graph_.Describe(root);
  info.segments = f.segments;
  std::vector<int> seen;
  for (int s : f.segments) {
    const int ti = segment_tile_[static_cast<size_t>(s)];
    if (std::find(seen.begin(), seen.end(), ti) == seen.end()) seen.push_back(ti);
  }
  std::sort(seen.begin(), seen.end());
  for (int ti : seen) info.tiles.push_back(order_[static_cast<size_t>(ti)]);
  return info;
}

std::vector<int> TileMap::Features(int kind, bool occupied) const {
  std::vector<int> roots;
  for (int s = 0; s < graph_.segment_count(); ++s) {
    if (graph_.Find(s) != s) continue;
    if (occupied && !HoldsPiece(graph_.Occupants(s))) continue;
    if (kind >= 0) {
      const Placed& p = placed_[static_cast<size_t>(segment_tile_[static_cast<size_t>(s)])];
      if (set_->tiles[static_cast<size_t>(p.tile)].segments[static_cast<size_t>(s - p.first_segment)].kind != kind) continue;
    }
    roots.push_back(s);
  }
  return roots;
}

void TileMap::Occupy(int segment, int owner, int pieces, Journal* journal) {
  Start(journal);
  graph_.AddOccupant(segment, owner, pieces, journal ? &journal->graph : nullptr);
  version_ = NewContentVersion();
}

std::map<int, int> TileMap::Vacate(int segment, Journal* journal) {
  std::map<int, int> out = graph_.Occupants(segment);
  Start(journal);
  graph_.ClearOccupants(segment, journal ? &journal->graph : nullptr);
  version_ = NewContentVersion();
  return out;
}

void TileMap::AddTally(int segment, const std::string& key, int amount, Journal* journal) {
  Start(journal);
  graph_.AddTally(segment, key, amount, journal ? &journal->graph : nullptr);
  added_tally_.emplace_back(segment, key, amount);
  version_ = NewContentVersion();
}

nlohmann::json TileMap::ToJson() const {
  nlohmann::json tiles = nlohmann::json::array();
  for (size_t i = 0; i < placed_.size(); ++i)
    tiles.push_back({order_[i].row, order_[i].col, set_->tiles[static_cast<size_t>(placed_[i].tile)].id, placed_[i].rotation * 90});
  nlohmann::json occ = nlohmann::json::array();
  for (int s = 0; s < graph_.segment_count(); ++s) {
    if (graph_.Find(s) != s) continue;
    for (const auto& [owner, n] : graph_.Occupants(s))  // not Describe: it lists every segment
      if (n != 0) occ.push_back({s, owner, n});
  }
  nlohmann::json added = nlohmann::json::array();
  for (const auto& [s, key, n] : added_tally_) added.push_back({s, key, n});
  nlohmann::json out = {{"tiles", std::move(tiles)}, {"occupants", std::move(occ)}, {"tally", std::move(added)}, {"closing_ends", closing_}};
  if (!filled_inside_.empty()) out["filled_inside"] = filled_inside_;
  return out;
}

bool TileMap::FromJson(const nlohmann::json& j, std::shared_ptr<const TileSet> set, TileMap* out, std::string* error) {
  if (!set) {
    *error = "a tile map needs the game's tiles data file";
    return false;
  }
  if (!j.is_object() || !j.contains("tiles") || !j["tiles"].is_array()) {
    *error = "a tile map needs a list 'tiles'";
    return false;
  }
  std::vector<std::string> closing;
  if (j.contains("closing_ends")) {
    if (!j["closing_ends"].is_array()) {
      *error = "closing_ends: a list of strings";
      return false;
    }
    if (static_cast<int64_t>(j["closing_ends"].size()) > limits::kClosingEnds) {
      *error = "closing_ends: at most " + std::to_string(limits::kClosingEnds) + " kinds of end";
      return false;
    }
    for (const auto& e : j["closing_ends"]) {
      if (!e.is_string() || e.get<std::string>().empty() || e.get<std::string>().size() > limits::kTallyKeyBytes) {
        *error = "closing_ends: a list of strings of 1 to " + std::to_string(limits::kTallyKeyBytes) + " bytes";
        return false;
      }
      closing.push_back(e.get<std::string>());
    }
  }
  std::vector<std::string> filled;
  if (j.contains("filled_inside")) {
    if (!j["filled_inside"].is_array() || j["filled_inside"].size() > 32) {
      *error = "filled_inside: a list of at most 32 kinds";
      return false;
    }
    for (const auto& e : j["filled_inside"]) {
      if (!e.is_string()) {
        *error = "filled_inside: a list of at most 32 kinds";
        return false;
      }
      filled.push_back(e.get<std::string>());
    }
    const std::string bad = KindsError(*set, filled);
    if (!bad.empty()) {
      *error = "filled_inside: " + bad;
      return false;
    }
  }
  TileMap m(set, closing, filled);
  const auto& tiles = j["tiles"];
  for (size_t i = 0; i < tiles.size(); ++i) {
    const std::string at = "tiles/" + std::to_string(i);
    const auto& e = tiles[i];
    if (!e.is_array() || e.size() != 4 || !e[0].is_number_integer() || !e[1].is_number_integer() || !e[2].is_string() ||
        !e[3].is_number_integer()) {
      *error = at + ": a placed tile is [row, col, tile id, rotation]";
      return false;
    }
    const int64_t row = e[0].get<int64_t>(), col = e[1].get<int64_t>(), deg = e[3].get<int64_t>();
    if (row < -4096 || row > 4096 || col < -4096 || col > 4096) {
      *error = at + ": cell outside -4096..4096";
      return false;
    }
    if (deg != 0 && deg != 90 && deg != 180 && deg != 270) {
      *error = at + ": rotation " + std::to_string(deg) + " is not 0, 90, 180 or 270";
      return false;
    }
    const int tile = set->Find(e[2].get<std::string>());
    if (tile < 0) {
      *error = at + ": unknown tile id '" + e[2].get<std::string>() + "'";
      return false;
    }
    std::string why;
    if (!m.Place(tile, static_cast<int>(row), static_cast<int>(col), static_cast<int>(deg / 90), nullptr, &why)) {
      *error = at + ": " + why;
      return false;
    }
  }
  auto segment_ok = [&](const nlohmann::json& v) { return v.is_number_integer() && v.get<int64_t>() >= 0 && v.get<int64_t>() < m.segment_count(); };
  // The same bounds as the Lua API's m:occupy and m:add_tally (host/limits.h), summed per
  // feature in 64 bits: entries that each pass cannot add up past them.
  std::map<std::pair<int, int>, int64_t> pieces;
  if (j.contains("occupants")) {
    if (!j["occupants"].is_array()) {
      *error = "occupants: a list of [segment, owner, pieces]";
      return false;
    }
    for (size_t i = 0; i < j["occupants"].size(); ++i) {
      const auto& o = j["occupants"][i];
      if (!o.is_array() || o.size() != 3 || !segment_ok(o[0]) || !o[1].is_number_integer() || !o[2].is_number_integer() ||
          o[2].get<int64_t>() < 1 || o[2].get<int64_t>() > limits::kFeaturePieces || o[1].get<int64_t>() < 0 ||
          o[1].get<int64_t>() >= limits::kSeats) {
        *error = "occupants/" + std::to_string(i) + ": [segment, owner, pieces] with a segment of the map, an owner seat from 0 and 1 to " +
                 std::to_string(limits::kFeaturePieces) + " pieces";
        return false;
      }
      const int seg = static_cast<int>(o[0].get<int64_t>()), owner = static_cast<int>(o[1].get<int64_t>());
      int64_t& total = pieces[{m.FeatureOf(seg), owner}];
      total += o[2].get<int64_t>();
      if (total > limits::kFeaturePieces) {
        *error = "occupants/" + std::to_string(i) + ": seat " + std::to_string(owner) + " would hold more than " +
                 std::to_string(limits::kFeaturePieces) + " pieces on one feature";
        return false;
      }
      m.Occupy(seg, owner, static_cast<int>(o[2].get<int64_t>()));
    }
  }
  if (j.contains("tally")) {
    if (!j["tally"].is_array() || static_cast<int64_t>(j["tally"].size()) > limits::kAddedTallies) {
      *error = "tally: a list of at most " + std::to_string(limits::kAddedTallies) + " [segment, key, amount]";
      return false;
    }
    std::map<std::pair<int, std::string>, int64_t> totals;
    for (size_t i = 0; i < j["tally"].size(); ++i) {
      const auto& t = j["tally"][i];
      const bool key_ok = t.is_array() && t.size() == 3 && t[1].is_string() && !t[1].get<std::string>().empty() &&
                          t[1].get<std::string>().size() <= limits::kTallyKeyBytes && t[1].get<std::string>().rfind("end:", 0) != 0;
      if (!key_ok || !segment_ok(t[0]) || !t[2].is_number_integer() || t[2].get<int64_t>() < -limits::kTallyStep ||
          t[2].get<int64_t>() > limits::kTallyStep) {
        *error = "tally/" + std::to_string(i) + ": [segment, key, amount] with a segment of the map, a key of 1 to " +
                 std::to_string(limits::kTallyKeyBytes) + " bytes not starting 'end:', an amount within " +
                 std::to_string(-limits::kTallyStep) + ".." + std::to_string(limits::kTallyStep);
        return false;
      }
      const int seg = static_cast<int>(t[0].get<int64_t>());
      const std::string key = t[1].get<std::string>();
      int64_t& total = totals[{m.FeatureOf(seg), key}];
      if (total == 0) {
        const auto& now = m.graph().Tally(seg);
        const auto it = now.find(key);
        total = it == now.end() ? 0 : it->second;
      }
      total += t[2].get<int64_t>();
      if (total > limits::kTally || total < -limits::kTally) {
        *error = "tally/" + std::to_string(i) + ": the feature's '" + key + "' would leave " + std::to_string(-limits::kTally) +
                 ".." + std::to_string(limits::kTally);
        return false;
      }
      m.AddTally(seg, key, static_cast<int>(t[2].get<int64_t>()));
    }
  }
  *out = std::move(m);
  return true;
}

bool TileMap::operator==(const TileMap& o) const {
  return closing_ == o.closing_ && filled_inside_ == o.filled_inside_ && order_ == o.order_ && graph_ == o.graph_ &&
         added_tally_ == o.added_tally_ && enclosed_ == o.enclosed_ &&
         [&] {
           for (size_t i = 0; i < placed_.size(); ++i)
             if (placed_[i].tile != o.placed_[i].tile || placed_[i].rotation != o.placed_[i].rotation) return false;
           return placed_.size() == o.placed_.size();
         }();
}

}  // namespace plateau

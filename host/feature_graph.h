// Graphs of connected features, backed by Boost.Graph (kept out of this header so only
// feature_graph.cc pays for the Boost templates).
//  - CellGroups: connected groups of like cells on a grid (prairie, krill, meadow).
//  - FeatureGraph: features built incrementally from tile segments (Safari trails and bush):
//    merging across placed tiles, open-edge counts, completion, occupants by owner.
//  - RegionGraph: a fixed graph loaded from data (Fauna's regions and their neighbours).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "host/grid.h"

namespace plateau {

// Groups of orthogonally connected occupied cells for which `same(a, b)` holds between
// neighbours and `member(cell)` holds for each. Groups and cells come out in row-major order.
std::vector<std::vector<Coord>> CellGroups(const Grid& grid, const std::function<bool(const Cell&)>& member);

class FeatureGraph {
 public:
  struct Feature {
    int root = -1;
    std::string kind;
    int open_edges = 0;
    std::vector<int> segments;
    std::map<int, int> occupants;       // owner -> pieces
    std::map<std::string, int> tally;   // e.g. animals or birds counted on the feature
    bool complete() const { return open_edges == 0; }
  };

  // What a run of changes did to a graph, to take them back (Undo) at the cost of what they
  // changed rather than of a copy: the counts of what only grows, and each changed segment's
  // old values. Each change given a journal records into it; Start is done on the first.
  struct Journal {
    struct Slot {
      int index;
      int open, rank, parent, next;
      uint64_t version;
      std::map<int, int> occupants;
      std::map<std::string, int> tally;
    };
    bool started = false;
    size_t segments = 0, connections = 0;
    std::vector<Slot> slots;  // in change order
  };

  FeatureGraph();
  ~FeatureGraph();
  FeatureGraph(const FeatureGraph&);
  FeatureGraph& operator=(const FeatureGraph&);

  // Adds a segment (a feature piece on one tile) with its open edges; returns its id.
  int AddSegment(const std::string& kind, int open_edges, Journal* journal = nullptr);
  // Joins two segments across a shared tile edge: the features merge and each side's
  // open edge closes. Joining segments of different kinds is refused.
  bool Connect(int a, int b, std::string* why, Journal* journal = nullptr);
  int Find(int segment) const;
  void AddOccupant(int segment, int owner, int pieces = 1, Journal* journal = nullptr);
  void ClearOccupants(int segment, Journal* journal = nullptr);
  void AddTally(int segment, const std::string& key, int amount, Journal* journal = nullptr);
  // Takes back every change recorded in `journal` (the graph is then as at its Start, versions
  // included), and empties it.
  void Undo(Journal* journal);
  Feature Describe(int segment) const;
  // The feature's open edges and tally without listing its segments (Describe scans them all).
  int OpenEdges(int segment) const;
  const std::string& Kind(int segment) const;
  const std::map<std::string, int>& Tally(int segment) const;
  // Pieces on the feature by owner (without listing its segments).
  const std::map<int, int>& Occupants(int segment) const;
  // Owners holding the most pieces on the feature (every tied owner).
  std::vector<int> Majority(int segment) const;
  int segment_count() const;
  // A number that changes whenever the segment's feature changes (joined, an edge closed,
  // pieces or a tally added or cleared) and with nothing else; a copy keeps it. Two calls
  // with the same feature and version see the same feature. Not part of the content (==).
  uint64_t Version(int segment) const;
  const std::vector<std::pair<int, int>>& connections() const;
  bool operator==(const FeatureGraph& other) const;

  // Plain-data form for serialization: everything needed to rebuild the graph exactly.
  struct Data {
    std::vector<std::string> kind;
    std::vector<int> open, parent, rank;
    std::vector<std::map<int, int>> occupants;
    std::vector<std::map<std::string, int>> tally;
    std::vector<std::pair<int, int>> connections;
  };
  Data Export() const;
  static bool Import(const Data& data, FeatureGraph* out, std::string* why);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

class RegionGraph {
 public:
  RegionGraph();
  ~RegionGraph();
  RegionGraph(const RegionGraph&);
  RegionGraph& operator=(const RegionGraph&);

  int AddRegion(const std::string& id);
  bool AddBorder(const std::string& a, const std::string& b, std::string* why);
  int Find(const std::string& id) const;  // -1 when unknown
  const std::string& Name(int region) const;
  std::vector<int> Neighbors(int region) const;
  bool Adjacent(int a, int b) const;
  // Number of borders crossed on the shortest path, or -1 when unreachable.
  int Distance(int a, int b) const;
  int size() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace plateau

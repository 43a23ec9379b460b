// Maps of regions (Fauna's world): the regions a game's data declares, with their kind (land,
// sea...), group (continent, ocean) and borders as a RegionGraph, and a RegionMap component of
// the state that holds the pieces players put on regions. Scales (weight, length...) are
// ordered buckets of a measure, with the bucket of a value and the buckets beside it.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "host/feature_graph.h"

namespace plateau {

struct RegionInfo {
  std::string id, kind, group;
};

class RegionSet {
 public:
  std::vector<RegionInfo> regions;  // data order; index = RegionGraph vertex
  RegionGraph graph;
  int Find(const std::string& id) const { return graph.Find(id); }
  int size() const { return static_cast<int>(regions.size()); }
  // From a regions data document (schemas/regions.schema.json): unique ids; borders between
  // known regions, never a region with itself, each pair once. *error: "at /borders/3/1: ...".
  static bool FromJson(const nlohmann::json& doc, RegionSet* out, std::string* error);
};

// Pieces on regions, by owner: the state's part of a region map (the regions are data).
class RegionMap {
 public:
  RegionMap() = default;
  explicit RegionMap(std::shared_ptr<const RegionSet> set) : set_(std::move(set)), marks_(static_cast<size_t>(set_->size())) {}
  const RegionSet& set() const { return *set_; }
  const std::vector<int>& Marks(int region) const { return marks_[static_cast<size_t>(region)]; }
  void Mark(int region, int owner) { marks_[static_cast<size_t>(region)].push_back(owner); }
  // Takes one piece of `owner` (every piece when owner < 0); returns how many were taken.
  int Unmark(int region, int owner);
  void Clear();
  // {"marks": {"<region>": [owner, ...]}} for regions holding pieces.
  nlohmann::json ToJson() const;
  static bool FromJson(const nlohmann::json& j, std::shared_ptr<const RegionSet> set, RegionMap* out, std::string* error);
  bool operator==(const RegionMap& o) const { return marks_ == o.marks_; }

 private:
  std::shared_ptr<const RegionSet> set_;
  std::vector<std::vector<int>> marks_;
};

struct ScaleBucket {
  std::string label;
  double min = 0, max = 0;  // min inclusive, max exclusive
};

struct Scale {
  std::string id, unit;
  std::vector<ScaleBucket> buckets;  // increasing, not overlapping
  // The bucket holding `value` (0-based), or -1 when it falls in none.
  int BucketOf(double value) const;
};

class ScaleSet {
 public:
  std::vector<Scale> scales;
  const Scale* Find(const std::string& id) const;
  // From a scales data document (schemas/scales.schema.json): unique ids, each bucket's min
  // below its max, buckets in increasing order without overlap. *error: "at /scales/1/buckets/3: ...".
  static bool FromJson(const nlohmann::json& doc, ScaleSet* out, std::string* error);
};

}  // namespace plateau

// Region sets and maps, and scales, from game data (region_map.h).
#include "host/region_map.h"

#include "host/limits.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace plateau {

bool RegionSet::FromJson(const nlohmann::json& doc, RegionSet* out, std::string* error) {
  RegionSet set;
  auto fail = [&](const std::string& where, const std::string& why) {
    *error = "at " + where + ": " + why;
    return false;
  };
  if (!doc.is_object() || !doc.contains("regions") || !doc["regions"].is_array()) return fail("/regions", "a list of regions is needed");
  const auto& regions = doc["regions"];
  for (size_t i = 0; i < regions.size(); ++i) {
    const auto& r = regions[i];
    const std::string at = "/regions/" + std::to_string(i);
    if (!r.is_object() || !r.contains("id") || !r["id"].is_string()) return fail(at + "/id", "a region needs a string id");
    RegionInfo info{r["id"].get<std::string>(), r.value("kind", std::string()), r.value("group", std::string())};
    if (set.graph.Find(info.id) >= 0) return fail(at + "/id", "duplicate region id '" + info.id + "'");
    set.graph.AddRegion(info.id);
    set.regions.push_back(std::move(info));
  }
  if (doc.contains("borders")) {
    std::set<std::pair<int, int>> seen;
    const auto& borders = doc["borders"];
    for (size_t i = 0; i < borders.size(); ++i) {
      const auto& b = borders[i];
      const std::string at = "/borders/" + std::to_string(i);
      if (!b.is_array() || b.size() != 2 || !b[0].is_string() || !b[1].is_string())
        return fail(at, "a border is a pair of region ids");
      int v[2];
      for (int k = 0; k < 2; ++k) {
        v[k] = set.graph.Find(b[static_cast<size_t>(k)].get<std::string>());
        if (v[k] < 0) return fail(at + "/" + std::to_string(k), "unknown region '" + b[static_cast<size_t>(k)].get<std::string>() + "'");
      }
      if (v[0] == v[1]) return fail(at, "region '" + b[0].get<std::string>() + "' cannot border itself");
      if (!seen.insert({std::min(v[0], v[1]), std::max(v[0], v[1])}).second)
        return fail(at, "the border " + b[0].get<std::string>() + " / " + b[1].get<std::string>() + " is listed twice");
      set.graph.AddBorder(b[0].get<std::string>(), b[1].get<std::string>(), nullptr);
    }
  }
  *out = std::move(set);
  return true;
}

int RegionMap::Unmark(int region, int owner) {
  auto& m = marks_[static_cast<size_t>(region)];
  if (owner < 0) {
    const int n = static_cast<int>(m.size());
    m.clear();
    return n;
  }
  auto it = std::find(m.begin(), m.end(), owner);
  if (it == m.end()) return 0;
  m.erase(it);
  return 1;
}

void RegionMap::Clear() {
  for (auto& m : marks_) m.clear();
}

nlohmann::json RegionMap::ToJson() const {
  nlohmann::json marks = nlohmann::json::object();
  for (size_t i = 0; i < marks_.size(); ++i)
    if (!marks_[i].empty()) marks[set_->regions[i].id] = marks_[i];
  return {{"marks", std::move(marks)}};
}

bool RegionMap::FromJson(const nlohmann::json& j, std::shared_ptr<const RegionSet> set, RegionMap* out, std::string* error) {
  if (!set) {
    *error = "a region map needs the game's regions data file";
    return false;
  }
  RegionMap m(set);
  if (!j.is_object() || !j.contains("marks") || !j["marks"].is_object()) {
    *error = "a region map is {\"marks\": {region: [owner, ...]}}";
    return false;
  }
  for (auto it = j["marks"].begin(); it != j["marks"].end(); ++it) {
    const int r = set->Find(it.key());
    if (r < 0) {
      *error = "marks/" + it.key() + ": unknown region";
      return false;
    }
    if (!it->is_array() || static_cast<int64_t>(it->size()) > limits::kRegionPieces) {
      *error = "marks/" + it.key() + ": a list of at most " + std::to_string(limits::kRegionPieces) + " owners";
      return false;
    }
    for (const auto& o : *it) {
      if (!o.is_number_integer() || o.get<int64_t>() < 0 || o.get<int64_t>() >= limits::kSeats) {
        *error = "marks/" + it.key() + ": owners are seat numbers from 0";
        return false;
      }
      m.Mark(r, static_cast<int>(o.get<int64_t>()));
    }
  }
  *out = std::move(m);
  return true;
}

int Scale::BucketOf(double value) const {
  if (!std::isfinite(value)) return -1;
  for (size_t i = 0; i < buckets.size(); ++i)
    if (value >= buckets[i].min && value < buckets[i].max) return static_cast<int>(i);
  return -1;
}

const Scale* ScaleSet::Find(const std::string& id) const {
  for (const auto& s : scales)
    if (s.id == id) return &s;
  return nullptr;
}

bool ScaleSet::FromJson(const nlohmann::json& doc, ScaleSet* out, std::string* error) {
  ScaleSet set;
  auto fail = [&](const std::string& where, const std::string& why) {
    *error = "at " + where + ": " + why;
    return false;
  };
  if (!doc.is_object() || !doc.contains("scales") || !doc["scales"].is_array()) return fail("/scales", "a list of scales is needed");
  for (size_t i = 0; i < doc["scales"].size(); ++i) {
    const auto& sj = doc["scales"][i];
    const std::string at = "/scales/" + std::to_string(i);
    Scale s;
    s.id = sj.value("id", std::string());
    s.unit = sj.value("unit", std::string());
    if (s.id.empty()) return fail(at + "/id", "a scale needs an id");
    if (set.Find(s.id)) return fail(at + "/id", "duplicate scale id '" + s.id + "'");
    if (!sj.contains("buckets") || !sj["buckets"].is_array() || sj["buckets"].empty()) return fail(at + "/buckets", "a scale needs buckets");
    for (size_t k = 0; k < sj["buckets"].size(); ++k) {
      const auto& bj = sj["buckets"][k];
      const std::string bat = at + "/buckets/" + std::to_string(k);
      if (!bj.is_object() || !bj.contains("min") || !bj.contains("max") || !bj["min"].is_number() || !bj["max"].is_number())
        return fail(bat, "a bucket needs numbers min and max");
      ScaleBucket b{bj.value("label", std::string()), bj["min"].get<double>(), bj["max"].get<double>()};
      if (!(b.min < b.max)) return fail(bat, "min " + bj["min"].dump() + " is not below max " + bj["max"].dump());
      if (!s.buckets.empty() && b.min < s.buckets.back().max)
        return fail(bat + "/min", "buckets must be in increasing order without overlap: min " + bj["min"].dump() +
                                      " is below the previous bucket's max " + [&] {
                                        char buf[32];
                                        std::snprintf(buf, sizeof buf, "%g", s.buckets.back().max);
                                        return std::string(buf);
                                      }());
      s.buckets.push_back(std::move(b));
    }
    set.scales.push_back(std::move(s));
  }
  *out = std::move(set);
  return true;
}

}  // namespace plateau

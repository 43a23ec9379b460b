// The host's own limits: what one game's state and outputs may hold, and the ranges numbers
// must fall in when they cross into the host (from scripts, data files or saves). The Lua VM's
// memory cap bounds what scripts allocate; these bound what the host allocates for them, so a
// game that asks for too much fails with a message instead of reaching bad_alloc. Every value
// here is listed in docs/security.md and in the API reference.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace plateau::limits {

// Cell coordinates, rows and columns.
constexpr int64_t kCoord = 4096;
// Cells of one grid's dense window (its bounding box of placed cells), and of all grids of a state.
constexpr int64_t kGridWindowCells = 1 << 20;
constexpr int64_t kStateGridCells = 4 << 20;
// Grids, zones, counters, tracks, tile maps and region maps a state may hold (each kind).
constexpr int64_t kComponents = 4096;
// Cards in one zone, and in all zones of a state.
constexpr int64_t kZoneCards = 1'000'000;
constexpr int64_t kStateCards = 4'000'000;
// Spaces of a track.
constexpr int64_t kTrackLength = 100'000;
// Copies of a card a draft deck or a data file may ask for.
constexpr int64_t kCardCopies = 100'000;
// Players and seats (pseudo-seats included).
constexpr int64_t kSeats = 64;
// Rounds, steps, turns and moves of one game.
constexpr int64_t kRounds = 1'000'000;
constexpr int64_t kMoves = 10'000'000;
// Score values (breakdown entries and totals): integers within ±kScore, so a sum over every
// category of every seat stays far inside int64.
constexpr int64_t kScore = 1'000'000'000'000;  // 10^12
// Values a bot's evaluate hook may return: finite, within ±kEvaluate.
constexpr double kEvaluate = 1e12;
// Names of counters, tracks, tile maps and region maps (bytes), and how many tile maps and
// region maps a state holds.
constexpr size_t kNameBytes = 63;
constexpr int64_t kMaps = 16;
// Tile maps: pieces one seat keeps on one feature, pieces placed in one call, a tally's key
// (bytes), one added amount, a feature's tally total, tallies added by the rules, closing ends.
constexpr int64_t kFeaturePieces = 1'000'000;
constexpr int64_t kPiecesPerCall = 1000;
constexpr size_t kTallyKeyBytes = 64;
constexpr int64_t kTallyStep = 1'000'000;
constexpr int64_t kTally = 1'000'000'000;
constexpr int64_t kAddedTallies = 100'000;
constexpr int64_t kClosingEnds = 32;
// Region maps: pieces on one region.
constexpr int64_t kRegionPieces = 100;
// Text of state.data (bytes of strings and keys plus 16 per value), and of one error message.
constexpr size_t kStateDataBytes = 64u << 20;
constexpr size_t kMessageBytes = 4096;
// A game folder as host/files.h reads it: entries listed in one folder and its subfolders, one
// file read (the callers' own caps are lower: scripts 1 MiB, JSON 8 MiB), and all its files
// copied (plateau new, mutation testing).
constexpr int64_t kFolderEntries = 20'000;
constexpr size_t kGameFileBytes = 64u << 20;
constexpr size_t kGameFolderBytes = 256u << 20;
// A simulation cut into slices (simulate --shard K/N, merge, tune --shards): at most this many
// slices, each slice's report at most this many bytes.
constexpr int64_t kShards = 4096;
constexpr size_t kShardBytes = 64u << 20;

// Reads an integer from JSON input within [lo, hi]; throws std::runtime_error naming `what`
// ("expected an integer, got 1.5", "2147483648 outside 1..100000"). Floats that hold an exact
// integer (3.0) are accepted; NaN, infinities, fractions, strings and the rest are refused.
inline int64_t JsonInt(const nlohmann::json& j, int64_t lo, int64_t hi, const std::string& what) {
  const std::string head = what.empty() ? "" : what + ": ";
  auto out_of_range = [&](const std::string& got) {
    return std::runtime_error(head + got + " outside " + std::to_string(lo) + ".." + std::to_string(hi));
  };
  if (j.is_number_integer()) {
    if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
      throw out_of_range(std::to_string(j.get<uint64_t>()));
    const int64_t v = j.get<int64_t>();
    if (v < lo || v > hi) throw out_of_range(std::to_string(v));
    return v;
  }
  if (j.is_number_float()) {
    const double d = j.get<double>();
    if (!std::isfinite(d) || d != std::floor(d)) throw std::runtime_error(head + "expected an integer, got " + j.dump());
    if (d < static_cast<double>(lo) || d > static_cast<double>(hi)) throw out_of_range(j.dump());
    return static_cast<int64_t>(d);
  }
  throw std::runtime_error(head + "expected an integer, got " + std::string(j.type_name()));
}

// The same for an optional field of an object: `def` when absent.
inline int64_t JsonIntField(const nlohmann::json& obj, const char* field, int64_t def, int64_t lo, int64_t hi,
                            const std::string& what) {
  if (!obj.is_object()) throw std::runtime_error(what + ": expected an object, got " + std::string(obj.type_name()));
  auto it = obj.find(field);
  if (it == obj.end()) return def;
  return JsonInt(*it, lo, hi, what + "." + field);
}

}  // namespace plateau::limits

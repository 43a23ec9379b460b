// Text rendering of states and score tables (see render.h).
#include "host/render.h"

#include "host/text.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace plateau {

std::string RenderGrid(const State& state, const Grid& grid, bool show_coords) {
  std::ostringstream out;
  if (grid.count() == 0) return "  (empty)\n";
  const Bounds& b = grid.bounds();
  size_t width = 4;
  std::vector<Coord> occ;
  grid.OccupiedCells(&occ);
  for (const Coord& c : occ) width = std::max(width, state.CardName(grid.Get(c.row, c.col)->item).size() + 2);
  if (show_coords) {
    out << "      ";
    for (int c = b.min_col; c <= b.max_col; ++c) {
      std::string h = "c" + std::to_string(c);
      out << h << std::string(width + 1 - std::min(width, h.size()), ' ');
    }
    out << "\n";
  }
  for (int r = b.min_row; r <= b.max_row; ++r) {
    out << "  ";
    if (show_coords) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "r%-3d", r);
      out << buf;
    }
    for (int c = b.min_col; c <= b.max_col; ++c) {
      const Cell* cell = grid.Get(r, c);
      std::string text = ".";
      if (cell && !cell->empty()) {
        text = state.CardName(cell->item);
        if (cell->face_down) text = "(" + text + ")";
      }
      out << text << std::string(width + 1 - std::min(width, text.size()), ' ');
    }
    out << "\n";
  }
  return out.str();
}

static std::string CardList(const State& state, const std::vector<CardId>& cards) {
  std::map<std::string, int> counts;
  for (CardId c : cards) counts[state.CardName(c)]++;
  std::string s;
  for (const auto& [name, n] : counts) s += (s.empty() ? "" : ", ") + name + (n > 1 ? " x" + std::to_string(n) : "");
  return s.empty() ? "(none)" : s;
}

std::string RenderState(const State& state, int seat) {
  std::ostringstream out;
  out << "phase " << state.flow.phase << ", round " << state.flow.round + 1 << ", step " << state.flow.step + 1
      << ", moves " << state.move_count << "\n";
  for (const auto& [key, grid] : state.grids) {
    std::string owner = key;
    const auto colon = key.find(':');
    if (colon != std::string::npos) {
      int64_t s = 0;
      std::string ignored;
      if (ParseInt(key.substr(colon + 1), 1, static_cast<int64_t>(state.seats.size()), "", &s, &ignored) && s-- > 0)
        owner = state.seats[static_cast<size_t>(s)].name + " (" + key.substr(0, colon) + ")";
    }
    out << owner << ":\n" << RenderGrid(state, grid, seat >= 0);
  }
  for (const auto& zone : state.zones) {
    const bool visible = zone.visibility == Visibility::kPublic ||
                         (zone.visibility == Visibility::kOwner && zone.owner == seat && seat >= 0);
    if (zone.cards.empty() && zone.name != "hand") continue;
    std::string owner = zone.owner < 0 ? "" : state.seats[static_cast<size_t>(zone.owner)].name + " ";
    out << owner << zone.name << " [" << zone.cards.size() << "]";
    if (visible && zone.name != "discard") out << ": " << CardList(state, zone.cards);
    out << "\n";
  }
  for (const auto& [key, c] : state.counters) {
    out << key << ": " << c.value;
    if (c.max != INT64_MAX) out << "/" << c.max;
    out << "\n";
  }
  for (const auto& [key, t] : state.tracks) out << key << ": space " << t.position + 1 << " of " << t.length << "\n";
  return out.str();
}

std::string RenderScores(const ScoreTable& table) {
  std::vector<std::string> cats;
  for (const auto& line : table.lines)
    for (const auto& [k, v] : line.breakdown)
      if (std::find(cats.begin(), cats.end(), k) == cats.end()) cats.push_back(k);
  size_t w = 8;
  for (const auto& c : cats) w = std::max(w, TerminalText(c).size() + 1);
  std::ostringstream out;
  char buf[64];
  out << std::string(w, ' ');
  for (const auto& line : table.lines) {
    // A name from a board file or the rules: shown escaped, never as terminal control bytes.
    std::snprintf(buf, sizeof buf, "%8s", TerminalText(line.name).substr(0, 8).c_str());
    out << buf;
  }
  out << "\n";
  for (const auto& c : cats) {
    const std::string shown = TerminalText(c);  // a row name the rules chose
    out << shown << std::string(w - shown.size(), ' ');
    for (const auto& line : table.lines) {
      int64_t v = 0;
      for (const auto& [k, x] : line.breakdown)
        if (k == c) v = x;
      std::snprintf(buf, sizeof buf, "%8lld", static_cast<long long>(v));
      out << buf;
    }
    out << "\n";
  }
  out << "TOTAL" << std::string(w - 5, ' ');
  for (const auto& line : table.lines) {
    std::snprintf(buf, sizeof buf, "%8lld", static_cast<long long>(line.total));
    out << buf;
  }
  out << "\n";
  // extra.explain (plateau score --explain) is lines of text, printed as such by the command.
  Json rest = table.extra;
  if (rest.is_object()) rest.erase("explain");
  if (!rest.empty()) out << rest.dump() << "\n";
  return out.str();
}

}  // namespace plateau

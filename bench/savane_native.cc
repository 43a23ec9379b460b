// Native Savane baseline for plateau-bench (see savane_native.h). Same rules as
// games/ecosysteme-savane/rules.lua: the random draft (distinct card x placeable cell),
// the lions' prey chosen at random among real choices, then scoring in rulebook order.
#include "bench/savane_native.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <vector>

#include "host/rng.h"

namespace plateau::bench {
namespace {

enum Card : int8_t { kNone = -1, kWaterhole, kPrairie, kTree, kGazelle, kZebra, kGiraffe, kCheetah, kLion, kElephant, kHyena, kVulture, kTypes };
constexpr int kCounts[kTypes] = {10, 20, 14, 20, 12, 10, 10, 10, 8, 10, 8};
constexpr bool kAnimal[kTypes] = {false, false, false, true, true, true, true, true, true, true, true};
constexpr int kRows = 4, kCols = 5, kSpan = 2 * kRows - 1, kSpanC = 2 * kCols - 1;

struct Board {
  // A window big enough for any frame around the first card at its centre.
  std::array<int8_t, kSpan * kSpanC> cell;
  int count = 0, r0 = 0, r1 = -1, c0 = 0, c1 = -1;
  Board() { cell.fill(kNone); }
  int8_t At(int r, int c) const {
    if (r < 0 || c < 0 || r >= kSpan || c >= kSpanC) return kNone;
    return cell[r * kSpanC + c];
  }
  void Placeable(std::vector<int>* out) const {
    out->clear();
    if (count == 0) {
      out->push_back((kRows - 1) * kSpanC + (kCols - 1));
      return;
    }
    const int lo_r = std::max(r0 - 1, r1 - kRows + 1), hi_r = std::min(r1 + 1, r0 + kRows - 1);
    const int lo_c = std::max(c0 - 1, c1 - kCols + 1), hi_c = std::min(c1 + 1, c0 + kCols - 1);
    for (int r = lo_r; r <= hi_r; ++r)
      for (int c = lo_c; c <= hi_c; ++c) {
        if (At(r, c) != kNone) continue;
        if (At(r - 1, c) != kNone || At(r + 1, c) != kNone || At(r, c - 1) != kNone || At(r, c + 1) != kNone)
          out->push_back(r * kSpanC + c);
      }
  }
  void Place(int idx, int8_t card) {
    const int r = idx / kSpanC, c = idx % kSpanC;
    cell[idx] = card;
    if (count++ == 0) { r0 = r1 = r; c0 = c1 = c; }
    r0 = std::min(r0, r); r1 = std::max(r1, r); c0 = std::min(c0, c); c1 = std::max(c1, c);
  }
};

struct Dense {
  int8_t c[kRows * kCols];
  bool down[kRows * kCols];
};

constexpr int kOrth[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};
constexpr int kDiag[4][2] = {{-1, -1}, {-1, 1}, {1, 1}, {1, -1}};

inline int8_t Get(const Dense& d, int r, int c) {
  return (r < 0 || c < 0 || r >= kRows || c >= kCols) ? static_cast<int8_t>(kNone) : d.c[r * kCols + c];
}
inline bool Down(const Dense& d, int r, int c) {
  return r >= 0 && c >= 0 && r < kRows && c < kCols && d.down[r * kCols + c];
}

int Carcass(const Dense& d) {
  int total = 0;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      const int8_t k = d.c[r * kCols + c];
      if (k == kElephant) {
        int v = 6;
        for (auto& o : kOrth) {
          const int8_t n = Get(d, r + o[0], c + o[1]);
          if (n != kNone && kAnimal[n] && n != kElephant && !Down(d, r + o[0], c + o[1])) v -= 2;
        }
        total += std::max(v, 0);
      } else if (k == kHyena) {
        for (auto& o : kOrth)
          if (Down(d, r + 2 * o[0], c + 2 * o[1])) total += 3;
      } else if (k == kVulture) {
        for (int rr = r + 1; rr < kRows; ++rr)
          if (d.down[rr * kCols + c]) total += 4;
      }
    }
  return total;
}

struct Scored {
  int total = 0;
  int gazelles = 0;
};

// Scores a full grid; `prey` lists lion prey chosen during play (dense indices).
Scored ScoreGrid(Dense d, const std::vector<int>& chosen) {
  Scored s;
  bool seen[kRows * kCols] = {};
  bool tree_r[kRows] = {}, tree_c[kCols] = {};
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      const int i = r * kCols + c;
      const int8_t k = d.c[i];
      if (k == kWaterhole) {
        bool types[kTypes] = {};
        for (auto& o : kOrth) {
          const int8_t n = Get(d, r + o[0], c + o[1]);
          if (n != kNone && kAnimal[n] && !types[n]) { types[n] = true; s.total += 2; }
        }
      } else if (k == kPrairie && !seen[i]) {
        int size = 0, stack[kRows * kCols], top = 0;
        stack[top++] = i;
        seen[i] = true;
        while (top) {
          const int j = stack[--top];
          ++size;
          const int jr = j / kCols, jc = j % kCols;
          for (auto& o : kOrth)
            if (Get(d, jr + o[0], jc + o[1]) == kPrairie && !seen[(jr + o[0]) * kCols + jc + o[1]]) {
              seen[(jr + o[0]) * kCols + jc + o[1]] = true;
              stack[top++] = (jr + o[0]) * kCols + jc + o[1];
            }
        }
        s.total += size >= 4 ? 16 : size * size;
      } else if (k == kTree) {
        tree_r[r] = tree_c[c] = true;
      } else if (k == kGazelle) {
        ++s.gazelles;
        s.total += 2;
      } else if (k == kZebra) {
        for (auto& o : kOrth)
          if (Get(d, r + o[0], c + o[1]) == kPrairie) s.total += 3;
      } else if (k == kGiraffe) {
        for (auto& o : kOrth)
          if (Get(d, r + o[0], c + o[1]) == kTree) { s.total += 5; break; }
      } else if (k == kCheetah) {
        for (auto& o : kDiag)
          if (Get(d, r + o[0], c + o[1]) == kGazelle) s.total += 3;
      }
    }
  for (bool b : tree_r) s.total += b ? 2 : 0;
  for (bool b : tree_c) s.total += b ? 2 : 0;
  // Cheetahs flip the gazelles they hunted.
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c)
      if (d.c[r * kCols + c] == kCheetah)
        for (auto& o : kDiag)
          if (Get(d, r + o[0], c + o[1]) == kGazelle) d.down[(r + o[0]) * kCols + c + o[1]] = true;
  // Lions next to a prairie eat one face-up gazelle or zebra each.
  int lions = 0;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c)
      if (d.c[r * kCols + c] == kLion)
        for (auto& o : kOrth)
          if (Get(d, r + o[0], c + o[1]) == kPrairie) { ++lions; break; }
  int eaten = 0;
  for (int i : chosen)
    if (eaten < lions && !d.down[i] && (d.c[i] == kGazelle || d.c[i] == kZebra)) { d.down[i] = true; ++eaten; }
  std::vector<int> prey;
  for (int i = 0; i < kRows * kCols; ++i)
    if ((d.c[i] == kGazelle || d.c[i] == kZebra) && !d.down[i]) prey.push_back(i);
  const int k = std::min<int>(lions - eaten, static_cast<int>(prey.size()));
  if (k > 0 && k < static_cast<int>(prey.size())) {
    // Best subset for elephants, hyenas and vultures, as the Lua rules do.
    int best = -1;
    std::vector<int> best_set, pick(static_cast<size_t>(k));
    auto rec = [&](auto&& self, int start, int depth) -> void {
      if (depth == k) {
        for (int t : pick) d.down[prey[static_cast<size_t>(t)]] = true;
        const int v = Carcass(d);
        for (int t : pick) d.down[prey[static_cast<size_t>(t)]] = false;
        if (v > best) {
          best = v;
          best_set.clear();
          for (int t : pick) best_set.push_back(prey[static_cast<size_t>(t)]);
        }
        return;
      }
      for (int t = start; t <= static_cast<int>(prey.size()) - (k - depth); ++t) {
        pick[static_cast<size_t>(depth)] = t;
        self(self, t + 1, depth + 1);
      }
    };
    rec(rec, 0, 0);
    for (int i : best_set) d.down[i] = true;
  } else if (k > 0) {
    for (int i : prey) d.down[i] = true;
  }
  s.total += 4 * (eaten + std::max(k, 0)) + Carcass(d);
  return s;
}

Dense ToDense(const Board& b) {
  Dense d;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      d.c[r * kCols + c] = b.At(b.r0 + r, b.c0 + c);
      d.down[r * kCols + c] = false;
    }
  return d;
}

// The draft both baselines play: the deck shuffled from `seed`, two rounds of 11 cards a hand
// and 10 simultaneous picks passed left then right. `choose(p, boards, distinct, nd, cells)`
// returns seat p's pick as {card, cell} among its hand's distinct cards (sorted) and its
// board's placeable cells, judging the boards as they were before anyone's pick this turn (it
// may try picks on them, and must leave them as it found them).
template <typename Choose>
std::vector<Board> PlayDraft(uint64_t seed, int players, Choose choose) {
  Rng rng(seed);
  std::vector<int8_t> deck;
  for (int t = 0; t < kTypes; ++t)
    for (int k = 0; k < kCounts[t]; ++k) deck.push_back(static_cast<int8_t>(t));
  for (size_t i = deck.size(); i > 1; --i) std::swap(deck[i - 1], deck[rng.Below(static_cast<uint32_t>(i))]);
  std::vector<Board> boards(static_cast<size_t>(players));
  std::vector<std::vector<int8_t>> hands(static_cast<size_t>(players));
  std::vector<std::pair<int8_t, int>> chosen(static_cast<size_t>(players));
  std::vector<int> cells;
  for (int round = 0; round < 2; ++round) {
    for (int k = 0; k < 11; ++k)
      for (auto& h : hands) { h.push_back(deck.back()); deck.pop_back(); }
    for (int pick = 0; pick < 10; ++pick) {
      for (int p = 0; p < players; ++p) {
        int8_t distinct[16];
        int nd = 0;
        for (int8_t c : hands[static_cast<size_t>(p)])
          if (std::find(distinct, distinct + nd, c) == distinct + nd) distinct[nd++] = c;
        std::sort(distinct, distinct + nd);
        boards[static_cast<size_t>(p)].Placeable(&cells);
        chosen[static_cast<size_t>(p)] = choose(p, boards, distinct, nd, cells);
      }
      for (int p = 0; p < players; ++p) {
        auto& h = hands[static_cast<size_t>(p)];
        const auto [card, cell] = chosen[static_cast<size_t>(p)];
        h.erase(std::find(h.begin(), h.end(), card));
        boards[static_cast<size_t>(p)].Place(cell, card);
      }
      if (pick < 9) {
        if (round == 0) std::rotate(hands.rbegin(), hands.rbegin() + 1, hands.rend());
        else std::rotate(hands.begin(), hands.begin() + 1, hands.end());
      }
    }
    for (auto& h : hands) h.clear();
  }
  return boards;
}

}  // namespace

int64_t NativeSavanePlayout(uint64_t seed, int players) {
  Rng bot(seed * 31);
  std::vector<Board> boards =
      PlayDraft(seed, players, [&](int, std::vector<Board>&, const int8_t* distinct, int nd, const std::vector<int>& cells) {
        const uint32_t m = bot.Below(static_cast<uint32_t>(nd * static_cast<int>(cells.size())));
        return std::pair<int8_t, int>{distinct[m / cells.size()], cells[m % cells.size()]};
      });
  // Lions with a real choice pick their prey at random, one at a time.
  std::vector<Scored> scored;
  for (auto& b : boards) {
    Dense d = ToDense(b);
    Dense probe = d;
    for (int i = 0; i < kRows * kCols; ++i)
      if (d.c[i] == kCheetah)
        for (auto& o : kDiag)
          if (Get(d, i / kCols + o[0], i % kCols + o[1]) == kGazelle) probe.down[(i / kCols + o[0]) * kCols + i % kCols + o[1]] = true;
    int lions = 0;
    for (int i = 0; i < kRows * kCols; ++i)
      if (d.c[i] == kLion)
        for (auto& o : kOrth)
          if (Get(d, i / kCols + o[0], i % kCols + o[1]) == kPrairie) { ++lions; break; }
    std::vector<int> prey, chosen;
    for (int i = 0; i < kRows * kCols; ++i)
      if ((d.c[i] == kGazelle || d.c[i] == kZebra) && !probe.down[i]) prey.push_back(i);
    while (lions > 0 && static_cast<int>(prey.size()) > lions) {
      const uint32_t k = bot.Below(static_cast<uint32_t>(prey.size()));
      chosen.push_back(prey[k]);
      prey.erase(prey.begin() + k);
      --lions;
    }
    scored.push_back(ScoreGrid(d, chosen));
  }
  // Gazelle majority 5/2 with the tie rule.
  int64_t sum = 0;
  for (size_t p = 0; p < scored.size(); ++p) {
    int rank = 1;
    for (size_t q = 0; q < scored.size(); ++q) rank += scored[q].gazelles > scored[p].gazelles;
    if (scored[p].gazelles > 0) sum += rank == 1 ? 5 : rank == 2 ? 2 : 0;
    sum += scored[p].total;
  }
  return sum;
}

namespace {

// Every seat's total: each grid with its lions' best prey, then the gazelle majority (5/2,
// competition ties), as the scripted score table.
void TableTotals(const std::vector<Board>& boards, int64_t* totals) {
  static const std::vector<int> kNoChoice;
  int gazelles[8] = {};
  const size_t n = boards.size();
  for (size_t p = 0; p < n; ++p) {
    const Scored s = ScoreGrid(ToDense(boards[p]), kNoChoice);
    totals[p] = s.total;
    gazelles[p] = s.gazelles;
  }
  for (size_t p = 0; p < n; ++p) {
    if (gazelles[p] <= 0) continue;
    int rank = 1;
    for (size_t q = 0; q < n; ++q) rank += gazelles[q] > gazelles[p];
    totals[p] += rank == 1 ? 5 : rank == 2 ? 2 : 0;
  }
}

}  // namespace

int64_t NativeSavaneGreedyGame(uint64_t seed, int players) {
  Rng bot(seed * 31);
  int64_t totals[8];
  std::vector<Board> boards = PlayDraft(
      seed, players, [&](int p, std::vector<Board>& table, const int8_t* distinct, int nd, const std::vector<int>& cells) {
        Board& mine = table[static_cast<size_t>(p)];
        std::pair<int8_t, int> pick{distinct[0], cells[0]};
        double best = -1e300;
        int ties = 0;
        for (int d = 0; d < nd; ++d)
          for (int cell : cells) {
            const Board keep = mine;
            mine.Place(cell, distinct[d]);
            TableTotals(table, totals);
            mine = keep;
            int64_t other = INT64_MIN;
            for (int q = 0; q < players; ++q)
              if (q != p) other = std::max(other, totals[q]);
            const double v = static_cast<double>(totals[p]) - (other == INT64_MIN ? 0.0 : 0.5 * static_cast<double>(other));
            if (v > best) {
              best = v;
              ties = 1;
              pick = {distinct[d], cell};
            } else if (v == best && bot.Below(static_cast<uint32_t>(++ties)) == 0) {
              pick = {distinct[d], cell};
            }
          }
        return pick;
      });
  TableTotals(boards, totals);
  int64_t sum = 0;
  for (int p = 0; p < players; ++p) sum += totals[p];
  return sum;
}

}  // namespace plateau::bench

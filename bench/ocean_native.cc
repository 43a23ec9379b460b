// Native Océan baseline for plateau-bench (see ocean_native.h). Same rules as
// games/ecosysteme-ocean/rules.lua with its default parameters (hand_size 10, competition
// plankton ties, octopus moves that keep the grid connected, flipped whales still acting),
// and the same decisions a random bot faces there: the draft's (distinct card x placeable
// cell), the octopus question's listed answers, one question per whale with two or more
// face-up neighbours. Since every whale has acted by the end, the final score never runs the
// Lua's best-flip search, so none is needed here.
#include "bench/ocean_native.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "host/rng.h"

namespace plateau::bench {

const char* const kOceanCategoryNames[kOceanCategories] = {
    "coral", "krill", "plankton", "grouper", "clownfish", "crab",
    "moray_eel", "shark", "whale", "food_chain_bonus", "sea_turtle", "octopus"};

namespace {

enum Card : int8_t { kNone = -1, kCoral, kKrill, kPlankton, kGrouper, kClownfish, kCrab, kMoray, kShark, kWhale, kTurtle, kOctopus, kTypes };
constexpr const char* kIds[kTypes] = {"coral", "krill", "plankton", "grouper", "clownfish", "crab",
                                      "moray_eel", "shark", "whale", "sea_turtle", "octopus"};
constexpr int kCounts[kTypes] = {12, 20, 20, 10, 14, 12, 8, 8, 6, 12, 8};
constexpr bool kPrey[kTypes] = {false, false, false, true, true, true, false, false, false, false, false};
// Category slot of each card in kOceanCategoryNames (the bonus sits between whale and turtle).
constexpr int kBonus = 9;
constexpr int kSlot[kTypes] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11};

constexpr int kRows = 4, kCols = 5, kCells = kRows * kCols;
constexpr int kMaxPlayers = 6, kHandSize = 10, kPicks = 10, kRounds = 2;

// The draft's grid lives in a window much larger than the 4x5 frame: the frame floats, and
// octopus moves can shift the cards' bounding box at any time. The box is re-centred when it
// comes within kMargin cells of an edge, so candidate cells and their neighbours never need
// bounds checks.
constexpr int kWR = 12, kWC = 13, kWin = kWR * kWC, kMargin = 2;
constexpr int kStep[4] = {-kWC, 1, kWC, -1};

struct Board {
  int8_t cell[kWin];
  int count = 0, r0 = 0, r1 = -1, c0 = 0, c1 = -1;

  Board() { Clear(); }
  void Clear() {
    std::memset(cell, kNone, sizeof cell);
    count = 0;
    r0 = c0 = 0;
    r1 = c1 = -1;
  }
  bool Touches(int i) const {
    return cell[i - kWC] != kNone || cell[i + 1] != kNone || cell[i + kWC] != kNone || cell[i - 1] != kNone;
  }
  // The host's Grid::Placeable: empty cells touching a card whose frame stays within 4x5.
  int Placeable(int* out) const {
    if (count == 0) {
      out[0] = (kWR / 2) * kWC + kWC / 2;
      return 1;
    }
    const int lo_r = std::max(r0 - 1, r1 - kRows + 1), hi_r = std::min(r1 + 1, r0 + kRows - 1);
    const int lo_c = std::max(c0 - 1, c1 - kCols + 1), hi_c = std::min(c1 + 1, c0 + kCols - 1);
    int n = 0;
    for (int r = lo_r; r <= hi_r; ++r)
      for (int c = lo_c; c <= hi_c; ++c) {
        const int i = r * kWC + c;
        if (cell[i] == kNone && Touches(i)) out[n++] = i;
      }
    return n;
  }
  void Place(int i, int8_t card) {
    const int r = i / kWC, c = i % kWC;
    cell[i] = card;
    if (count++ == 0) {
      r0 = r1 = r;
      c0 = c1 = c;
    } else {
      r0 = std::min(r0, r); r1 = std::max(r1, r);
      c0 = std::min(c0, c); c1 = std::max(c1, c);
    }
    Recentre();
  }
  // After an octopus move: the card left the box's edge or landed one cell outside it.
  void RecomputeBounds() {
    const int lr = r0 - 1, hr = r1 + 1, lc = c0 - 1, hc = c1 + 1;
    r0 = c0 = kWin;
    r1 = c1 = -1;
    for (int r = lr; r <= hr; ++r)
      for (int c = lc; c <= hc; ++c)
        if (cell[r * kWC + c] != kNone) {
          r0 = std::min(r0, r); r1 = std::max(r1, r);
          c0 = std::min(c0, c); c1 = std::max(c1, c);
        }
    Recentre();
  }
  void Recentre() {
    if (r0 >= kMargin && r1 < kWR - kMargin && c0 >= kMargin && c1 < kWC - kMargin) return;
    const int dr = (kWR - (r1 - r0 + 1)) / 2 - r0, dc = (kWC - (c1 - c0 + 1)) / 2 - c0;
    int8_t moved[kWin];
    std::memset(moved, kNone, sizeof moved);
    for (int r = r0; r <= r1; ++r)
      for (int c = c0; c <= c1; ++c) moved[(r + dr) * kWC + c + dc] = cell[r * kWC + c];
    std::memcpy(cell, moved, sizeof cell);
    r0 += dr; r1 += dr; c0 += dc; c1 += dc;
  }
};

struct Option {
  int8_t kind;  // 0 skip, 1 move, 2 swap
  int16_t from, to;
};
// Skip, at most 20 sources x 42 destinations around a 4x5 box, and 190 swaps.
constexpr int kMaxOptions = 1 + kCells * 42 + kCells * (kCells - 1) / 2;

// The octopus question of rules.lua's octopus_moves: skip; every move of one card to an empty
// cell touching another card that keeps the frame within 4x5 and the cards connected; every
// swap of two different cards.
int OctopusOptions(const Board& b, Option* out) {
  int n = 0;
  out[n++] = {0, -1, -1};
  if (b.count <= 1) return n;
  int list[kCells], nl = 0;
  int8_t pos[kWin];  // window cell -> index in list
  for (int r = b.r0; r <= b.r1; ++r)
    for (int c = b.c0; c <= b.c1; ++c)
      if (b.cell[r * kWC + c] != kNone) {
        pos[r * kWC + c] = static_cast<int8_t>(nl);
        list[nl++] = r * kWC + c;
      }
  // Empty cells touching a card, with the cards they touch (as list indices).
  int dests[64], nd = 0;
  int8_t near[64][4], nnear[64];
  for (int r = b.r0 - 1; r <= b.r1 + 1; ++r)
    for (int c = b.c0 - 1; c <= b.c1 + 1; ++c) {
      const int i = r * kWC + c;
      if (b.cell[i] != kNone) continue;
      int8_t k = 0;
      for (int d : kStep)
        if (b.cell[i + d] != kNone) near[nd][k++] = pos[i + d];
      if (k) {
        nnear[nd] = k;
        dests[nd++] = i;
      }
    }
  int8_t adj[kCells][4], deg[kCells];
  int row_count[kWR] = {}, col_count[kWC] = {};
  for (int k = 0; k < nl; ++k) {
    ++row_count[list[k] / kWC];
    ++col_count[list[k] % kWC];
    deg[k] = 0;
    for (int d : kStep)
      if (b.cell[list[k] + d] != kNone) adj[k][deg[k]++] = pos[list[k] + d];
  }
  // Articulation points (Tarjan): only taking one of them away splits the other cards, so
  // only they need the components counted. A grid that is already split gets them counted
  // for every source.
  int disc[kCells], low[kCells], timer = 0;
  bool cut[kCells] = {};
  for (int k = 0; k < nl; ++k) disc[k] = -1;
  auto dfs = [&](auto&& self, int u, int parent) -> void {
    disc[u] = low[u] = timer++;
    int children = 0;
    for (int t = 0; t < deg[u]; ++t) {
      const int v = adj[u][t];
      if (v == parent) continue;
      if (disc[v] >= 0) {
        low[u] = std::min(low[u], disc[v]);
      } else {
        self(self, v, u);
        low[u] = std::min(low[u], low[v]);
        ++children;
        if (parent >= 0 && low[v] >= disc[u]) cut[u] = true;
      }
    }
    if (parent < 0 && children > 1) cut[u] = true;
  };
  dfs(dfs, 0, -1);
  if (timer < nl) std::fill(cut, cut + nl, true);
  int8_t comp[kCells];
  int stack[kCells];
  for (int a = 0; a < nl; ++a) {
    const int src = list[a];
    const int sr = src / kWC, sc = src % kWC;
    // The frame of the other cards: the box, less an edge line that held only the source.
    int minr = b.r0, maxr = b.r1, minc = b.c0, maxc = b.c1;
    while (row_count[minr] - (minr == sr) == 0) ++minr;
    while (row_count[maxr] - (maxr == sr) == 0) --maxr;
    while (col_count[minc] - (minc == sc) == 0) ++minc;
    while (col_count[maxc] - (maxc == sc) == 0) --maxc;
    // Components of the other cards: a destination keeps the grid connected when it touches
    // every one of them.
    uint32_t all = 0;
    if (cut[a]) {
      std::fill(comp, comp + nl, 0);
      comp[a] = -1;
      int ncomp = 0;
      for (int k = 0; k < nl; ++k) {
        if (comp[k] != 0) continue;
        comp[k] = static_cast<int8_t>(++ncomp);
        int top = 0;
        stack[top++] = k;
        while (top) {
          const int u = stack[--top];
          for (int t = 0; t < deg[u]; ++t) {
            const int v = adj[u][t];
            if (comp[v] == 0) {
              comp[v] = static_cast<int8_t>(ncomp);
              stack[top++] = v;
            }
          }
        }
      }
      all = ((1u << ncomp) - 1) << 1;  // component labels 1..ncomp
    }
    for (int t = 0; t < nd; ++t) {
      uint32_t reached = 0;
      bool touch = false;
      for (int k = 0; k < nnear[t]; ++k) {
        const int f = near[t][k];
        if (f != a) {
          touch = true;
          if (cut[a]) reached |= 1u << comp[f];
        }
      }
      if (!touch || reached != all) continue;
      const int e = dests[t], er = e / kWC, ec = e % kWC;
      const int rows = std::max(maxr, er) - std::min(minr, er) + 1, cols = std::max(maxc, ec) - std::min(minc, ec) + 1;
      if (rows <= kRows && cols <= kCols) out[n++] = {1, static_cast<int16_t>(src), static_cast<int16_t>(e)};
    }
  }
  for (int a = 0; a + 1 < nl; ++a)
    for (int k = a + 1; k < nl; ++k)
      if (b.cell[list[a]] != b.cell[list[k]]) out[n++] = {2, static_cast<int16_t>(list[a]), static_cast<int16_t>(list[k])};
  return n;
}

void ApplyOption(const Option& o, Board* b) {
  if (o.kind == 1) {
    b->cell[o.to] = b->cell[o.from];
    b->cell[o.from] = kNone;
    b->RecomputeBounds();
  } else if (o.kind == 2) {
    std::swap(b->cell[o.from], b->cell[o.to]);
  }
}

// Points of one grid's face-up cards per category (plankton and bonus left at 0: they need
// every seat); returns its face-up plankton.
int GridPoints(const OceanGrid& g, int* pts) {
  int row_plankton[kRows] = {}, row_prey[kRows] = {}, col_prey[kCols] = {};
  bool turtle_row[kRows] = {}, turtle_col[kCols] = {};
  int planktons = 0, krills = 0;
  auto up = [&](int i, int8_t card) { return g.card[i] == card && !g.down[i]; };
  for (int i = 0; i < kCells; ++i) {
    const int8_t k = g.card[i];
    if (k == kNone || g.down[i]) continue;
    const int r = i / kCols, c = i % kCols;
    if (k == kPlankton) {
      ++planktons;
      ++row_plankton[r];
    } else if (k == kKrill) {
      ++krills;
    } else if (k == kTurtle) {
      turtle_row[r] = turtle_col[c] = true;
    } else if (kPrey[k]) {
      ++row_prey[r];
      ++col_prey[c];
    }
  }
  std::fill(pts, pts + kOceanCategories, 0);
  // Krill: each connected group of face-up krill scores 1/4/9 for 1/2/3+ cards.
  bool seen[kCells] = {};
  for (int i = 0; i < kCells; ++i) {
    if (seen[i] || !up(i, kKrill)) continue;
    int stack[kCells], top = 0, size = 0;
    stack[top++] = i;
    seen[i] = true;
    while (top) {
      const int j = stack[--top];
      ++size;
      const int jr = j / kCols, jc = j % kCols;
      const int nb[4] = {jr > 0 ? j - kCols : -1, jc < kCols - 1 ? j + 1 : -1, jr < kRows - 1 ? j + kCols : -1, jc > 0 ? j - 1 : -1};
      for (int f : nb)
        if (f >= 0 && !seen[f] && up(f, kKrill)) {
          seen[f] = true;
          stack[top++] = f;
        }
    }
    pts[kSlot[kKrill]] += size >= 3 ? 9 : size * size;
  }
  for (int r = 0; r < kRows; ++r) pts[kSlot[kTurtle]] += turtle_row[r] ? 2 : 0;
  for (int c = 0; c < kCols; ++c) pts[kSlot[kTurtle]] += turtle_col[c] ? 2 : 0;
  for (int i = 0; i < kCells; ++i) {
    const int8_t k = g.card[i];
    if (k == kNone || g.down[i]) continue;
    const int r = i / kCols, c = i % kCols;
    const int nb[4] = {r > 0 ? i - kCols : -1, c < kCols - 1 ? i + 1 : -1, r < kRows - 1 ? i + kCols : -1, c > 0 ? i - 1 : -1};
    switch (k) {
      case kCoral:
        if (r == kRows - 1) pts[kSlot[kCoral]] += 3;
        break;
      case kGrouper:
        for (int f : nb)
          if (f >= 0 && up(f, kKrill)) pts[kSlot[kGrouper]] += 3;
        break;
      case kClownfish:
        for (int f : nb)
          if (f >= 0 && (up(f, kPlankton) || up(f, kCoral))) pts[kSlot[kClownfish]] += 2;
        break;
      case kCrab:
        pts[kSlot[kCrab]] += 2 * row_plankton[r];
        break;
      case kMoray: {
        int prey = 0;
        bool fed = false;
        for (int f : nb) {
          if (f < 0 || g.down[f] || g.card[f] == kNone) continue;
          if (g.card[f] == kCoral) fed = true;
          else if (kPrey[g.card[f]]) ++prey;
        }
        if (fed) pts[kSlot[kMoray]] += 4 * prey;
        break;
      }
      case kShark:
        pts[kSlot[kShark]] += 2 * (row_prey[r] + col_prey[c]);
        break;
      case kWhale:
        pts[kSlot[kWhale]] += 2 * krills;
        break;
      case kOctopus:
        pts[kSlot[kOctopus]] += 3;
        break;
      default:
        break;
    }
  }
  return planktons;
}

// The grid's bounding box, which is the full 4x5 frame once the draft is over.
OceanGrid ToGrid(const Board& b) {
  OceanGrid g;
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) {
      g.card[r * kCols + c] = b.cell[(b.r0 + r) * kWC + b.c0 + c];
      g.down[r * kCols + c] = false;
    }
  return g;
}

// The whales of one grid act in reading order, each flipping a random face-up neighbour when
// it has two or more (the Lua game's flip question), the only one when it has one.
void WhaleFlips(OceanGrid* g, Rng* bot) {
  for (int i = 0; i < kCells; ++i) {
    if (g->card[i] != kWhale) continue;
    const int r = i / kCols, c = i % kCols;
    int opts[4], n = 0;
    const int nb[4] = {r > 0 ? i - kCols : -1, c < kCols - 1 ? i + 1 : -1, r < kRows - 1 ? i + kCols : -1, c > 0 ? i - 1 : -1};
    for (int f : nb)
      if (f >= 0 && g->card[f] != kNone && !g->down[f]) opts[n++] = f;
    if (n >= 2) g->down[opts[bot->Below(static_cast<uint32_t>(n))]] = true;
    else if (n == 1) g->down[opts[0]] = true;
  }
}

}  // namespace

int OceanCardIndex(const std::string& id) {
  for (int t = 0; t < kTypes; ++t)
    if (id == kIds[t]) return t;
  return -1;
}

void NativeOceanScore(const OceanGrid* grids, int players, int neutral_plankton, OceanScore* out) {
  int counts[kMaxPlayers + 1];
  for (int p = 0; p < players; ++p) counts[p] = GridPoints(grids[p], out[p].points);
  const int seats = players + (neutral_plankton >= 0 ? 1 : 0);
  if (neutral_plankton >= 0) counts[players] = neutral_plankton;
  static constexpr int kPlanktonPoints[3] = {12, 8, 4};
  for (int p = 0; p < players; ++p) {
    int* pts = out[p].points;
    // Competition ranking: 1 + the seats with more plankton; no plankton, no rank.
    if (counts[p] > 0) {
      int rank = 1;
      for (int q = 0; q < seats; ++q) rank += counts[q] > counts[p];
      pts[kSlot[kPlankton]] = rank <= 3 ? kPlanktonPoints[rank - 1] : 0;
    }
    const int producer = pts[kSlot[kCoral]] + pts[kSlot[kKrill]] + pts[kSlot[kPlankton]];
    const int prey = pts[kSlot[kGrouper]] + pts[kSlot[kClownfish]] + pts[kSlot[kCrab]];
    const int predator = pts[kSlot[kMoray]] + pts[kSlot[kShark]] + pts[kSlot[kWhale]];
    pts[kBonus] = std::min({producer, prey, predator});
    out[p].total = producer + prey + predator + pts[kBonus] + pts[kSlot[kTurtle]] + pts[kSlot[kOctopus]];
  }
}

void NativeOceanOctopusOptions(const int8_t* cells, int rows, int cols, std::vector<OceanOctopusOption>* out) {
  out->clear();
  Board b;
  const int top = (kWR - rows) / 2, left = (kWC - cols) / 2;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int8_t k = cells[r * cols + c];
      if (k != kNone) b.Place((top + r) * kWC + left + c, k);
    }
  static thread_local Option opts[kMaxOptions];
  const int n = OctopusOptions(b, opts);
  auto rel = [&](int i, int* r, int* c) {
    *r = i / kWC - b.r0;
    *c = i % kWC - b.c0;
  };
  for (int k = 0; k < n; ++k) {
    OceanOctopusOption o{opts[k].kind, 0, 0, 0, 0};
    if (o.kind != 0) {
      rel(opts[k].from, &o.from_row, &o.from_col);
      rel(opts[k].to, &o.to_row, &o.to_col);
    }
    out->push_back(o);
  }
}

int64_t NativeOceanPlayout(uint64_t seed, int players) {
  if (players < 2 || players > kMaxPlayers) return 0;
  Rng rng(seed);
  std::array<int8_t, 130> deck;
  int nd = 0;
  for (int t = 0; t < kTypes; ++t)
    for (int k = 0; k < kCounts[t]; ++k) deck[static_cast<size_t>(nd++)] = static_cast<int8_t>(t);
  for (int i = nd; i > 1; --i) std::swap(deck[static_cast<size_t>(i - 1)], deck[rng.Below(static_cast<uint32_t>(i))]);
  // With 2 players a neutral hand rotates with theirs and drops a random card on its pile at
  // each pick; only its plankton matter.
  const bool neutral = players == 2;
  const int nhands = players + (neutral ? 1 : 0);
  Board boards[kMaxPlayers];
  int8_t hands[kMaxPlayers + 1][kHandSize];
  int hsize[kMaxPlayers + 1];
  int hold[kMaxPlayers + 1];  // seat -> the hand it holds now (the hands travel, not the seats)
  int pile_plankton = 0;
  int cells[kWin];
  static thread_local Option opts[kMaxOptions];
  Rng bot(seed * 31);
  for (int round = 0; round < kRounds; ++round) {
    for (int h = 0; h < nhands; ++h) {
      for (int k = 0; k < kHandSize; ++k) hands[h][k] = deck[static_cast<size_t>(--nd)];
      hsize[h] = kHandSize;
      hold[h] = h;
    }
    for (int pick = 0; pick < kPicks; ++pick) {
      for (int p = 0; p < players; ++p) {
        int8_t* hand = hands[hold[p]];
        int& size = hsize[hold[p]];
        unsigned present = 0;
        for (int k = 0; k < size; ++k) present |= 1u << hand[k];
        int8_t distinct[kTypes];
        int n = 0;
        for (int t = 0; t < kTypes; ++t)
          if (present & (1u << t)) distinct[n++] = static_cast<int8_t>(t);
        Board& b = boards[p];
        const int nc = b.Placeable(cells);
        const uint32_t m = bot.Below(static_cast<uint32_t>(n * nc));
        const int8_t card = distinct[m / static_cast<uint32_t>(nc)];
        for (int k = 0; k < size; ++k)
          if (hand[k] == card) {
            hand[k] = hand[--size];
            break;
          }
        b.Place(cells[m % static_cast<uint32_t>(nc)], card);
        if (card == kOctopus) {
          // Only skip listed: the Lua game asks nothing.
          const int no = OctopusOptions(b, opts);
          if (no > 1) ApplyOption(opts[bot.Below(static_cast<uint32_t>(no))], &b);
        }
      }
      if (neutral) {
        int8_t* hand = hands[hold[players]];
        int& size = hsize[hold[players]];
        const uint32_t k = rng.Below(static_cast<uint32_t>(size));
        pile_plankton += hand[k] == kPlankton;
        hand[k] = hand[--size];
      }
      if (pick + 1 < kPicks) {
        // Round 1 passes left (seat k receives seat k-1's hand), round 2 right.
        if (round == 0) std::rotate(hold, hold + nhands - 1, hold + nhands);
        else std::rotate(hold, hold + 1, hold + nhands);
      }
    }
  }
  OceanGrid grids[kMaxPlayers];
  for (int p = 0; p < players; ++p) {
    grids[p] = ToGrid(boards[p]);
    WhaleFlips(&grids[p], &bot);
  }
  OceanScore scores[kMaxPlayers];
  NativeOceanScore(grids, players, neutral ? pile_plankton : -1, scores);
  int64_t sum = 0;
  for (int p = 0; p < players; ++p) sum += scores[p].total;
  return sum;
}

}  // namespace plateau::bench

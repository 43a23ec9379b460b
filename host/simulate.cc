// Batch simulation across threads and the designer's report (see simulate.h).
#include "host/simulate.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace plateau {

double Stat::Stdev() const {
  if (n < 2) return 0;
  const double m = Mean();
  return std::sqrt(std::max(0.0, sum2 / static_cast<double>(n) - m * m));
}

void TagOutcome::Merge(const TagOutcome& o) {
  games += o.games;
  rounds.Merge(o.rounds);
  top_score.Merge(o.top_score);
  spread.Merge(o.spread);
  for (const auto& [k, v] : o.endings) endings[k] += v;
  for (const auto& [len, v] : o.by_length) {
    auto& mine = by_length[len];
    mine.first.Merge(v.first);
    mine.second.Merge(v.second);
  }
}

SameLengthEffect SameLength(const TagOutcome& tag, const TagOutcome& all) {
  SameLengthEffect e;
  double top = 0, spread = 0;
  for (const auto& [len, with] : tag.by_length) {
    auto it = all.by_length.find(len);
    if (it == all.by_length.end()) continue;
    const double n_with = static_cast<double>(with.first.n);
    const double n_without = static_cast<double>(it->second.first.n) - n_with;
    if (n_with <= 0 || n_without <= 0) continue;
    const double top_without = (it->second.first.sum - with.first.sum) / n_without;
    const double spread_without = (it->second.second.sum - with.second.sum) / n_without;
    top += n_with * (with.first.Mean() - top_without);
    spread += n_with * (with.second.Mean() - spread_without);
    e.games_compared += with.first.n;
  }
  if (e.games_compared > 0) {
    e.top_score = top / static_cast<double>(e.games_compared);
    e.spread = spread / static_cast<double>(e.games_compared);
  }
  return e;
}

void BotRecord::Merge(const BotRecord& o) {
  player_games += o.player_games;
  wins += o.wins;
  totals.Merge(o.totals);
}

void FeelRecord::Merge(const FeelRecord& o) {
  games += o.games;
  by_round += o.by_round;
  samples += o.samples;
  lead_changes.Merge(o.lead_changes);
  lead_for_good.Merge(o.lead_for_good);
  from_last += o.from_last;
  from_behind += o.from_behind;
  drama += o.drama;
  for (int i = 0; i < 4; ++i) gap[i].Merge(o.gap[i]);
  dead.Merge(o.dead);
  decisions += o.decisions;
  single_move += o.single_move;
  all_equal += o.all_equal;
  kingmaking_games += o.kingmaking_games;
  kingmaking_found += o.kingmaking_found;
  kingmaking_decisions += o.kingmaking_decisions;
  kingmaking_replays += o.kingmaking_replays;
  kingmaking_cut += o.kingmaking_cut;
}

void MeanInterval(const Stat& s, double* lo, double* hi) {
  const double n = static_cast<double>(s.n);
  const double half = s.n > 1 ? 1.959964 * s.Stdev() * std::sqrt(n / (n - 1)) / std::sqrt(n) : 0;
  *lo = s.Mean() - half;
  *hi = s.Mean() + half;
}

GameFeel FeelOfGame(const std::vector<std::vector<int64_t>>& totals) {
  GameFeel g;
  const size_t samples = totals.size();
  if (samples == 0 || totals.back().size() < 2) return g;
  // The sole leader of a sample, or -1 when the lead is shared.
  auto leader = [&](size_t k) {
    int best = -1;
    int64_t top = INT64_MIN;
    bool tie = false;
    for (size_t s = 0; s < totals[k].size(); ++s) {
      if (totals[k][s] > top) {
        top = totals[k][s];
        best = static_cast<int>(s);
        tie = false;
      } else if (totals[k][s] == top) {
        tie = true;
      }
    }
    return tie ? -1 : best;
  };
  int last_leader = -1;
  for (size_t k = 0; k < samples; ++k) {
    const int l = leader(k);
    if (l < 0) continue;
    if (last_leader >= 0 && l != last_leader) ++g.lead_changes;
    last_leader = l;
  }
  for (int i = 0; i < 4; ++i) {
    const size_t at = static_cast<size_t>(std::max(0.0, std::ceil(kGapAt[i] * static_cast<double>(samples)) - 1));
    std::vector<int64_t> v = totals[std::min(at, samples - 1)];
    std::sort(v.begin(), v.end(), std::greater<int64_t>());
    g.gap[i] = static_cast<double>(v[0] - v[1]);
  }
  const int w = leader(samples - 1);
  if (w < 0) return g;
  g.single_winner = true;
  size_t first = samples - 1;
  while (first > 0 && leader(first - 1) == w) --first;
  g.lead_for_good = static_cast<double>(first) / static_cast<double>(samples);
  const double scale = std::max(1.0, std::fabs(static_cast<double>(totals.back()[static_cast<size_t>(w)])));
  const size_t from = static_cast<size_t>(std::max(0.0, std::ceil(kComebackFrom * static_cast<double>(samples)) - 1));
  for (size_t k = from; k + 1 < samples; ++k) {
    const int64_t mine = totals[k][static_cast<size_t>(w)];
    int64_t lowest_other = INT64_MAX, best_other = INT64_MIN;
    for (size_t s = 0; s < totals[k].size(); ++s)
      if (static_cast<int>(s) != w) {
        lowest_other = std::min(lowest_other, totals[k][s]);
        best_other = std::max(best_other, totals[k][s]);
      }
    if (mine < lowest_other) g.from_last = true;
    if (static_cast<double>(best_other - mine) > kComebackMargin * scale) g.from_behind = true;
  }
  return g;
}

void CardBalance::Merge(const CardBalance& o) {
  points.Merge(o.points);
  copies += o.copies;
  points_sum += o.points_sum;
  offered += o.offered;
  picked += o.picked;
}

namespace {

size_t CategoryIndex(SimulationReport* r, const std::string& cat, int seats, size_t hint = 0) {
  // Games list their categories in the same order every time: try the expected slot first.
  if (hint < r->categories.size() && r->categories[hint] == cat) return hint;
  size_t k = 0;
  while (k < r->categories.size() && r->categories[k] != cat) ++k;
  if (k == r->categories.size()) {
    r->categories.push_back(cat);
    r->category.emplace_back(static_cast<size_t>(seats));
  }
  return k;
}

// Copies of each card type on the seat's grid, indexed by card id.
void CountCopies(const State& s, int seat, std::vector<int>* out) {
  out->assign(s.cards ? s.cards->size() : 0, 0);
  const int g = s.index().grid[static_cast<size_t>(seat)];
  if (g < 0) return;
  const Grid& grid = s.grids[static_cast<size_t>(g)].second;
  std::vector<Coord> cells;
  grid.OccupiedCells(&cells);
  for (const auto& c : cells) {
    const Cell* cell = grid.Get(c.row, c.col);
    if (cell && !cell->empty() && static_cast<size_t>(cell->item) < out->size()) ++(*out)[static_cast<size_t>(cell->item)];
  }
}

// Adds one finished game: `stats` is what the game's stats hook returned.
void Accumulate(const State& state, const PlayResult& result, const Json& stats, const std::vector<std::string>& seat_bot,
                SimulationReport* r) {
  const int players = static_cast<int>(seat_bot.size());
  const ScoreTable& t = result.scores;
  int64_t best = INT64_MIN, worst = INT64_MAX;
  int winners = 0;
  std::vector<double> share(static_cast<size_t>(players), 0);
  for (const auto& line : t.lines)
    if (line.seat >= 0 && line.seat < players) {
      if (line.total > best) { best = line.total; winners = 1; }
      else if (line.total == best) ++winners;
      worst = std::min(worst, line.total);
    }
  for (const auto& line : t.lines) {
    if (line.seat < 0 || line.seat >= players) continue;
    const size_t s = static_cast<size_t>(line.seat);
    r->seat_totals[s].Add(static_cast<double>(line.total));
    r->seat_score_counts[s][line.total] += 1;
    if (line.total == best) share[s] = 1.0 / winners;
    r->seat_wins[s] += share[s];
    BotRecord& bot = r->bots[seat_bot[s]];
    ++bot.player_games;
    bot.wins += share[s];
    bot.totals.Add(static_cast<double>(line.total));
    std::vector<int> copies;
    bool counted = false;
    size_t slot = 0;
    for (const auto& [cat, v] : line.breakdown) {
      const size_t k = CategoryIndex(r, cat, players, slot);
      slot = k + 1;
      r->category[k][s].Add(static_cast<double>(v));
      // Which categories are card ids is worked out once per category, not per game.
      if (r->category_cards.size() < r->categories.size()) r->category_cards.resize(r->categories.size(), -2);
      int& known = r->category_cards[k];
      if (known == -2) known = state.cards ? state.cards->Find(cat) : kNoCard;
      const CardId card = known;
      if (card == kNoCard) continue;
      if (!counted) {
        CountCopies(state, line.seat, &copies);
        counted = true;
      }
      if (r->category_balance.size() < r->categories.size()) r->category_balance.resize(r->categories.size());
      CardBalance& b = r->category_balance[k];
      const int n = static_cast<size_t>(card) < copies.size() ? copies[static_cast<size_t>(card)] : 0;
      b.copies += n;
      b.points_sum += static_cast<double>(v);
      if (n > 0) b.points.Add(static_cast<double>(v));
    }
  }
  for (auto it = t.extra.begin(); it != t.extra.end(); ++it)
    if (it->is_string() || it->is_boolean()) {
      const std::string v = it->is_string() ? it->get<std::string>() : (it->get<bool>() ? "true" : "false");
      Json& counts = r->extra_counts[it.key()];
      if (!counts.is_object()) counts = Json::object();
      counts[v] = counts.value(v, 0) + 1;
    }

  // The game's own measurements.
  double rounds = state.flow.round + 1;
  if (stats.contains("rounds") && stats["rounds"].is_number()) rounds = stats["rounds"].get<double>();
  std::string ending = result.stopped ? "round limit" : "";
  if (ending.empty() && stats.contains("ending") && stats["ending"].is_string()) ending = stats["ending"];
  if (ending.empty()) ending = "rules";
  r->rounds.Add(rounds);
  r->round_counts[static_cast<int64_t>(std::llround(rounds))] += 1;
  r->endings[ending] += 1;
  r->top_score.Add(static_cast<double>(best));
  r->spread.Add(static_cast<double>(best - worst));
  TagOutcome game;
  game.games = 1;
  game.rounds.Add(rounds);
  game.top_score.Add(static_cast<double>(best));
  game.spread.Add(static_cast<double>(best - worst));
  game.endings[ending] = 1;
  auto& at_length = game.by_length[std::llround(rounds)];
  at_length.first.Add(static_cast<double>(best));
  at_length.second.Add(static_cast<double>(best - worst));
  r->all.Merge(game);
  if (stats.contains("tags") && stats["tags"].is_array()) {
    std::set<std::string> seen;
    for (const auto& tag : stats["tags"])
      if (tag.is_string() && seen.insert(tag.get<std::string>()).second) r->tags[tag.get<std::string>()].Merge(game);
  }
  if (stats.contains("counts") && stats["counts"].is_object())
    for (auto it = stats["counts"].begin(); it != stats["counts"].end(); ++it)
      if (it->is_number()) r->counts[it.key()].Add(it->get<double>());
  if (stats.contains("players") && stats["players"].is_array())
    for (size_t s = 0; s < stats["players"].size() && s < static_cast<size_t>(players); ++s) {
      const Json& p = stats["players"][s];
      if (!p.is_object()) continue;
      for (auto it = p.begin(); it != p.end(); ++it) {
        if (!it->is_number()) continue;
        PlayerMetric& m = r->metrics[it.key()];
        const double v = it->get<double>();
        m.value.Add(v);
        if (v > 0) {
          ++m.happened;
          m.wins_when += share[s];
        }
      }
    }
}

// One game's score over time and decisions, into the report's feel.
void AddFeel(const ScoreTrack& t, int players, FeelRecord* f) {
  if (players < 2 || t.totals.empty()) return;
  ++f->games;
  if (t.by_round) ++f->by_round;
  f->samples += static_cast<int64_t>(t.totals.size());
  const GameFeel g = FeelOfGame(t.totals);
  f->lead_changes.Add(g.lead_changes);
  if (g.single_winner) {
    f->lead_for_good.Add(g.lead_for_good);
    f->from_last += g.from_last;
    f->from_behind += g.from_behind;
    f->drama += g.from_last || g.from_behind;
  }
  for (int i = 0; i < 4; ++i) f->gap[i].Add(g.gap[i]);
  f->decisions += t.decisions;
  f->single_move += t.single_move;
  f->all_equal += t.all_equal;
  if (t.decisions > 0) f->dead.Add(static_cast<double>(t.single_move + t.all_equal) / t.decisions);
}

}  // namespace

void MergeReport(const SimulationReport& p, int players, SimulationReport* r) {
  r->games += p.games;
  r->failed += p.failed;
  r->stopped += p.stopped;
  r->stopped_by_rules += p.stopped_by_rules;
  for (size_t s = 0; s < p.seat_totals.size(); ++s) {
    r->seat_totals[s].Merge(p.seat_totals[s]);
    for (const auto& [total, n] : p.seat_score_counts[s]) r->seat_score_counts[s][total] += n;
    r->seat_wins[s] += p.seat_wins[s];
  }
  for (size_t k = 0; k < p.categories.size(); ++k) {
    const size_t j = CategoryIndex(r, p.categories[k], players);
    for (size_t s = 0; s < p.category[k].size(); ++s) r->category[j][s].Merge(p.category[k][s]);
  }
  for (const auto& e : p.first_errors)
    if (r->first_errors.size() < 5) r->first_errors.push_back(e);
  for (auto seed : p.stopped_seeds)
    if (r->stopped_seeds.size() < 5) r->stopped_seeds.push_back(seed);
  for (auto seed : p.rules_stopped_seeds)
    if (r->rules_stopped_seeds.size() < 5) r->rules_stopped_seeds.push_back(seed);
  for (auto it = p.extra_counts.begin(); it != p.extra_counts.end(); ++it) {
    Json& counts = r->extra_counts[it.key()];
    if (!counts.is_object()) counts = Json::object();
    for (auto v = it->begin(); v != it->end(); ++v) counts[v.key()] = counts.value(v.key(), int64_t{0}) + v->get<int64_t>();  // the host's own counts
  }
  r->rounds.Merge(p.rounds);
  for (const auto& [k, n] : p.round_counts) r->round_counts[k] += n;
  r->top_score.Merge(p.top_score);
  r->spread.Merge(p.spread);
  for (const auto& [k, v] : p.endings) r->endings[k] += v;
  for (const auto& [k, v] : p.counts) r->counts[k].Merge(v);
  for (const auto& [k, v] : p.metrics) r->metrics[k].Merge(v);
  for (const auto& [k, v] : p.tags) r->tags[k].Merge(v);
  for (const auto& [k, v] : p.bots) r->bots[k].Merge(v);
  r->all.Merge(p.all);
  for (const auto& [k, v] : p.cards) r->cards[k].Merge(v);
  r->feel.Merge(p.feel);
  for (size_t k = 0; k < p.category_balance.size() && k < p.category_cards.size(); ++k)
    if (p.category_cards[k] >= 0) r->cards[p.categories[k]].Merge(p.category_balance[k]);
}

void InitReport(const SimulationSpec& spec, SimulationReport* r) {
  r->players = spec.players;
  r->seat_totals.assign(static_cast<size_t>(spec.players), Stat{});
  r->seat_wins.assign(static_cast<size_t>(spec.players), 0);
  r->seat_score_counts.assign(static_cast<size_t>(spec.players), {});
  r->rotate_seats = spec.rotate_seats;
  for (int s = 0; s < spec.players; ++s) {
    const std::string& bot = spec.rotate_seats ? "rotating" : spec.bots[static_cast<size_t>(s) % spec.bots.size()];
    r->seat_bots.push_back(bot);
    r->seat_names.push_back("P" + std::to_string(s + 1) + " (" + bot + ")");
  }
}

void FinishReport(int max_rounds, SimulationReport* r) {
  std::sort(r->stopped_seeds.begin(), r->stopped_seeds.end());
  std::sort(r->rules_stopped_seeds.begin(), r->rules_stopped_seeds.end());
  r->ComputeFindings(max_rounds);
}

int BlockGames(int games) {
  const int chunks = (std::max(games, 1) + kChunkGames - 1) / kChunkGames;
  return kChunkGames * ((chunks + kMaxBlocks - 1) / kMaxBlocks);
}

int BlockCount(int games) {
  const int size = BlockGames(games);
  return (std::max(games, 0) + size - 1) / size;
}

ShardSlice ShardOf(int games, int k, int n) {
  const int64_t blocks = BlockCount(games);
  ShardSlice s;
  s.first_block = static_cast<int>(blocks * (k - 1) / n);
  s.end_block = static_cast<int>(blocks * k / n);
  const int size = BlockGames(games);
  s.first_game = std::min(games, s.first_block * size);
  s.end_game = std::min(games, s.end_block * size);
  return s;
}

namespace {

// The bot of each seat in game `g` (counted from the run's first game).
std::vector<std::string> SeatBots(const SimulationSpec& spec, int g) {
  std::vector<std::string> out(static_cast<size_t>(spec.players));
  for (int s = 0; s < spec.players; ++s) {
    const int k = spec.rotate_seats ? (s + g) % spec.players : s;
    out[static_cast<size_t>(s)] = spec.bots[static_cast<size_t>(k) % spec.bots.size()];
  }
  return out;
}

// Counts of draft picks per card id, kept in flat vectors because they are updated on every
// move of every simulated game; turned into the report's per-card balance at the end.
struct PickCounts {
  std::vector<int64_t> offered, picked;
  std::vector<uint32_t> seen;  // per card id: the last observation that counted it
  uint32_t stamp = 0;
};

// Records which card types a seat had in hand when it picked one (a draft pick: the move
// names a card that is in the seat's hand).
void ObservePick(const State& s, int seat, const Move& m, PickCounts* p) {
  if (m.card == kNoCard || !s.cards || seat < 0 || static_cast<size_t>(seat) >= s.seats.size()) return;
  const int h = s.index().hand[static_cast<size_t>(seat)];
  if (h < 0) return;
  const auto& cards = s.zones[static_cast<size_t>(h)].cards;
  if (std::find(cards.begin(), cards.end(), m.card) == cards.end()) return;
  const size_t n = s.cards->size();
  if (p->offered.size() < n) {
    p->offered.resize(n, 0);
    p->picked.resize(n, 0);
    p->seen.resize(n, 0);
  }
  ++p->stamp;
  for (CardId c : cards) {
    const size_t i = static_cast<size_t>(c);
    if (i >= n || p->seen[i] == p->stamp) continue;
    p->seen[i] = p->stamp;
    ++p->offered[i];
  }
  ++p->picked[static_cast<size_t>(m.card)];
}

void AddPicks(const PickCounts& p, const CardSet& cards, SimulationReport* r) {
  // In a game that drafts from hands, every card type of the data gets a row, so one that no
  // hand ever held shows up (a finding) instead of being left out of the table.
  if (!p.offered.empty())
    for (size_t i = 0; i < cards.size(); ++i) r->cards[cards.Name(static_cast<CardId>(i))];
  for (size_t i = 0; i < p.offered.size(); ++i) {
    if (p.offered[i] == 0) continue;
    CardBalance& b = r->cards[cards.Name(static_cast<CardId>(i))];
    b.offered += p.offered[i];
    b.picked += p.picked[i];
  }
}


// The seats that share the top total of a score table, as bits.
uint64_t Winners(const ScoreTable& t) {
  int64_t best = INT64_MIN;
  for (const auto& line : t.lines) best = std::max(best, line.total);
  uint64_t mask = 0;
  for (const auto& line : t.lines)
    if (line.total == best && line.seat >= 0 && line.seat < 64) mask |= uint64_t{1} << line.seat;
  return mask;
}

// Kingmaking in one game (README "How the game feels", after Jaffe's restricted play): the
// game is played again with its seed and bots, its decisions kept; then, from its last
// decision back, each decision of a player who did not win is replayed from up to
// kKingmakingAlternatives of its legal moves (the one chosen first), the rest of the game
// played by fresh bots with the game's bot seeds, the same for every alternative. A player who
// wins after none of them could no longer win; if the alternatives still end with different
// winners, that player chose who wins. At most kKingmakingReplays replays a game.
Status Kingmaking(Rules& rules, const SimulationSpec& spec, uint64_t seed, const std::vector<std::string>& seat_bot,
                  FeelRecord* f) {
  const int players = spec.players;
  auto make_bots = [&](std::vector<std::unique_ptr<Bot>>* owned, std::vector<Bot*>* bots) {
    owned->clear();
    bots->clear();
    for (int s = 0; s < players; ++s) {
      std::string error;
      owned->push_back(MakeBot(seat_bot[static_cast<size_t>(s)], seed * 31 + static_cast<uint64_t>(s), &error, &rules.info()));
      owned->back()->set_stop(spec.cancel);
      bots->push_back(owned->back().get());
    }
  };
  struct Decision {
    State before;
    int seat;
    Move chosen;
  };
  std::vector<Decision> decisions;
  std::vector<std::unique_ptr<Bot>> owned;
  std::vector<Bot*> bots;
  make_bots(&owned, &bots);
  State state;
  Status st = rules.NewGame(spec.params, players, seed, &state);
  if (!st.ok()) return st;
  state.record = false;
  std::vector<int> seats;
  for (int moves = 0;; ) {
    st = rules.ToMove(state, &seats);
    if (!st.ok()) return st;
    if (seats.empty()) break;
    for (int seat : seats) {
      if (seat < 0 || seat >= players) return Status::Input("no bot for seat " + std::to_string(seat + 1));
      Move m;
      st = bots[static_cast<size_t>(seat)]->ChooseIn(rules, &state, seat, &m);
      if (!st.ok()) return st;
      decisions.push_back({state, seat, m});
      st = rules.Apply(&state, seat, m);
      if (!st.ok()) return st;
      if (++moves > PlayLimits().max_moves) return Status::Input("kingmaking: the game did not end");
    }
    if (spec.max_rounds > 0 && state.flow.round + 1 > spec.max_rounds) break;
  }
  ScoreTable final_scores;
  st = rules.Score(state, &final_scores);
  if (!st.ok()) return st;
  const uint64_t won = Winners(final_scores);
  PlayLimits limits;
  limits.max_rounds = spec.max_rounds;
  std::vector<Move> legal;
  int replays = 0;
  bool found = false, cut = false;
  for (size_t d = decisions.size(); d-- > 0 && !found;) {
    const Decision& at = decisions[d];
    if (won & (uint64_t{1} << at.seat)) continue;
    st = rules.LegalMoves(at.before, at.seat, &legal);
    if (!st.ok()) return st;
    if (legal.size() < 2) continue;
    // The chosen move first, then others spread over the list.
    std::vector<Move> tried = {at.chosen};
    std::vector<Move> others;
    for (const auto& m : legal)
      if (!(m == at.chosen)) others.push_back(m);
    const size_t more = std::min(others.size(), static_cast<size_t>(kKingmakingAlternatives - 1));
    for (size_t i = 0; i < more; ++i) tried.push_back(others[i * others.size() / more]);
    if (replays + static_cast<int>(tried.size()) > kKingmakingReplays) {
      cut = true;
      break;
    }
    ++f->kingmaking_decisions;
    std::vector<uint64_t> outcomes;
    bool can_win = false;
    for (const auto& m : tried) {
      State copy = at.before;
      if (!rules.Apply(&copy, at.seat, m).ok()) continue;
      make_bots(&owned, &bots);
      PlayResult result;
      st = PlayOut(rules, &copy, bots, &result, limits);
      if (!st.ok()) return st;
      ++replays;
      const uint64_t w = Winners(result.scores);
      if (w & (uint64_t{1} << at.seat)) {
        can_win = true;
        break;
      }
      outcomes.push_back(w);
    }
    if (can_win || outcomes.empty()) continue;
    for (uint64_t w : outcomes) found = found || w != outcomes.front();
  }
  ++f->kingmaking_games;
  f->kingmaking_found += found;
  f->kingmaking_replays += replays;
  f->kingmaking_cut += cut && !found;
  return Status::Ok();
}

}  // namespace

Status Simulate(const RulesFactory& factory, const SimulationSpec& spec, SimulationReport* report) {
  if (spec.games < 1) return Status::Input("-n must be at least 1");
  if (spec.threads < 1 || spec.threads > 64) return Status::Input("--threads must be between 1 and 64");
  if (spec.bots.empty()) return Status::Input("at least one bot is needed");
  if (spec.max_rounds < 0) return Status::Input("--max-rounds must be 0 (none) or more");
  if (spec.shards != 0 && (spec.shards < 1 || spec.shard < 1 || spec.shard > spec.shards))
    return Status::Input("--shard must be K/N with 1 <= K <= N");
  // The game's declared bot options are known once its rules load; those rules then play the
  // first worker's games (a load is tens of milliseconds, a tenth of a short run).
  std::unique_ptr<Rules> spare;
  {
    const GameInfo* info = factory(&spare).ok() && spare ? &spare->info() : nullptr;
    for (const auto& b : spec.bots) {
      std::string error;
      if (!MakeBot(b, 0, &error, info)) return Status::Input("--bots: " + error);
    }
  }
  // Games are played in chunks of consecutive seeds, on any thread, and each chunk's report is
  // merged in chunk order into its block, each block into the total in block order (see
  // kMaxBlocks): sums of fractions (shared wins, means of a game's own statistics) then add up
  // in the same order whatever the number of threads, so the report is the same for any
  // --threads, and for a merge of --shard slices.
  constexpr int kChunk = kChunkGames;
  const ShardSlice slice = spec.shards ? ShardOf(spec.games, spec.shard, spec.shards) : ShardOf(spec.games, 1, 1);
  const int first_chunk = slice.first_game / kChunk;
  const int chunks = (slice.end_game + kChunk - 1) / kChunk;  // the end of the chunks to play
  const int block_chunks = BlockGames(spec.games) / kChunk;
  const int planned = slice.end_game - slice.first_game;      // games this run plays
  if (spec.outcomes) spec.outcomes->assign(static_cast<size_t>(spec.games), GameOutcome());
  std::atomic<int> next{first_chunk}, done{0};
  // The lowest game that could not be set up: games after it are not played, games before it
  // still are, so the failure reported is the first one in seed order for any --threads.
  std::atomic<int> stop_after{std::numeric_limits<int>::max()};
  std::mutex mu;  // guards everything below it up to `start`
  SimulationReport r;
  InitReport(spec, &r);
  std::map<int, SimulationReport> finished;  // chunks done but not merged yet
  int merged = first_chunk;                  // chunks merged into their block
  SimulationReport block;                    // the block being summed, from its chunks
  InitReport(spec, &block);
  bool block_open = false;                   // it holds a chunk not yet in r
  // A finished block goes into the total (and, for plateau merge, into spec.blocks as it is).
  auto close_block = [&]() {
    MergeReport(block, spec.players, &r);
    if (spec.blocks) spec.blocks->push_back(std::move(block));
    block = SimulationReport();
    InitReport(spec, &block);
    block_open = false;
  };
  Status first_failure;
  int first_failure_game = std::numeric_limits<int>::max();
  int failures = 0;
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&]() {
    std::unique_ptr<Rules> rules;
    {
      std::lock_guard<std::mutex> lock(mu);
      rules = std::move(spare);
    }
    Status st = rules ? Status::Ok() : factory(&rules);
    if (!st.ok()) {
      std::lock_guard<std::mutex> lock(mu);
      if (first_failure_game >= 0) {  // the rules do not load: nothing else is worth reporting
        first_failure = st;
        first_failure_game = -1;
      }
      stop_after.store(-1, std::memory_order_relaxed);
      return;
    }
    const auto worker_start = std::chrono::steady_clock::now();
    if (spec.profile) rules->EnableCallStats(true);
    PickCounts picks;
    std::shared_ptr<const CardSet> card_set;
    PlayLimits limits;
    limits.max_rounds = spec.max_rounds;
    ScoreTrack track;
    if (spec.feel) limits.track = &track;
    limits.before_move = [&picks](const State& s, int seat, const Move& m) { ObservePick(s, seat, m, &picks); };
    for (;;) {
      const int c = next.fetch_add(1);
      if (c >= chunks || c * kChunk > stop_after.load(std::memory_order_relaxed)) break;
      if (spec.cancel && spec.cancel->load()) break;
      SimulationReport p;
      InitReport(spec, &p);
      for (int g = c * kChunk; g < std::min(spec.games, (c + 1) * kChunk) && g <= stop_after.load(std::memory_order_relaxed);
           ++g) {
        const uint64_t seed = spec.seed + static_cast<uint64_t>(g);
        const std::vector<std::string> seat_bot = SeatBots(spec, g);
        std::vector<std::unique_ptr<Bot>> owned;
        std::vector<Bot*> bots;
        for (int s = 0; s < spec.players; ++s) {
          std::string error;
          owned.push_back(MakeBot(seat_bot[static_cast<size_t>(s)], seed * 31 + static_cast<uint64_t>(s), &error, &rules->info()));
          owned.back()->set_stop(spec.cancel);  // a cancel stops a long decision, not only the next game
          bots.push_back(owned.back().get());
        }
        State state;
        st = rules->NewGame(spec.params, spec.players, seed, &state);
        // A game that cannot be set up says something about the parameters, the data or the
        // setup script (an override the schema could not judge, a rule that refuses the data):
        // the run ends with that error, and its seed, instead of a report of zeros.
        if (!st.ok()) {
          std::lock_guard<std::mutex> lock(mu);
          if (g < first_failure_game) {
            first_failure = st;
            first_failure_game = g;
            stop_after.store(g, std::memory_order_relaxed);
          }
          break;
        }
        PlayResult result;
        Json stats;
        state.record = false;
        st = PlayOut(*rules, &state, bots, &result, limits);
        if (st.ok()) st = rules->Stats(state, &stats);
        // The rules' own safety net (a round limit of theirs) is a stop like the host's: the
        // game did not reach one of its endings.
        bool rules_stopped = false;
        if (st.ok() && stats.is_object() && stats.contains("stopped")) {
          const Json& v = stats["stopped"];
          if (!v.is_boolean())
            st = {ErrorKind::kScript, "stats: 'stopped' must be true or false, got " + v.dump(), {}, {}};
          else rules_stopped = v.get<bool>() && !result.stopped;
        }
        if (rules_stopped) {
          result.stopped = true;
          ++p.stopped_by_rules;
          if (p.rules_stopped_seeds.size() < 5) p.rules_stopped_seeds.push_back(seed);
        }
        if (!st.ok()) {
          ++p.failed;
          if (p.first_errors.size() < 5) p.first_errors.push_back("seed " + std::to_string(seed) + ": " + st.message);
          std::string bots_text;
          for (const auto& b : seat_bot) bots_text += (bots_text.empty() ? "" : ",") + b;
          const std::string repro = "seed " + std::to_string(seed) + " (game " + std::to_string(g + 1) + " of " +
                                    std::to_string(spec.games) + ") failed; reproduce with: plateau play " +
                                    (spec.game.empty() ? rules->info().id : spec.game) + " --players " + std::to_string(spec.players) + " --seed " +
                                    std::to_string(seed) + " --bots " + bots_text +
                                    (spec.params.empty() ? "" : " (with the run's --set values, if any)");
          std::lock_guard<std::mutex> lock(mu);
          ++failures;
          if (spec.max_failures <= 1) {
            // The first failure in seed order, whatever the threads: games after it are not played.
            if (g < first_failure_game) {
              first_failure = st;
              first_failure.context = repro + (st.context.empty() ? "" : "; " + st.context);
              first_failure_game = g;
              stop_after.store(g, std::memory_order_relaxed);
            }
            break;
          }
          if (failures >= spec.max_failures) stop_after.store(g, std::memory_order_relaxed);
          // A budget kill, a memory failure or a stack overflow leaves the VM at its worst (a
          // grown stack, garbage at the cap): the next game starts on fresh rules.
          if (st.kind == ErrorKind::kBudget || st.kind == ErrorKind::kMemory ||
              st.message.find("stack overflow") != std::string::npos) {
            std::unique_ptr<Rules> fresh;
            if (factory(&fresh).ok() && fresh) {
              if (spec.profile) {
                rules->AddCallStats(&r.calls);
                fresh->EnableCallStats(true);
              }
              rules = std::move(fresh);
            }
          }
        } else {
          ++p.games;
          if (result.stopped) {
            ++p.stopped;
            if (!rules_stopped && p.stopped_seeds.size() < 5) p.stopped_seeds.push_back(seed);
          }
          Accumulate(state, result, stats, seat_bot, &p);
          if (spec.outcomes) {
            GameOutcome& o = (*spec.outcomes)[static_cast<size_t>(g)];
            o.played = true;
            o.winners = Winners(result.scores);
            o.top = INT64_MIN;
            for (const auto& line : result.scores.lines) o.top = std::max(o.top, line.total);
            o.second = o.top;
            bool any_other = false;
            for (const auto& line : result.scores.lines)
              if (line.total != o.top && (!any_other || line.total > o.second)) {
                o.second = line.total;
                any_other = true;
              }
            o.rounds = state.flow.round + 1;  // as the report counts a game's length
            if (stats.is_object() && stats.contains("rounds") && stats["rounds"].is_number()) o.rounds = stats["rounds"].get<double>();
          }
          if (spec.feel) AddFeel(track, spec.players, &p.feel);
          if (spec.feel && g < spec.kingmaking_games && spec.players >= 3 && spec.players <= 64) {
            st = Kingmaking(*rules, spec, seed, seat_bot, &p.feel);
            if (!st.ok()) {
              std::lock_guard<std::mutex> lock(mu);
              if (g < first_failure_game) {
                first_failure = st;
                first_failure.context = "kingmaking replays of seed " + std::to_string(seed) +
                                        (st.context.empty() ? "" : "; " + st.context);
                first_failure_game = g;
                stop_after.store(g, std::memory_order_relaxed);
              }
              break;
            }
          }
        }
        if (!card_set) card_set = state.cards;
        const int d = done.fetch_add(1) + 1;
        if (spec.done_games) spec.done_games->store(d);
        if (spec.progress && (d % std::max(1, planned / 50) == 0 || d == planned)) {
          std::lock_guard<std::mutex> lock(mu);
          const int width = 30;
          const int filled = static_cast<int>(static_cast<double>(d) / planned * width);
          std::fprintf(stderr, "\r[%s%s] %d/%d", std::string(static_cast<size_t>(filled), '#').c_str(),
                       std::string(static_cast<size_t>(width - filled), '.').c_str(), d, planned);
          std::fflush(stderr);
        }
      }
      std::lock_guard<std::mutex> lock(mu);
      finished.emplace(c, std::move(p));
      for (auto it = finished.find(merged); it != finished.end(); it = finished.find(merged)) {
        MergeReport(it->second, spec.players, &block);
        block_open = true;
        finished.erase(it);
        ++merged;
        if (merged % block_chunks == 0 || merged == chunks) close_block();
      }
    }
    // Pick counts are whole numbers: the order they are added in changes nothing.
    std::lock_guard<std::mutex> lock(mu);
    if (card_set) AddPicks(picks, *card_set, &r);
    if (spec.profile) {
      rules->AddCallStats(&r.calls);
      r.worker_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - worker_start).count();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < spec.threads; ++t) threads.emplace_back(worker);
  worker();
  for (auto& th : threads) th.join();
  if (spec.progress) std::fprintf(stderr, "\r%60s\r", "");
  // A cancel first: a bot stopped by it fails its game, which is not the rules' failure.
  if (spec.cancel && spec.cancel->load())
    return Status::Input("the simulation was cancelled after " + std::to_string(done.load()) + " of " +
                         std::to_string(planned) + " games");
  if (!first_failure.ok()) return first_failure;
  // A run stopped early (--keep-going's last failure) ends inside a block.
  if (block_open) close_block();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  FinishReport(spec.max_rounds, &r);
  *report = std::move(r);
  return Status::Ok();
}

std::string Format(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

namespace {

// "bought:gold" -> group "bought", member "gold"; keys without a colon have no group.
std::pair<std::string, std::string> SplitKey(const std::string& key) {
  const size_t c = key.find(':');
  if (c == std::string::npos) return {"", key};
  return {key.substr(0, c), key.substr(c + 1)};
}

}  // namespace

void WilsonInterval(double k, double n, double z, double* lo, double* hi) {
  if (n <= 0) {
    *lo = 0;
    *hi = 1;
    return;
  }
  const double p = k / n, z2 = z * z;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z / (1 + z2 / n) * std::sqrt(std::max(0.0, p * (1 - p) / n + z2 / (4 * n * n)));
  *lo = std::max(0.0, centre - half);
  *hi = std::min(1.0, centre + half);
}

namespace {

WinBalance Balance(double wins, double n, double fair, int tested_together) {
  WinBalance b;
  b.n = n;
  b.rate = n > 0 ? wins / n : 0;
  WilsonInterval(wins, n, 1.959964, &b.lo, &b.hi);
  if (tested_together < 1 || n <= 0 || !(fair > 0 && fair < 1)) return b;
  b.tested = true;
  b.fair = fair;
  b.edge = b.rate - fair;
  const double z = b.edge / std::sqrt(fair * (1 - fair) / n);
  b.p_value = std::erfc(std::fabs(z) / std::sqrt(2.0));
  b.level = kEdgeLevel / tested_together;
  b.significant = b.p_value < b.level;
  return b;
}

}  // namespace

WinBalance SimulationReport::SeatBalance(size_t s) const {
  if (s >= seat_wins.size() || players < 2) return Balance(s < seat_wins.size() ? seat_wins[s] : 0, games, 0, 0);
  double group_wins = 0;
  int group = 0;
  for (size_t o = 0; o < seat_wins.size(); ++o)
    if (seat_bots[o] == seat_bots[s]) {
      group_wins += seat_wins[o];
      ++group;
    }
  if (group < 2) return Balance(seat_wins[s], games, 0, 0);
  return Balance(seat_wins[s], games, games ? group_wins / group / games : 0, group);
}

WinBalance SimulationReport::BotBalance(const std::string& bot) const {
  const auto it = bots.find(bot);
  if (it == bots.end()) return {};
  const double n = static_cast<double>(it->second.player_games);
  if (!rotate_seats || bots.size() < 2 || players < 2) return Balance(it->second.wins, n, 0, 0);
  return Balance(it->second.wins, n, 1.0 / players, static_cast<int>(bots.size()));
}

void SimulationReport::ComputeFindings(int max_rounds) {
  findings.clear();
  if (games == 0) return;
  const double base = players > 0 ? 1.0 / players : 0;
  auto seed_list = [](const std::vector<uint64_t>& seeds) {
    std::string out;
    for (auto s : seeds) out += (out.empty() ? "" : ", ") + std::to_string(s);
    return out;
  };
  if (stopped > stopped_by_rules)
    findings.push_back(Format("%d of %d games did not end within %d rounds and were stopped (seeds %s)",
                              stopped - stopped_by_rules, games, max_rounds, seed_list(stopped_seeds).c_str()));
  if (stopped_by_rules > 0)
    findings.push_back(Format("%d of %d games reached the rules' own round limit before any of their endings and were "
                              "stopped there (seeds %s)", stopped_by_rules, games, seed_list(rules_stopped_seeds).c_str()));
  // A seat (or, with --rotate-seats, a bot) whose win rate lies off its fair share by more than
  // chance explains at the stated level (see WinBalance).
  auto edge_text = [](const WinBalance& b, const std::string& among) {
    return Format("%.1f%% (95%% interval %.1f-%.1f%%); a fair share%s is %.1f%%: %+.1f points, significant at the %g%% level "
                  "(p = %.2g, below %g%%: the level divided among the %.0f rates tested together)",
                  100 * b.rate, 100 * b.lo, 100 * b.hi, among.c_str(), 100 * b.fair, 100 * b.edge, 100 * kEdgeLevel, b.p_value,
                  100 * b.level, kEdgeLevel / b.level);
  };
  for (size_t s = 0; s < seat_wins.size(); ++s) {
    const WinBalance b = SeatBalance(s);
    if (b.significant)
      findings.push_back("seat edge: " + seat_names[s] + " wins " +
                         edge_text(b, seat_bots[s] == "rotating" ? std::string() : " among the seats played by " + seat_bots[s]));
  }
  for (const auto& [name, record] : bots) {
    const WinBalance b = BotBalance(name);
    if (b.significant) findings.push_back("bot edge: " + name + " (seats rotate) wins " + edge_text(b, " per seat"));
  }
  // How the game feels (the thresholds: simulate.h, README "How the game feels").
  if (feel.lead_for_good.n >= 2) {
    double lo, hi;
    MeanInterval(feel.lead_for_good, &lo, &hi);
    if (hi < kRunawayLeadFor)
      findings.push_back(Format("runaway leader: the winner leads for good from %.0f%% of the game on average (95%% interval "
                                "%.0f-%.0f%%, below %.0f%%)", 100 * feel.lead_for_good.Mean(), 100 * lo, 100 * hi,
                                100 * kRunawayLeadFor));
  }
  if (feel.dead.n >= 2) {
    double lo, hi;
    MeanInterval(feel.dead, &lo, &hi);
    if (lo > kDeadTurnShare)
      findings.push_back(Format("dead turns: %.0f%% of a game's decisions offer no real choice (95%% interval %.0f-%.0f%%, above "
                                "%.0f%%): one legal move, or moves the bots value all the same", 100 * feel.dead.Mean(),
                                100 * lo, 100 * hi, 100 * kDeadTurnShare));
  }
  if (feel.kingmaking_games > 0 &&
      static_cast<double>(feel.kingmaking_found) >= kKingmakingShare * static_cast<double>(feel.kingmaking_games)) {
    double lo, hi;
    WilsonInterval(static_cast<double>(feel.kingmaking_found), static_cast<double>(feel.kingmaking_games), 1.959964, &lo, &hi);
    findings.push_back(Format("kingmaking: in %lld of %lld sampled games (95%% interval %.0f-%.0f%%; %.0f%% or more is "
                              "flagged) a player who could no longer win chose who wins",
                              static_cast<long long>(feel.kingmaking_found), static_cast<long long>(feel.kingmaking_games),
                              100 * lo, 100 * hi, 100 * kKingmakingShare));
  }
  // Per-player measurements that never happen, or that go with losing.
  const int64_t player_games = static_cast<int64_t>(games) * players;
  for (const auto& [key, m] : metrics) {
    const auto [group, member] = SplitKey(key);
    if (m.happened == 0) {
      findings.push_back(Format("'%s' never happened in %d games", key.c_str(), games));
      continue;
    }
    if (group.empty()) continue;
    if (static_cast<double>(m.happened) < 0.01 * static_cast<double>(player_games))
      findings.push_back(Format("'%s' is rare: %.1f%% of player-games", key.c_str(),
                                100.0 * static_cast<double>(m.happened) / static_cast<double>(player_games)));
    const double rate = m.wins_when / static_cast<double>(m.happened);
    if (players > 1 && m.happened >= 30 && rate < 0.5 * base)
      findings.push_back(Format("'%s' goes with losing: those players win %.0f%% of games (a fair share is %.0f%%)",
                                key.c_str(), 100 * rate, 100 * base));
  }
  int64_t offers = 0;
  for (const auto& [card, b] : cards) offers += b.offered;
  for (const auto& [card, b] : cards) {
    if (b.offered >= 30 && b.picked == 0)
      findings.push_back(Format("card '%s' was offered %lld times and never picked", card.c_str(),
                                static_cast<long long>(b.offered)));
    // Only in a drafting game (some card was offered): a type no hand ever held.
    if (offers > 0 && b.offered == 0 && b.copies == 0)
      findings.push_back(Format("card '%s' was never offered in a hand (is it in the deck? a count of 0?)", card.c_str()));
  }
  // A card far weaker than the others a copy: a rule that seldom pays (a condition almost never
  // met, a typo in what it counts) shows here rather than only as a small number in the table.
  std::vector<double> per_copy;
  for (const auto& [card, b] : cards)
    if (b.copies >= kWeakCardCopies) per_copy.push_back(b.PerCopy());
  if (per_copy.size() >= 3) {
    std::sort(per_copy.begin(), per_copy.end());
    const size_t m = per_copy.size() / 2;
    const double median = per_copy.size() % 2 ? per_copy[m] : (per_copy[m - 1] + per_copy[m]) / 2;
    for (const auto& [card, b] : cards) {
      if (b.copies < kWeakCardCopies || median <= 0) continue;
      const double v = b.PerCopy();
      if (v < kWeakCardShare * median)
        findings.push_back(Format("weak card: '%s' scores %.2f points a copy placed, under a sixth of the median card's %.2f "
                                  "(a rule that seldom pays, or a card meant only to feed others' rules?)",
                                  card.c_str(), v, median));
    }
  }
}

static Json StatJson(const Stat& s) {
  return {{"mean", s.Mean()}, {"stdev", s.Stdev()}, {"min", s.Min()}, {"max", s.Max()}};
}

static Json BalanceJson(const WinBalance& b) {
  Json j = {{"win_rate", b.rate}, {"interval95", {b.lo, b.hi}}};
  if (b.tested) {
    j["fair_share"] = b.fair;
    j["edge"] = b.edge;
    j["p_value"] = b.p_value;
    j["level"] = b.level;
    j["significant"] = b.significant;
  }
  return j;
}

static Json MeanJson(const Stat& s) {
  Json j = StatJson(s);
  double lo, hi;
  MeanInterval(s, &lo, &hi);
  j["interval95"] = {lo, hi};
  j["n"] = s.n;
  return j;
}

static Json ShareJson(double k, double n) {
  double lo, hi;
  WilsonInterval(k, n, 1.959964, &lo, &hi);
  return {{"rate", n > 0 ? k / n : 0}, {"interval95", {lo, hi}}, {"count", k}, {"of", n}};
}

// The report's "feel" (README "How the game feels").
static Json FeelJson(const FeelRecord& f) {
  Json j = {{"games", f.games}, {"sampled_by_round", f.by_round}, {"samples", f.samples}};
  j["lead_changes"] = MeanJson(f.lead_changes);
  j["lead_for_good"] = MeanJson(f.lead_for_good);
  Json drama = ShareJson(static_cast<double>(f.drama), static_cast<double>(f.lead_for_good.n));
  drama["from_last"] = ShareJson(static_cast<double>(f.from_last), static_cast<double>(f.lead_for_good.n));
  drama["from_behind"] = ShareJson(static_cast<double>(f.from_behind), static_cast<double>(f.lead_for_good.n));
  drama["margin"] = kComebackMargin;
  j["drama"] = std::move(drama);
  Json gap = Json::object();
  for (int i = 0; i < 4; ++i) gap[Format("%.0f%%", 100 * kGapAt[i])] = MeanJson(f.gap[i]);
  j["score_gap"] = std::move(gap);
  Json dead = MeanJson(f.dead);
  dead["decisions"] = f.decisions;
  dead["single_move"] = f.single_move;
  dead["all_equal"] = f.all_equal;
  j["dead_turns"] = std::move(dead);
  if (f.kingmaking_games > 0) {
    Json k = ShareJson(static_cast<double>(f.kingmaking_found), static_cast<double>(f.kingmaking_games));
    k["decisions_checked"] = f.kingmaking_decisions;
    k["replays"] = f.kingmaking_replays;
    k["cut"] = f.kingmaking_cut;
    j["kingmaking"] = std::move(k);
  }
  return j;
}

static Json TagJson(const TagOutcome& t) {
  Json endings = Json::object();
  for (const auto& [k, v] : t.endings) endings[k] = v;
  return {{"games", t.games}, {"rounds", StatJson(t.rounds)}, {"top_score", StatJson(t.top_score)},
          {"spread", StatJson(t.spread)}, {"endings", endings}};
}

namespace {

// A call's microseconds per call, and its share of the threads' playing time (--profile).
double MicrosPerCall(const RulesCallStat& c) { return c.calls ? 1e6 * c.seconds / static_cast<double>(c.calls) : 0.0; }
double ShareOf(const RulesCallStat& c, double worker_seconds) { return worker_seconds > 0 ? c.seconds / worker_seconds : 0.0; }

}  // namespace

Json SimulationReport::ToJson() const {
  Json j;
  j["games"] = games;
  j["failed"] = failed;
  j["stopped"] = stopped;
  j["stopped_by_rules"] = stopped_by_rules;
  j["seconds"] = seconds;
  j["games_per_second"] = GamesPerSecond();
  Json seats = Json::array();
  for (size_t s = 0; s < seat_totals.size(); ++s) {
    Json e = StatJson(seat_totals[s]);
    e["seat"] = seat_names[s];
    e["bot"] = seat_bots[s];
    e["win_rate"] = games ? seat_wins[s] / games : 0;
    e["balance"] = BalanceJson(SeatBalance(s));
    seats.push_back(std::move(e));
  }
  j["seats"] = std::move(seats);
  Json bots = Json::object();
  for (const auto& [name, b] : this->bots)
    bots[name] = {{"seats", games ? static_cast<double>(b.player_games) / games : 0},
                  {"win_rate", b.player_games ? b.wins / static_cast<double>(b.player_games) : 0},
                  {"totals", StatJson(b.totals)}, {"balance", BalanceJson(BotBalance(name))}};
  j["bots"] = std::move(bots);
  j["rotate_seats"] = rotate_seats;
  j["rounds"] = StatJson(rounds);
  j["top_score"] = StatJson(top_score);
  j["spread"] = StatJson(spread);
  Json endings = Json::object();
  for (const auto& [k, v] : this->endings) endings[k] = v;
  j["endings"] = std::move(endings);
  Json cats = Json::object();
  for (size_t k = 0; k < categories.size(); ++k) {
    Json per = Json::array();
    Stat all;
    for (const auto& s : category[k]) {
      per.push_back(StatJson(s));
      all.Merge(s);
    }
    cats[categories[k]] = {{"all", StatJson(all)}, {"seats", std::move(per)}};
  }
  j["categories"] = std::move(cats);
  if (!counts.empty()) {
    Json c = Json::object();
    for (const auto& [k, v] : counts) c[k] = StatJson(v);
    j["counts"] = std::move(c);
  }
  if (!metrics.empty()) {
    Json m = Json::object();
    for (const auto& [k, v] : metrics) {
      Json e = StatJson(v.value);
      e["per_game"] = games ? v.value.sum / games : 0;  // all seats together; "mean" is one player's
      e["happened_rate"] = v.value.n ? static_cast<double>(v.happened) / static_cast<double>(v.value.n) : 0;
      e["win_rate_when_happened"] = v.happened ? v.wins_when / static_cast<double>(v.happened) : 0;
      m[k] = std::move(e);
    }
    j["player_metrics"] = std::move(m);
  }
  if (!tags.empty()) {
    Json t = Json::object();
    for (const auto& [k, v] : tags) {
      t[k] = TagJson(v);
      const SameLengthEffect e = SameLength(v, all);
      t[k]["same_length"] = {{"games_compared", e.games_compared},
                             {"top_score_difference", e.games_compared ? Json(e.top_score) : Json()},
                             {"spread_difference", e.games_compared ? Json(e.spread) : Json()}};
    }
    j["tags"] = std::move(t);
    j["all_games"] = TagJson(all);
  }
  if (!cards.empty()) {
    Json c = Json::object();
    for (const auto& [k, b] : cards)
      c[k] = {{"mean_points", b.points.Mean()},
              {"points_stdev", b.points.Stdev()},
              {"player_games", b.points.n},
              {"points_per_copy", b.PerCopy()},
              {"copies_per_player_game", seat_totals.empty() || games == 0 ? 0 : static_cast<double>(b.copies) / (static_cast<double>(games) * players)},
              {"offered", b.offered},
              {"pick_rate", b.offered ? static_cast<double>(b.picked) / static_cast<double>(b.offered) : 0}};
    j["cards"] = std::move(c);
  }
  if (!extra_counts.empty()) j["outcomes"] = extra_counts;
  if (feel.games > 0) j["feel"] = FeelJson(feel);
  j["findings"] = findings;
  if (!stopped_seeds.empty()) j["stopped_seeds"] = stopped_seeds;
  if (!rules_stopped_seeds.empty()) j["rules_stopped_seeds"] = rules_stopped_seeds;
  if (!first_errors.empty()) j["errors"] = first_errors;
  if (!calls.empty()) {
    Json p = Json::object();
    for (const auto& [name, c] : calls)
      p[name] = {{"calls", c.calls}, {"seconds", c.seconds}, {"us_per_call", MicrosPerCall(c)},
                 {"share", ShareOf(c, worker_seconds)}};
    j["profile"] = {{"worker_seconds", worker_seconds}, {"calls", std::move(p)}};
  }
  return j;
}

std::string SimulationReport::ToText() const {
  std::ostringstream out;
  out << Format("%d games (%d failed, %d stopped) in %.2f s: %.1f games/s\n\n", games, failed, stopped, seconds,
                GamesPerSecond());
  // The win rate's 95% interval and its edge over a fair share; '*' marks an edge significant
  // at the level the legend states (the findings name it).
  auto balance = [](const WinBalance& b) {
    std::string out = Format("   %6.1f%%  %5.1f-%5.1f%%", 100 * b.rate, 100 * b.lo, 100 * b.hi);
    if (b.tested) out += Format("  %+6.1f%s", 100 * b.edge, b.significant ? " *" : "");
    return out;
  };
  bool any_tested = false;
  out << "seat                 mean   stdev    min    max   win rate  95% interval  vs fair\n";
  for (size_t s = 0; s < seat_totals.size(); ++s) {
    const Stat& t = seat_totals[s];
    const WinBalance b = SeatBalance(s);
    any_tested = any_tested || b.tested;
    out << Format("%-18s %6.1f %7.1f %6.0f %6.0f", seat_names[s].c_str(), t.Mean(), t.Stdev(), t.Min(), t.Max()) + balance(b) + "\n";
  }
  if (bots.size() > 1) {
    out << Format("\nbot          seats    mean   win rate  95%% interval%s\n",
                  rotate_seats ? "  vs fair: win rate per seat (seats rotate every game)"
                               : ": win rate per seat (fixed seats: seat order counts in it)");
    for (const auto& [name, b] : bots) {
      const WinBalance wb = BotBalance(name);
      any_tested = any_tested || wb.tested;
      out << Format("%-12s %5.0f %7.1f", name.c_str(), games ? static_cast<double>(b.player_games) / games : 0.0, b.totals.Mean()) +
                 balance(wb) + "\n";
    }
  }
  if (any_tested)
    out << Format("vs fair: win rate minus a fair share (a seat: among seats played by the same bot; a bot: 1/players), in points;\n"
                  "* significant at the %g%% level (two-sided, divided among the rates tested together)\n", 100 * kEdgeLevel);
  out << Format("\nlength: %.1f rounds (stdev %.1f, %.0f-%.0f); winning total %.1f; spread first-last %.1f\n", rounds.Mean(),
                rounds.Stdev(), rounds.Min(), rounds.Max(), top_score.Mean(), spread.Mean());
  if (!endings.empty()) {
    out << "endings:";
    for (const auto& [k, v] : endings) out << Format("  %s %.0f%%", k.c_str(), games ? 100.0 * v / games : 0.0);
    out << "\n";
  }
  if (!categories.empty()) {
    out << "\ncategory (mean per seat)";
    for (size_t s = 0; s < seat_totals.size(); ++s) out << Format("%8s", ("P" + std::to_string(s + 1)).c_str());
    out << "     all   stdev\n";
    for (size_t k = 0; k < categories.size(); ++k) {
      out << Format("%-24s", categories[k].c_str());
      Stat all;
      for (const auto& s : category[k]) {
        out << Format("%8.2f", s.Mean());
        all.Merge(s);
      }
      out << Format("%8.2f%8.2f\n", all.Mean(), all.Stdev());
    }
  }
  if (!cards.empty()) {
    // points/holder: the mean over players who placed at least one copy (a card nobody took
    // would otherwise read as worth nothing).
    out << "\ncard balance             points/holder  points/copy  copies/player  pick rate when offered\n";
    for (const auto& [k, b] : cards) {
      const double per_player = games ? static_cast<double>(b.copies) / (static_cast<double>(games) * players) : 0;
      out << Format("%-24s %8.2f ±%5.2f %10.2f %13.2f %12s\n", k.c_str(), b.points.Mean(), b.points.Stdev(),
                    b.PerCopy(), per_player,
                    b.offered ? Format("%.1f%%", 100.0 * static_cast<double>(b.picked) / static_cast<double>(b.offered)).c_str() : "-");
    }
  }
  if (!counts.empty()) {
    out << "\nper game                       mean   stdev    min    max\n";
    for (const auto& [k, v] : counts)
      out << Format("%-28s %6.2f %7.2f %6.0f %6.0f\n", k.c_str(), v.Mean(), v.Stdev(), v.Min(), v.Max());
  }
  if (!metrics.empty()) {
    // Each number is the game's value for one player in one game, averaged over player-games
    // (a sum over the seats would read as one player's under this header: "held: dromedary
    // 15.7" against a cap of 5).
    out << "\nper player (one player, one game)  mean  happened  win rate when it happened\n";
    // Keys without a group first, then each group under its name.
    std::vector<std::pair<std::string, const PlayerMetric*>> ordered;
    for (const auto& [k, v] : metrics)
      if (k.find(':') == std::string::npos) ordered.emplace_back(k, &v);
    for (const auto& [k, v] : metrics)
      if (k.find(':') != std::string::npos) ordered.emplace_back(k, &v);
    std::string group;
    for (const auto& [k, vp] : ordered) {
      const PlayerMetric& v = *vp;
      const auto [g, member] = SplitKey(k);
      if (g != group && !g.empty()) out << g << ":\n";
      group = g;
      out << Format("  %-26s %8.2f %8.1f%% %10s\n", (g.empty() ? k : member).c_str(), v.value.n ? v.value.Mean() : 0.0,
                    v.value.n ? 100.0 * static_cast<double>(v.happened) / static_cast<double>(v.value.n) : 0.0,
                    v.happened ? Format("%.1f%%", 100.0 * v.wins_when / static_cast<double>(v.happened)).c_str() : "-");
    }
  }
  if (!tags.empty()) {
    out << Format("\ntag (games where it came up)   games   rounds  winning total  spread   same length: total, spread  "
                  "(all games: %.1f, %.1f, %.1f)\n",
                  all.rounds.Mean(), all.top_score.Mean(), all.spread.Mean());
    for (const auto& [k, t] : tags) {
      // Without the tag: the other games, from the totals. A tag in every game has nothing
      // to be compared with, which is not a difference of +mean.
      const double others = static_cast<double>(all.games - t.games);
      auto diff = [&](const Stat& a, const Stat& w) {
        return others > 0 ? Format("(%+.1f)", w.Mean() - (a.sum - w.sum) / others) : std::string("(n/a)");
      };
      out << Format("%-28s %7lld %6.1f %6s %7.1f %6s %6.1f %6s", k.c_str(), static_cast<long long>(t.games),
                    t.rounds.Mean(), diff(all.rounds, t.rounds).c_str(), t.top_score.Mean(),
                    diff(all.top_score, t.top_score).c_str(), t.spread.Mean(), diff(all.spread, t.spread).c_str());
      const SameLengthEffect e = SameLength(t, all);
      if (e.games_compared > 0)
        out << Format("   same length: %+.1f %+.1f (%lld games)", e.top_score, e.spread,
                      static_cast<long long>(e.games_compared));
      else
        out << "   same length: n/a";
      for (const auto& [name, n] : t.endings) out << Format("  %s %.0f%%", name.c_str(), 100.0 * n / t.games);
      out << "\n";
    }
    out << "  (in brackets: the difference from games without the tag, n/a when every game had it. A tag\n"
           "   that comes up more in long games goes with longer games whatever it does, so \"same length\"\n"
           "   compares the winning total and the spread with games of the same length without the tag)\n";
  }
  if (!extra_counts.empty()) out << "\noutcomes: " << extra_counts.dump() << "\n";
  if (feel.games > 0) {
    const FeelRecord& f = feel;
    auto mean = [](const Stat& s, double scale, const char* unit) {
      double lo, hi;
      MeanInterval(s, &lo, &hi);
      return scale == 1 ? Format("%.2f (95%% interval %.2f-%.2f)", s.Mean(), lo, hi)
                        : Format("%.1f%s (95%% interval %.1f-%.1f%s)", scale * s.Mean(), unit, scale * lo, scale * hi, unit);
    };
    auto share = [](int64_t k, int64_t n) {
      double lo, hi;
      WilsonInterval(static_cast<double>(k), static_cast<double>(n), 1.959964, &lo, &hi);
      return Format("%.1f%% (95%% interval %.1f-%.1f%%)", n ? 100.0 * static_cast<double>(k) / static_cast<double>(n) : 0.0,
                    100 * lo, 100 * hi);
    };
    out << Format("\nhow the game feels (%lld games, scores taken %s; README \"How the game feels\")\n",
                  static_cast<long long>(f.games),
                  f.by_round == f.games ? "at the end of each round and of each turn the seats play at once"
                  : f.by_round == 0  ? "after each move"
                                     : "at round ends in some games, after each move in others");
    out << "  lead changes per game       " << mean(f.lead_changes, 1, "") << "\n";
    out << "  winner leads for good from  " << mean(f.lead_for_good, 100, "%") << " of the game\n";
    out << "  drama: winner came back     " << share(f.drama, f.lead_for_good.n)
        << Format(": from last place %.1f%%, from behind by over %.0f%% of the winning total %.1f%%\n",
                  f.lead_for_good.n ? 100.0 * static_cast<double>(f.from_last) / static_cast<double>(f.lead_for_good.n) : 0.0,
                  100 * kComebackMargin,
                  f.lead_for_good.n ? 100.0 * static_cast<double>(f.from_behind) / static_cast<double>(f.lead_for_good.n) : 0.0);
    out << "  score gap, leader - second";
    for (int i = 0; i < 4; ++i) {
      double lo, hi;
      MeanInterval(f.gap[i], &lo, &hi);
      out << Format("%s %.0f%%: %.1f ±%.1f", i ? "," : "", 100 * kGapAt[i], f.gap[i].Mean(), (hi - lo) / 2);
    }
    out << "\n";
    out << "  dead turns                  " << mean(f.dead, 100, "%")
        << Format(" of a game's decisions: one legal move %.1f%%, all moves valued the same %.1f%%\n",
                  f.decisions ? 100.0 * static_cast<double>(f.single_move) / static_cast<double>(f.decisions) : 0.0,
                  f.decisions ? 100.0 * static_cast<double>(f.all_equal) / static_cast<double>(f.decisions) : 0.0);
    if (f.kingmaking_games > 0)
      out << "  kingmaking                  " << share(f.kingmaking_found, f.kingmaking_games)
          << Format(" of %lld sampled games (%lld decisions checked, %lld replays%s)\n",
                    static_cast<long long>(f.kingmaking_games), static_cast<long long>(f.kingmaking_decisions),
                    static_cast<long long>(f.kingmaking_replays),
                    f.kingmaking_cut ? Format("; %lld games ran out of replays", static_cast<long long>(f.kingmaking_cut)).c_str() : "");
  }
  out << "\nfindings:";
  if (findings.empty()) out << " none";
  out << "\n";
  for (const auto& f : findings) out << "  - " << f << "\n";
  if (!calls.empty()) {
    // Slowest first: what to look at to make the simulations faster.
    std::vector<std::pair<std::string, RulesCallStat>> order(calls.begin(), calls.end());
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.second.seconds > b.second.seconds; });
    double in_calls = 0;
    for (const auto& [name, c] : order) in_calls += c.seconds;
    out << Format("\nprofile: time in the rules' calls, %.2f s of %.2f s of play (all threads)\n", in_calls, worker_seconds);
    out << "call                          calls    total s   us/call   share\n";
    for (const auto& [name, c] : order)
      out << Format("%-26s %9lld %10.3f %9.1f %6.1f%%\n", name.c_str(), static_cast<long long>(c.calls), c.seconds,
                    MicrosPerCall(c), 100.0 * ShareOf(c, worker_seconds));
    out << "(a call's time includes the host services it uses; the rest is the host's own work. Times are\n"
           " wall-clock per thread: with more threads than idle cores they include waiting, so --threads 1\n"
           " gives the truest microseconds per call; the shares hold either way)\n";
  }
  for (const auto& e : first_errors) out << "error: " << e << "\n";
  return out.str();
}

}  // namespace plateau

// plateau-bench: speed figures printed as one JSON object per line,
// {"name": ..., "value": ..., "unit": ...}. Not part of the product; runs in under two minutes.
// Each figure alternates the runs it compares and keeps the median, so a noisy machine
// disturbs both sides alike.
//   plateau-bench                  every figure
//   plateau-bench --savane         only the Savane playout figures
//   plateau-bench --ocean          only the Océan playout figures
//   plateau-bench --bots           only the games between sensible bots (issue 19): greedy
//                                  Savane, Océan and Ecosystem, heuristic Chenilles, and
//                                  MCTS decisions in Savane
//   plateau-bench --safari-native [N] only the native Safari greedy figure, N games a run (600)
//   plateau-bench --check-ocean [N] holds the native Océan baseline to the Lua rules on N
//                                  seeded random-bot games with 4 players (200), plus N/4 each
//                                  with 2, 3, 5 and 6; exits 1 on any mismatch
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "bench/ocean_native.h"
#include "bench/safari_native.h"
#include "bench/savane_native.h"
#include "host/text.h"
#include "host/bots.h"
#include "host/draft.h"
#include "host/home.h"
#include "host/simulate.h"
#include "host/loader.h"
#include "scripting/lua_rules.h"
#include "scripting/reload.h"

namespace plateau {
namespace {

using Clock = std::chrono::steady_clock;

// CPU time of this thread: other processes on a noisy machine do not inflate it.
double ThreadSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void Print(const std::string& name, double value, const std::string& unit) {
  std::printf("{\"name\": \"%s\", \"value\": %.6g, \"unit\": \"%s\"}\n", name.c_str(), value, unit.c_str());
  std::fflush(stdout);
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Games per second of the Lua-scripted game through the same path as `plateau simulate`.
double LuaPlayouts(const std::string& game, int games, bool budget, uint64_t seed, bool feel = true) {
  SimulationSpec spec;
  spec.feel = feel;
  spec.games = games;
  spec.players = 4;
  spec.seed = seed;
  spec.bots = {"random"};
  spec.threads = 1;
  scripting::Limits limits;
  limits.budget = budget;
  Json params;
  std::unique_ptr<scripting::LuaRules> probe;
  if (!scripting::LuaRules::Load(game, limits, &probe).ok()) return 0;
  ResolveParams(probe->info(), Json::object(), &spec.params);
  SimulationReport report;
  const double t0 = ThreadSeconds();
  Status st = Simulate(
      [&](std::unique_ptr<Rules>* out) {
        std::unique_ptr<scripting::LuaRules> r;
        Status s = scripting::LuaRules::Load(game, limits, &r);
        *out = std::move(r);
        return s;
      },
      spec, &report);
  if (!st.ok() || report.failed) {
    std::fprintf(stderr, "bench: %s\n", st.ok() ? report.first_errors.front().c_str() : st.message.c_str());
    return 0;
  }
  // Rules loading is part of the run on purpose: `plateau simulate` pays it too.
  return games / (ThreadSeconds() - t0);
}

double NativePlayouts(int64_t (*playout)(uint64_t, int), int games, uint64_t seed) {
  const double t0 = ThreadSeconds();
  int64_t sink = 0;
  for (int g = 0; g < games; ++g) sink += playout(seed + static_cast<uint64_t>(g), 4);
  const double s = ThreadSeconds() - t0;
  if (sink == 42) std::fprintf(stderr, " ");
  return games / s;
}

// Microseconds to score one finished 4-player table of `game` through its Lua score hook.
double ScoreTableMicros(const std::string& game, int reps) {
  std::unique_ptr<scripting::LuaRules> rules;
  if (!scripting::LuaRules::Load(game, {}, &rules).ok()) return 0;
  Json params;
  ResolveParams(rules->info(), Json::object(), &params);
  State state;
  rules->NewGame(params, 4, 7, &state);
  std::vector<std::unique_ptr<Bot>> owned;
  std::vector<Bot*> bots;
  std::string error;
  for (int i = 0; i < 4; ++i) {
    owned.push_back(MakeBot("random", static_cast<uint64_t>(i), &error));
    bots.push_back(owned.back().get());
  }
  PlayResult result;
  if (!PlayOut(*rules, &state, bots, &result).ok()) return 0;
  ScoreTable table;
  const double t0 = ThreadSeconds();
  for (int i = 0; i < reps; ++i) rules->Score(state, &table);
  return (ThreadSeconds() - t0) * 1e6 / reps;
}

// Carcassonne Safari: random 4-player games through `plateau simulate`'s path (medians of 3),
// and one placement's feature update on the host's tile map (Place: the fit check, joining
// the tile's segments across its edges, and the features it completed), timed over replays
// of the placements of seeded random maps.
void SafariFigures(int games) {
  std::vector<double> rates;
  for (int rep = 0; rep < 3; ++rep) rates.push_back(LuaPlayouts("safari", games, true, 3000 + static_cast<uint64_t>(rep)));
  Print("safari_random_games_per_s", Median(rates), "games/s");
  GameFiles files;
  if (!LoadGameFiles("safari", &files).ok() || !files.tiles) return;
  const TileSet& set = *files.tiles;
  struct Step {
    int tile, row, col, rot;
  };
  std::vector<std::vector<Step>> maps;
  Rng rng;
  rng.Seed(11);
  for (int m = 0; m < 50; ++m) {
    TileMap map(files.tiles, {"bush", "dead_end"});
    std::vector<Step> steps;
    std::vector<int> bag;
    for (size_t t = 0; t < set.tiles.size(); ++t)
      if (!set.tiles[t].id.empty() && set.tiles[t].id.rfind("CSS", 0) != 0) bag.push_back(static_cast<int>(t));
    for (int k = 0; k < 72; ++k) {
      const int tile = bag[static_cast<size_t>(rng.Below(static_cast<uint32_t>(bag.size())))];
      std::vector<TilePlacement> p;
      map.Placements(tile, &p);
      if (p.empty()) continue;
      const TilePlacement pick = p[static_cast<size_t>(rng.Below(static_cast<uint32_t>(p.size())))];
      map.Place(tile, pick.cell.row, pick.cell.col, pick.rotation, nullptr, nullptr);
      steps.push_back({tile, pick.cell.row, pick.cell.col, pick.rotation});
    }
    maps.push_back(std::move(steps));
  }
  int64_t placed = 0;
  std::vector<int> completed;
  const double t0 = ThreadSeconds();
  for (int rep = 0; rep < 20; ++rep)
    for (const auto& steps : maps) {
      TileMap map(files.tiles, {"bush", "dead_end"});
      for (const Step& st : steps) {
        map.Place(st.tile, st.row, st.col, st.rot, &completed, nullptr);
        ++placed;
      }
    }
  Print("safari_feature_update_ns", placed ? (ThreadSeconds() - t0) * 1e9 / static_cast<double>(placed) : 0, "ns");
}

// Savane playout figures: the Lua game through `plateau simulate`'s path against the native
// baseline, alternated, medians of 3. The host-loop run plays the same draft through the same
// path with rules that do no work (bench/games/savane-host-loop): the host's own share of a
// playout, hence the highest ratio any scripted scoring could reach on this host. The report's
// measures of how the game feels are off here, as the native baseline takes none (their cost is
// feel_overhead_ratio_savane).
void SavaneFigures(int games) {
  const std::string host_loop = PlateauHome() + "/bench/games/savane-host-loop";
  std::vector<double> lua, native, loop;
  for (int rep = 0; rep < 3; ++rep) {
    const uint64_t seed = 1000 + static_cast<uint64_t>(rep);
    lua.push_back(LuaPlayouts("ecosysteme-savane", games, true, seed, false));
    native.push_back(NativePlayouts(bench::NativeSavanePlayout, games * 4, seed));
    loop.push_back(LuaPlayouts(host_loop, games, true, seed, false));
  }
  const double lua_rate = Median(lua), native_rate = Median(native), loop_rate = Median(loop);
  Print("savane_playouts_lua_per_s", lua_rate, "games/s");
  Print("savane_playouts_native_per_s", native_rate, "games/s");
  Print("savane_lua_native_ratio", native_rate > 0 ? lua_rate / native_rate : 0, "ratio");
  Print("savane_native_game_us", native_rate > 0 ? 1e6 / native_rate : 0, "us");
  Print("savane_host_loop_per_s", loop_rate, "games/s");
  Print("savane_host_loop_native_ratio", native_rate > 0 ? loop_rate / native_rate : 0, "ratio");
}

// Océan playout figures, measured like Savane's: the Lua game through `plateau simulate`'s
// path against the native baseline, alternated, medians of 3. The Lua game runs near
// 700 games/s, so 600 games a run keep the three pairs near 3 s; the native side plays 20
// times more games so its runs are long enough to time. The feel measures are off, as for Savane.
void OceanFigures() {
  const int games = 600;
  std::vector<double> lua, native;
  for (int rep = 0; rep < 3; ++rep) {
    lua.push_back(LuaPlayouts("ecosysteme-ocean", games, true, 2000 + static_cast<uint64_t>(rep), false));
    native.push_back(NativePlayouts(bench::NativeOceanPlayout, games * 20, 2000 + static_cast<uint64_t>(rep)));
  }
  const double lua_rate = Median(lua), native_rate = Median(native);
  Print("ocean_playouts_lua_per_s", lua_rate, "games/s");
  Print("ocean_playouts_native_per_s", native_rate, "games/s");
  Print("ocean_lua_native_ratio", native_rate > 0 ? lua_rate / native_rate : 0, "ratio");
  Print("ocean_native_game_us", native_rate > 0 ? 1e6 / native_rate : 0, "us");
}

using OptionKey = std::tuple<int, int, int, int, int>;

// The answers of a Lua octopus question, in the bounding box's coordinates like the native's.
std::vector<OptionKey> LuaOctopusOptions(const std::vector<Move>& asked, const Grid& grid) {
  std::vector<OptionKey> out;
  for (const Move& m : asked) {
    const std::string action = m.args->is_object() && m.args->contains("action") ? (*m.args)["action"].get<std::string>() : "";
    const int kind = action == "skip" ? 0 : action == "move" ? 1 : action == "swap" ? 2 : -1;
    if (kind <= 0) {
      out.emplace_back(kind, 0, 0, 0, 0);
      continue;
    }
    const Coord a = grid.Normalized(m.cell), b = grid.Normalized(m.to);
    out.emplace_back(kind, a.row, a.col, b.row, b.col);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<OptionKey> NativeOctopusOptions(const State& state, const Grid& grid) {
  const Bounds& bd = grid.bounds();
  std::vector<int8_t> cells(static_cast<size_t>(bd.rows() * bd.cols()), -1);
  for (int r = 0; r < bd.rows(); ++r)
    for (int c = 0; c < bd.cols(); ++c) {
      const Cell* cell = grid.Get(bd.min_row + r, bd.min_col + c);
      if (cell && !cell->empty())
        cells[static_cast<size_t>(r * bd.cols() + c)] = static_cast<int8_t>(bench::OceanCardIndex(state.CardName(cell->item)));
    }
  std::vector<bench::OceanOctopusOption> options;
  bench::NativeOceanOctopusOptions(cells.data(), bd.rows(), bd.cols(), &options);
  std::vector<OptionKey> out;
  for (const auto& o : options) out.emplace_back(o.kind, o.from_row, o.from_col, o.to_row, o.to_col);
  std::sort(out.begin(), out.end());
  return out;
}

// Plays seeded Océan games through the Lua rules with random bots, as `plateau simulate`
// does, and holds the native baseline to them: every octopus question asked must list the
// answers the native lists, and every final score table must equal the native scoring of the
// final grids (face-down cards included). Returns the process exit code.
int CheckOcean(int games) {
  std::unique_ptr<scripting::LuaRules> rules;
  Status st = scripting::LuaRules::Load("ecosysteme-ocean", {}, &rules);
  if (!st.ok()) {
    std::fprintf(stderr, "check-ocean: %s\n", st.message.c_str());
    return 2;
  }
  Json params;
  ResolveParams(rules->info(), Json::object(), &params);
  const std::pair<int, int> runs[] = {{4, games}, {2, games / 4}, {3, games / 4}, {5, games / 4}, {6, games / 4}};
  int played = 0, mismatched = 0, questions = 0, moved = 0, flipped = 0;
  int reported = 0;
  auto report = [&](const std::string& what) {
    if (++reported <= 20) std::printf("mismatch: %s\n", what.c_str());
  };
  for (const auto& [players, count] : runs) {
    for (int g = 0; g < count; ++g) {
      const uint64_t seed = 1 + static_cast<uint64_t>(g);
      const std::string where = "seed " + std::to_string(seed) + ", " + std::to_string(players) + " players";
      State state;
      st = rules->NewGame(params, players, seed, &state);
      if (!st.ok()) {
        std::fprintf(stderr, "check-ocean: %s: %s\n", where.c_str(), st.message.c_str());
        return 2;
      }
      state.record = false;
      std::vector<std::unique_ptr<Bot>> owned;
      std::vector<Bot*> bots;
      std::string error;
      for (int s = 0; s < players; ++s) {
        owned.push_back(MakeBot("random", seed * 31 + static_cast<uint64_t>(s), &error));
        bots.push_back(owned.back().get());
      }
      bool game_ok = true;
      std::vector<int> seats;
      for (int moves = 0; moves < 100000;) {
        st = rules->ToMove(state, &seats);
        if (!st.ok() || seats.empty()) break;
        for (int seat : seats) {
          const auto& asks = state.flow.asks;
          if (static_cast<size_t>(seat) < asks.size() && !asks[static_cast<size_t>(seat)].empty() &&
              asks[static_cast<size_t>(seat)].front().type == "octopus") {
            ++questions;
            const Grid& grid = *state.FindGrid(draft::GridKey(seat));
            const auto lua = LuaOctopusOptions(asks[static_cast<size_t>(seat)], grid);
            const auto native = NativeOctopusOptions(state, grid);
            if (lua != native) {
              game_ok = false;
              report(where + ", seat " + std::to_string(seat + 1) + ": the octopus question lists " +
                     std::to_string(lua.size()) + " answers, the native " + std::to_string(native.size()));
            }
          }
          Move m;
          st = bots[static_cast<size_t>(seat)]->Choose(*rules, state, seat, &m);
          if (st.ok() && m.type == "octopus" && m.args->value("action", "") != "skip") ++moved;
          if (st.ok() && m.type == "flip") ++flipped;
          if (st.ok()) st = rules->Apply(&state, seat, m);
          if (!st.ok()) break;
          ++moves;
        }
        if (!st.ok()) break;
      }
      ScoreTable table;
      if (st.ok()) st = rules->Score(state, &table);
      if (!st.ok()) {
        std::fprintf(stderr, "check-ocean: %s: %s\n", where.c_str(), st.message.c_str());
        return 2;
      }
      ++played;
      std::vector<bench::OceanGrid> grids(static_cast<size_t>(players));
      bool full = true;
      for (int p = 0; p < players && full; ++p) {
        const Grid& grid = *state.FindGrid(draft::GridKey(p));
        const Bounds& bd = grid.bounds();
        if (bd.rows() != 4 || bd.cols() != 5 || grid.count() != 20) {
          full = false;
          report(where + ", seat " + std::to_string(p + 1) + ": the final grid is not a full 4 x 5");
          break;
        }
        for (int i = 0; i < 20; ++i) {
          const Cell* cell = grid.Get(bd.min_row + i / 5, bd.min_col + i % 5);
          grids[static_cast<size_t>(p)].card[i] = static_cast<int8_t>(bench::OceanCardIndex(state.CardName(cell->item)));
          grids[static_cast<size_t>(p)].down[i] = cell->face_down != 0;
        }
      }
      int neutral_plankton = -1;
      if (const Zone* pile = state.FindZone("pile", players)) {
        neutral_plankton = 0;
        for (CardId c : pile->cards) neutral_plankton += state.CardName(c) == "plankton";
      }
      std::vector<bench::OceanScore> native(static_cast<size_t>(players));
      if (full) bench::NativeOceanScore(grids.data(), players, neutral_plankton, native.data());
      else game_ok = false;
      for (const ScoreLine& line : table.lines) {
        if (!full) break;
        if (line.seat < 0 || line.seat >= players) continue;
        const bench::OceanScore& n = native[static_cast<size_t>(line.seat)];
        std::string diff;
        if (line.total != n.total)
          diff += " total " + std::to_string(line.total) + " vs " + std::to_string(n.total);
        for (int k = 0; k < bench::kOceanCategories; ++k) {
          int64_t lua = -1;
          for (const auto& [name, v] : line.breakdown)
            if (name == bench::kOceanCategoryNames[k]) lua = v;
          if (lua != n.points[k])
            diff += std::string(" ") + bench::kOceanCategoryNames[k] + " " + std::to_string(lua) + " vs " + std::to_string(n.points[k]);
        }
        if (!diff.empty()) {
          game_ok = false;
          report(where + ", seat " + std::to_string(line.seat + 1) + " (Lua vs native):" + diff);
        }
      }
      if (!game_ok) ++mismatched;
    }
  }
  std::printf("check-ocean: %d games compared (%d with 4 players, %d each with 2, 3, 5 and 6), "
              "%d octopus questions compared (%d answered with a move or swap), %d whale flips chosen, "
              "%d games with mismatches\n",
              played, games, games / 4, questions, moved, flipped, mismatched);
  return mismatched == 0 ? 0 : 1;
}

}  // namespace
}  // namespace plateau

namespace plateau {
namespace {

SimulationReport RunBots(const std::string& game, int players, const std::vector<std::string>& bots, int games,
                         int threads, uint64_t seed) {
  SimulationSpec spec;
  spec.games = games;
  spec.players = players;
  spec.seed = seed;
  spec.bots = bots;
  spec.threads = threads;
  std::unique_ptr<scripting::LuaRules> probe;
  SimulationReport report;
  if (!scripting::LuaRules::Load(game, {}, &probe).ok()) return report;
  ResolveParams(probe->info(), Json::object(), &spec.params);
  Status st = Simulate(
      [&](std::unique_ptr<Rules>* out) {
        std::unique_ptr<scripting::LuaRules> r;
        Status s = scripting::LuaRules::Load(game, {}, &r);
        *out = std::move(r);
        return s;
      },
      spec, &report);
  if (!st.ok() || report.failed)
    std::fprintf(stderr, "bench: %s\n", st.ok() ? report.first_errors.front().c_str() : st.message.c_str());
  return report;
}

// Win rate of bot `a` against bot `b` in 2-player games, half with `a` in each seat so the
// first player's edge cancels out. Shared wins count half.
double Duel(const std::string& game, const std::string& a, const std::string& b, int games, int threads) {
  const SimulationReport first = RunBots(game, 2, {a, b}, games / 2, threads, 70000);
  const SimulationReport second = RunBots(game, 2, {b, a}, games - games / 2, threads, 80000);
  const int n = first.games + second.games;
  if (n == 0 || first.seat_wins.size() < 2 || second.seat_wins.size() < 2) return 0;
  return (first.seat_wins[0] + second.seat_wins[1]) / n;
}

// The Chenilles bots: win rates over >= 500 games per pairing and the heuristic bot's speed.
int ChenillesBots(int games, int threads) {
  const std::string mcts = "mcts:iters=80:depth=4";
  Print("chenilles_winrate_heuristic_vs_random", Duel("chenilles", "heuristic", "random", games, threads), "rate");
  Print("chenilles_winrate_mcts_vs_random", Duel("chenilles", mcts, "random", games, threads), "rate");
  Print("chenilles_winrate_mcts_vs_heuristic", Duel("chenilles", mcts, "heuristic", games, threads), "rate");
  const double t0 = ThreadSeconds();
  const SimulationReport r = RunBots("chenilles", 4, {"heuristic"}, 300, 1, 90000);
  Print("chenilles_heuristic_4p_games_per_s", r.games / (ThreadSeconds() - t0), "games/s");
  return 0;
}

// Times a bot's decisions as the play loop asks for them (ChooseIn), on this thread's CPU
// clock. A decision with one legal move is played but not counted: the search skips it.
class TimedBot : public Bot {
 public:
  explicit TimedBot(std::unique_ptr<Bot> inner) : inner_(std::move(inner)) {}
  const char* name() const override { return inner_->name(); }
  Status Choose(Rules& rules, const State& state, int seat, Move* out) override {
    return inner_->Choose(rules, state, seat, out);
  }
  Status ChooseIn(Rules& rules, State* state, int seat, Move* out) override {
    std::vector<Move> moves;
    const bool counted = rules.LegalMoves(*state, seat, &moves).ok() && moves.size() > 1;
    const double t0 = ThreadSeconds();
    Status st = inner_->ChooseIn(rules, state, seat, out);
    if (counted) {
      seconds += ThreadSeconds() - t0;
      ++decisions;
    }
    return st;
  }
  double seconds = 0;
  int64_t decisions = 0;

 private:
  std::unique_ptr<Bot> inner_;
};

// MCTS decisions per second: 4-player games of `game` with `bot` in every seat, the time inside
// its decisions only (the moves' own application is the rules' cost, not the search's), over at
// most `max_decisions` decisions a game (0: the whole game; Safari and Fauna games are long, and
// the search's speed shows in their first decisions as well).
double MctsDecisionsPerSecond(const std::string& game, const std::string& bot, int games, uint64_t seed, int max_decisions = 0) {
  std::unique_ptr<scripting::LuaRules> rules;
  if (!scripting::LuaRules::Load(game, {}, &rules).ok()) return 0;
  Json params;
  ResolveParams(rules->info(), Json::object(), &params);
  const int players = std::max(rules->info().min_players, std::min(4, rules->info().max_players));
  double seconds = 0;
  int64_t decisions = 0;
  for (int g = 0; g < games; ++g) {
    const uint64_t game_seed = seed + static_cast<uint64_t>(g);
    State state;
    if (!rules->NewGame(params, players, game_seed, &state).ok()) return 0;
    state.record = false;
    std::vector<std::unique_ptr<TimedBot>> owned;
    std::string error;
    for (int s = 0; s < players; ++s) {
      std::unique_ptr<Bot> inner = MakeBot(bot, game_seed * 31 + static_cast<uint64_t>(s), &error, &rules->info());
      if (!inner) return 0;
      owned.push_back(std::make_unique<TimedBot>(std::move(inner)));
    }
    for (int moves = 0; moves < 100000; ++moves) {
      std::vector<int> seats;
      if (!rules->ToMove(state, &seats).ok() || seats.empty()) break;
      Move m;
      Status st = owned[static_cast<size_t>(seats.front())]->ChooseIn(*rules, &state, seats.front(), &m);
      if (st.ok()) st = rules->Apply(&state, seats.front(), m);
      if (!st.ok()) {
        std::fprintf(stderr, "bench: %s\n", st.message.c_str());
        return 0;
      }
      int64_t made = 0;
      for (const auto& b : owned) made += b->decisions;
      if (max_decisions > 0 && made >= max_decisions) break;
    }
    for (const auto& b : owned) {
      seconds += b->seconds;
      decisions += b->decisions;
    }
  }
  return seconds > 0 ? static_cast<double>(decisions) / seconds : 0;
}

// Games between bots that play sensibly, where designers wait for their balance evidence
// (issue 19): 4 players, one thread, through `plateau simulate`'s path with rules loading
// included, medians of 3 runs on different seeds. Each run is a few seconds at today's speed.
// The median of 3 runs of `games` native greedy games (seeds as BotFigures' runs).
double NativeGreedyRate(int64_t (*game)(uint64_t, int), int games) {
  std::vector<double> native;
  for (int rep = 0; rep < 3; ++rep) native.push_back(NativePlayouts(game, games, 6000 + 1000 * static_cast<uint64_t>(rep)));
  return Median(native);
}

void BotFigures() {
  struct Run {
    const char* name;
    const char* game;
    const char* bot;
    int games;
    // The same game played by plain C++ greedy players, where there is one: the limit of the
    // scripted ones (Savane's on the draft, Safari's on the host's tile map).
    const char* native_name = nullptr;
    int64_t (*native)(uint64_t, int) = nullptr;
    int native_games = 0;
  };
  const Run runs[] = {{"savane_greedy_games_per_s", "ecosysteme-savane", "greedy", 30, "savane_greedy_native",
                       bench::NativeSavaneGreedyGame, 200},
                      {"ocean_greedy_games_per_s", "ecosysteme-ocean", "greedy", 30},
                      {"ecosystem_greedy_games_per_s", "ecosystem", "greedy", 50},
                      {"chenilles_heuristic_games_per_s", "chenilles", "heuristic", 60},
                      {"safari_greedy_games_per_s", "safari", "greedy", 10, "safari_greedy_native",
                       bench::NativeSafariGreedyGame, 600},
                      {"fauna_greedy_games_per_s", "fauna", "greedy", 30}};
  for (const Run& run : runs) {
    std::vector<double> rates;
    for (int rep = 0; rep < 3; ++rep) {
      const double t0 = ThreadSeconds();
      const SimulationReport r = RunBots(run.game, 4, {run.bot}, run.games, 1, 6000 + 1000 * static_cast<uint64_t>(rep));
      rates.push_back(r.games / (ThreadSeconds() - t0));
    }
    Print(run.name, Median(rates), "games/s");
    if (run.native) {
      const double native = NativeGreedyRate(run.native, run.native_games);
      Print(std::string(run.native_name) + "_games_per_s", native, "games/s");
      Print(std::string(run.native_name) + "_ratio", native > 0 ? Median(rates) / native : 0, "ratio");
    }
  }
  std::vector<double> rates;
  for (int rep = 0; rep < 3; ++rep)
    rates.push_back(MctsDecisionsPerSecond("ecosysteme-savane", "mcts:iters=200", 1, 9000 + static_cast<uint64_t>(rep)));
  Print("mcts_decisions_per_s", Median(rates), "decisions/s");
  for (const char* game : {"safari", "fauna"}) {
    rates.clear();
    for (int rep = 0; rep < 3; ++rep)
      rates.push_back(MctsDecisionsPerSecond(game, "mcts:iters=200", 1, 9000 + static_cast<uint64_t>(rep), 8));
    Print(std::string(game) + "_mcts_decisions_per_s", Median(rates), "decisions/s");
  }
}

}  // namespace
}  // namespace plateau

// A count given to a bench mode ("--chenilles-bots 200"): 0 when it is not one.
static int ArgInt(const char* text) {
  int64_t v = 0;
  std::string ignored;
  return plateau::ParseInt(text, 0, 1'000'000, "", &v, &ignored) ? static_cast<int>(v) : 0;
}

int main(int argc, char** argv) {
  using namespace plateau;
  if (argc >= 2 && std::strcmp(argv[1], "--chenilles-bots") == 0)
    return ChenillesBots(argc >= 3 ? std::max(2, ArgInt(argv[2])) : 500, 2);
  if (argc >= 2 && std::strcmp(argv[1], "--check-ocean") == 0)
    return CheckOcean(argc >= 3 ? std::max(1, ArgInt(argv[2])) : 200);
  if (argc >= 2 && std::strcmp(argv[1], "--savane") == 0) {
    SavaneFigures(6000);
    return 0;
  }
  if (argc >= 2 && std::strcmp(argv[1], "--ocean") == 0) {
    OceanFigures();
    return 0;
  }
  if (argc >= 2 && std::strcmp(argv[1], "--safari") == 0) {
    SafariFigures(300);
    return 0;
  }
  if (argc >= 2 && std::strcmp(argv[1], "--safari-native") == 0) {
    // Only the native Safari greedy figure (the --bots run prints it with its ratio).
    Print("safari_greedy_native_games_per_s",
          NativeGreedyRate(bench::NativeSafariGreedyGame, argc >= 3 ? std::max(1, ArgInt(argv[2])) : 600), "games/s");
    return 0;
  }
  if (argc >= 2 && std::strcmp(argv[1], "--bots") == 0) {
    BotFigures();
    return 0;
  }
  if (argc >= 2) {
    std::fprintf(stderr, "usage: plateau-bench [--savane | --ocean | --safari | --safari-native [games] | --bots | "
                 "--check-ocean [games] | "
                 "--chenilles-bots [games]]\n");
    return 2;
  }
  const int games = 6000;
  SavaneFigures(games);
  OceanFigures();
  SafariFigures(300);
  BotFigures();
  // Same seeds on and off, alternated in small batches; the ratio of each pair is kept and the
  // median taken, so drift in machine speed cancels out.
  std::vector<double> ratios;
  const uint64_t armed_before = scripting::Runtime::arm_count.load();
  for (int rep = 0; rep < 9; ++rep) {
    const uint64_t seed = 5000 + static_cast<uint64_t>(rep) * 1000;
    const double a = LuaPlayouts("ecosysteme-savane", games / 3, rep % 2 == 0, seed);
    const double b = LuaPlayouts("ecosysteme-savane", games / 3, rep % 2 != 0, seed);
    const double rate_on = rep % 2 == 0 ? a : b, rate_off = rep % 2 == 0 ? b : a;
    if (rate_on > 0) ratios.push_back(rate_off / rate_on);  // time on / time off
  }
  Print("budget_overhead_ratio", ratios.empty() ? 0 : Median(ratios), "ratio");
  Print("budget_hook_armed_calls", static_cast<double>(scripting::Runtime::arm_count.load() - armed_before), "calls");
  // How the game feels (the score over time, dead turns) against the same runs without it,
  // paired and alternated like the budget's.
  for (const char* game : {"ecosysteme-savane", "chenilles"}) {
    std::vector<double> feel;
    for (int rep = 0; rep < 5; ++rep) {
      const uint64_t seed = 7000 + static_cast<uint64_t>(rep) * 1000;
      const double a = LuaPlayouts(game, games / 10, true, seed, rep % 2 == 0);
      const double b = LuaPlayouts(game, games / 10, true, seed, rep % 2 != 0);
      const double with = rep % 2 == 0 ? a : b, without = rep % 2 == 0 ? b : a;
      if (with > 0) feel.push_back(without / with);  // time with / time without
    }
    Print(std::string("feel_overhead_ratio_") + (std::string(game) == "chenilles" ? "chenilles" : "savane"),
          feel.empty() ? 0 : Median(feel), "ratio");
  }
  Print("savane_score_table_us", ScoreTableMicros("ecosysteme-savane", 20000), "us");
  Print("ocean_score_table_us", ScoreTableMicros("ecosysteme-ocean", 2000), "us");
  // Hot reload: loading, validating and checking new rules against a game on the table, for
  // every shipped game (plateau watch adds at most 5 ms of polling and a 15 ms quiet period).
  for (const auto& game : ListGames()) {
    std::unique_ptr<scripting::LuaRules> rules;
    if (!scripting::LuaRules::Load(game, {}, &rules).ok()) continue;
    Json params;
    ResolveParams(rules->info(), Json::object(), &params);
    State state;
    const int players = std::max(rules->info().min_players, std::min(3, rules->info().max_players));
    if (!rules->NewGame(params, players, 1, &state).ok()) continue;
    std::vector<double> ms;
    for (int rep = 0; rep < 9; ++rep) {
      const auto t0 = Clock::now();
      scripting::ReloadResult r = scripting::ReloadRules(game, {}, &state, &rules);
      if (!r.ok) break;
      ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    if (ms.empty()) continue;
    std::string name = game;
    for (char& c : name)
      if (c == '-') c = '_';
    Print("reload_ms_" + name, Median(ms), "ms");
    Print("reload_latency_ms_" + name, Median(ms) + 5 + 15, "ms");
  }
  return 0;
}

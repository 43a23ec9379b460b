// The host's conformance checks (see conformance.h).
#include "host/conformance.h"

#include "host/json_io.h"

#include "host/replay.h"

#include <atomic>
#include <thread>

namespace plateau {
namespace {

// `check`: a hook the random bots never call (totals, evaluate_moves) is called by the check
// alone, so the replay plays past the failing move; the command says so rather than leave the
// designer to meet another error later in the game.
std::string Repro(const std::string& game, int players, uint64_t seed, int move, const std::string& check = "") {
  const bool check_only = check == "totals" || check == "evaluate_moves";
  return "plateau play " + game + " --players " + std::to_string(players) + " --seed " + std::to_string(seed) +
         " --bots random   (the failure is at move " + std::to_string(move) + "; bot seeds derive from the game seed" +
         (check_only ? "; there the check called " + check + ", which random bots do not: the replay reaches that move "
                       "and goes on"
                     : "") +
         ")";
}

// Plays one seeded game with random moves, checking every decision. Returns false after
// the first failure (recorded in *out). `light`: the same game (the same random draws), with
// only the states' hashes kept, for the determinism check.
bool PlayChecked(Rules& rules, const std::string& game, int players, uint64_t seed, const ConformanceSpec& spec,
                 const Json& params, State* final_state, std::vector<std::string>* hashes, ConformanceReport* out,
                 bool light = false) {
  State s;
  Status st = rules.NewGame(params, players, seed, &s);
  auto fail = [&](const std::string& check, const std::string& msg, int move) {
    out->failures.push_back({check, msg, Repro(game, players, seed, move, check)});
    return false;
  };
  if (!st.ok()) return fail("new game", st.ToString(), 0);
  Rng bot(seed * 31 + 7);
  std::vector<int> seats;
  std::vector<Move> legal;
  int moves = 0;
  for (;;) {
    st = rules.ToMove(s, &seats);
    if (!st.ok()) return fail("to_move", st.ToString(), moves);
    if (seats.empty()) break;
    for (int seat : seats) {
      st = rules.LegalMoves(s, seat, &legal);
      if (!st.ok()) return fail("legal moves", st.ToString(), moves);
      if (legal.empty())
        return fail("legal moves", "seat " + std::to_string(seat + 1) + " must move but has no legal move", moves);
      // A few other legal moves must apply cleanly too (on copies).
      for (int p = 0; p < spec.probes_per_state && p < static_cast<int>(legal.size()); ++p) {
        const Move& m = legal[bot.Below(static_cast<uint32_t>(legal.size()))];
        if (light) continue;
        // Tried and taken back as a bot tries its candidates, not on a copy (a copy of the
        // state and a fresh list of its legal moves at every probe were most of the checks'
        // time): the determinism check below then also proves the trial's undo exact, since
        // the light run makes no probes and must reach the same states.
        // As the bots do, unrecorded and with the random draws put back.
        const Rng before = s.rng;
        const bool record = s.record;
        s.record = false;
        st = rules.TryMove(&s, seat, m);
        if (!st.ok()) {
          s.record = record;
          return fail("legal moves apply", "legal move " + MoveToString(m, *s.cards) + " failed: " + st.ToString(), moves);
        }
        // A bot's measure after each candidate it weighs: a faster path than the score (a
        // `totals` hook and its caches) must give the score's totals.
        st = rules.CheckTotals(s);
        rules.UndoTrial(&s);
        s.rng = before;
        s.record = record;
        if (!st.ok()) return fail("totals", "after " + MoveToString(m, *s.cards) + ": " + st.ToString(), moves);
      }
      if (!light) {
        st = rules.CheckTotals(s);
        if (!st.ok()) return fail("totals", st.ToString(), moves);
        // The batch valuation against trials: at the first 16 decisions and every 4th after
        // (at every one it was a third of plateau test's time in Fauna; 100 games still hold
        // it to the trials at thousands of decisions of every phase).
        if (moves < 16 || moves % 4 == 0) {
          st = rules.CheckEvaluateMoves(s, seat, legal, spec.evaluate_moves_trials,
                                        seed * 1000003 + static_cast<uint64_t>(moves));
          if (!st.ok()) return fail("evaluate_moves", st.ToString(), moves);
        }
        // The game's own random draw against the list, at every decision (one call, no trials).
        st = rules.CheckRandomMove(s, seat, legal, seed * 7919 + static_cast<uint64_t>(moves));
        if (!st.ok()) return fail("random_move", st.ToString(), moves);
      }
      // A move of an unknown type is refused as illegal and changes nothing: at the first
      // decisions and every 16th after (two hashes of the whole state each time).
      if (!light && (moves < 8 || moves % 16 == 0)) {
        const std::string before = s.Hash();
        Move bogus;
        bogus.type = "__not_a_move__";
        st = rules.Apply(&s, seat, bogus);
        if (st.ok()) return fail("illegal moves", "a move of unknown type was accepted", moves);
        if (st.kind != ErrorKind::kIllegal)
          return fail("illegal moves", "an unknown move failed as " + std::string(ErrorKindName(st.kind)) + ": " + st.message, moves);
        if (s.Hash() != before) return fail("illegal moves", "a refused move changed the state", moves);
      }
      Move m = legal[bot.Below(static_cast<uint32_t>(legal.size()))];
      st = rules.Apply(&s, seat, m);
      if (!st.ok()) return fail("apply", MoveToString(m, *s.cards) + ": " + st.ToString(), moves);
      ++moves;
      if (hashes) hashes->push_back(s.Hash());
      if (moves > spec.max_moves)
        return fail("game ends", "no end after " + std::to_string(spec.max_moves) + " moves", moves);
    }
  }
  ScoreTable scores;
  st = rules.Score(s, &scores);
  if (!st.ok()) return fail("score", st.ToString(), moves);
  if (scores.lines.empty()) return fail("score", "the final score lists no seat", moves);
  if (rules.info().has_score_bounds)
    for (const auto& line : scores.lines)
      if (line.total < rules.info().score_min || line.total > rules.info().score_max)
        return fail("score bounds", line.name + " scored " + std::to_string(line.total) + ", outside the declared " +
                                        std::to_string(rules.info().score_min) + ".." + std::to_string(rules.info().score_max),
                    moves);
  out->moves += moves;
  *final_state = std::move(s);
  return true;
}

}  // namespace

namespace {

// One seeded game of the checks: played twice (determinism), then saved and loaded at powers of
// two. Its failures go to *out (its own report, merged in seed order by RunConformance).
void CheckOneGame(Rules& rules, const std::string& game, int players, uint64_t seed, const ConformanceSpec& spec,
                  const Json& params, ConformanceReport* out) {
  State first, second;
  std::vector<std::string> h1, h2;
  ++out->games;
  if (!PlayChecked(rules, game, players, seed, spec, params, &first, &h1, out)) return;
  // Determinism: the same seed gives the same moves and the same states.
  if (!PlayChecked(rules, game, players, seed, spec, params, &second, &h2, out, /*light=*/true)) return;
  if (h1 != h2) {
    size_t k = 0;
    while (k < h1.size() && k < h2.size() && h1[k] == h2[k]) ++k;
    out->failures.push_back({"determinism", "two runs of the same seed differ from move " + std::to_string(k + 1),
                             Repro(game, players, seed, static_cast<int>(k + 1))});
    return;
  }
  // Save -> load at powers of two continues identically: one replay of the log, and at move 1,
  // 2, 4, 8... the state is saved, loaded, must hash as the first run's did at that move, and
  // plays the next few moves from the loaded copy to the same states. (A loaded state that
  // hashes the same is the same table, and determinism is checked above: what follows is fixed.)
  std::vector<LoggedMove> moves;
  Status st = MovesOfLog(first, &moves);
  if (!st.ok()) {
    out->failures.push_back({"move log", st.message, Repro(game, players, seed, 0)});
    return;
  }
  constexpr size_t kWindow = 8;
  State cur;
  st = rules.NewGame(params, players, seed, &cur);
  for (size_t i = 0; st.ok() && i < moves.size(); ++i) {
    st = rules.Apply(&cur, moves[i].seat, moves[i].move);
    const size_t k = i + 1;
    if (!st.ok() || (k & (k - 1)) != 0 || k >= moves.size()) continue;
    State loaded;
    std::string error;
    Status at_k = Status::Ok();
    if (!State::FromJson(Json::parse(DumpJson(cur.ToJson())), cur.cards, &loaded, &error, cur.tiles, cur.regions))
      at_k = Status::Input("reload failed: " + error);
    size_t j = k;
    bool same = at_k.ok() && loaded.Hash() == h1[k - 1];
    for (; same && at_k.ok() && j < moves.size() && j < k + kWindow; ++j) {
      at_k = rules.Apply(&loaded, moves[j].seat, moves[j].move);
      same = at_k.ok() && loaded.Hash() == h1[j];
    }
    if (!at_k.ok() || !same) {
      out->failures.push_back({"save and load", "a game saved at move " + std::to_string(k) +
                                                    (at_k.ok() ? " differs from the game played on at move " + std::to_string(j + 1)
                                                               : " fails: " + at_k.message),
                               Repro(game, players, seed, static_cast<int>(k))});
      return;
    }
  }
  if (!st.ok()) out->failures.push_back({"save and load", "the game's log does not replay: " + st.message, Repro(game, players, seed, 0)});
}

}  // namespace

Status RunConformance(Rules& rules, const std::string& game, const ConformanceSpec& spec, ConformanceReport* out,
                      const std::function<Status(std::unique_ptr<Rules>*)>& more_rules) {
  Json params;
  Status st = ResolveParams(rules.info(), Json::object(), &params);
  if (!st.ok()) return st;
  std::vector<int> counts = spec.player_counts;
  if (counts.empty()) {
    const int lo = rules.info().min_players, hi = rules.info().max_players;
    counts = {lo};
    if ((lo + hi) / 2 != lo && (lo + hi) / 2 != hi) counts.push_back((lo + hi) / 2);
    if (hi != lo) counts.push_back(hi);
  }
  // Games are claimed in seed order; once one has failed no later game is started, but the ones
  // under way finish: the failures reported are those of the first failing games in seed order,
  // whatever the threads, so the report does not depend on them.
  std::vector<ConformanceReport> per_game(static_cast<size_t>(std::max(0, spec.games)));
  std::atomic<int> next{0}, failed_games{0};
  Status setup = Status::Ok();
  auto work = [&](Rules& r) {
    for (;;) {
      if (failed_games.load() >= spec.max_failures) return;
      const int g = next.fetch_add(1);
      if (g >= spec.games) return;
      ConformanceReport& mine = per_game[static_cast<size_t>(g)];
      CheckOneGame(r, game, counts[static_cast<size_t>(g) % counts.size()], spec.seed + static_cast<uint64_t>(g), spec, params,
                   &mine);
      if (!mine.failures.empty()) failed_games.fetch_add(1);
    }
  };
  const int threads = more_rules ? std::max(1, std::min(spec.threads, spec.games)) : 1;
  std::vector<std::unique_ptr<Rules>> extra;
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) {
    std::unique_ptr<Rules> r;
    Status made = more_rules(&r);
    if (!made.ok()) {
      setup = made;
      break;
    }
    extra.push_back(std::move(r));
  }
  for (auto& r : extra) pool.emplace_back([&work, rp = r.get()] { work(*rp); });
  work(rules);
  for (auto& t : pool) t.join();
  if (!setup.ok()) return setup;
  int failures = 0;
  for (const auto& r : per_game) {
    if (r.games == 0) continue;
    if (failures >= spec.max_failures) break;
    out->games += r.games;
    out->moves += r.moves;
    for (const auto& f : r.failures) out->failures.push_back(f);
    if (!r.failures.empty()) ++failures;
  }
  return Status::Ok();
}

}  // namespace plateau

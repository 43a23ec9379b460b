// The host's conformance checks (see conformance.h).
#include "host/conformance.h"

#include "host/json_io.h"

#include "host/replay.h"

namespace plateau {
namespace {

std::string Repro(const std::string& game, int players, uint64_t seed, int move) {
  return "plateau play " + game + " --players " + std::to_string(players) + " --seed " + std::to_string(seed) +
         " --bots random   (the failure is at move " + std::to_string(move) + "; bot seeds derive from the game seed)";
}

// Plays one seeded game with random moves, checking every decision. Returns false after
// the first failure (recorded in *out).
bool PlayChecked(Rules& rules, const std::string& game, int players, uint64_t seed, const ConformanceSpec& spec,
                 const Json& params, State* final_state, std::vector<std::string>* hashes, ConformanceReport* out) {
  State s;
  Status st = rules.NewGame(params, players, seed, &s);
  auto fail = [&](const std::string& check, const std::string& msg, int move) {
    out->failures.push_back({check, msg, Repro(game, players, seed, move)});
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
        State copy = s;
        const Move& m = legal[bot.Below(static_cast<uint32_t>(legal.size()))];
        st = rules.Apply(&copy, seat, m);
        if (!st.ok())
          return fail("legal moves apply", "legal move " + MoveToString(m, *s.cards) + " failed: " + st.ToString(), moves);
        // A bot's measure after each candidate it weighs: a faster path than the score (a
        // `totals` hook and its caches) must give the score's totals.
        st = rules.CheckTotals(copy);
        if (!st.ok()) return fail("totals", "after " + MoveToString(m, *s.cards) + ": " + st.ToString(), moves);
      }
      st = rules.CheckTotals(s);
      if (!st.ok()) return fail("totals", st.ToString(), moves);
      // A move of an unknown type is refused as illegal and changes nothing.
      const std::string before = s.Hash();
      Move bogus;
      bogus.type = "__not_a_move__";
      st = rules.Apply(&s, seat, bogus);
      if (st.ok()) return fail("illegal moves", "a move of unknown type was accepted", moves);
      if (st.kind != ErrorKind::kIllegal)
        return fail("illegal moves", "an unknown move failed as " + std::string(ErrorKindName(st.kind)) + ": " + st.message, moves);
      if (s.Hash() != before) return fail("illegal moves", "a refused move changed the state", moves);
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

Status RunConformance(Rules& rules, const std::string& game, const ConformanceSpec& spec, ConformanceReport* out) {
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
  for (int g = 0; g < spec.games; ++g) {
    if (static_cast<int>(out->failures.size()) >= spec.max_failures) break;
    const int players = counts[static_cast<size_t>(g) % counts.size()];
    const uint64_t seed = spec.seed + static_cast<uint64_t>(g);
    State first, second;
    std::vector<std::string> h1, h2;
    ++out->games;
    if (!PlayChecked(rules, game, players, seed, spec, params, &first, &h1, out)) continue;
    // Determinism: the same seed gives the same moves and the same states.
    if (!PlayChecked(rules, game, players, seed, spec, params, &second, &h2, out)) continue;
    if (h1 != h2) {
      size_t k = 0;
      while (k < h1.size() && k < h2.size() && h1[k] == h2[k]) ++k;
      out->failures.push_back({"determinism", "two runs of the same seed differ from move " + std::to_string(k + 1),
                               Repro(game, players, seed, static_cast<int>(k + 1))});
      continue;
    }
    // Save -> load at powers of two continues identically.
    std::vector<LoggedMove> moves;
    st = MovesOfLog(first, &moves);
    if (!st.ok()) {
      out->failures.push_back({"move log", st.message, Repro(game, players, seed, 0)});
      continue;
    }
    for (size_t k = 1; k < moves.size(); k *= 2) {
      State partial;
      std::vector<LoggedMove> head(moves.begin(), moves.begin() + static_cast<long>(k));
      st = Replay(rules, first, head, &partial);
      State loaded;
      std::string error;
      if (st.ok() && !State::FromJson(Json::parse(DumpJson(partial.ToJson())), partial.cards, &loaded, &error, partial.tiles, partial.regions))
        st = Status::Input("reload failed: " + error);
      for (size_t i = k; st.ok() && i < moves.size(); ++i) st = rules.Apply(&loaded, moves[i].seat, moves[i].move);
      if (!st.ok() || loaded.Hash() != first.Hash()) {
        out->failures.push_back({"save and load", "a game saved at move " + std::to_string(k) +
                                                      (st.ok() ? " ends in a different state" : " fails: " + st.message),
                                 Repro(game, players, seed, static_cast<int>(k))});
        break;
      }
    }
  }
  return Status::Ok();
}

}  // namespace plateau

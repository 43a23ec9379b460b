// Monte Carlo tree search over the Rules contract (see mcts.h). Open-loop UCT with
// determinization: the tree stores statistics per move sequence, and every iteration plays
// that sequence on a freshly sampled world, so dice, shuffled decks and opponents' hidden
// hands are averaged over instead of being peeked at.
#include "host/mcts.h"

#include <chrono>
#include <cmath>
#include <unordered_map>

namespace plateau {
namespace {

// A move's identity within one decision, as a number: edges are found by it (and the move
// itself, against collisions) instead of comparing every legal move with every edge as text,
// which was quadratic in the moves of a decision on every iteration.
uint64_t MoveHash(const Move& m) {
  uint64_t h = 1469598103934665603ULL;
  auto mix = [&](uint64_t v) {
    h ^= v;
    h *= 1099511628211ULL;
  };
  for (unsigned char c : m.type) mix(c);
  mix(static_cast<uint64_t>(m.card) + 0x9e37);
  if (m.has_cell) mix((static_cast<uint64_t>(static_cast<uint32_t>(m.cell.row)) << 32) ^ static_cast<uint32_t>(m.cell.col) ^ 1);
  if (m.has_to) mix((static_cast<uint64_t>(static_cast<uint32_t>(m.to.row)) << 32) ^ static_cast<uint32_t>(m.to.col) ^ 2);
  if (!m.args.is_null())
    for (unsigned char c : m.args->dump()) mix(c);
  return h;
}

struct Edge {
  Move move;
  int child = -1;
  int visits = 0;
  double reward = 0;  // sum of the mover's rewards through this edge
  int available = 0;  // iterations in which this move was legal (for UCB over changing move sets)
};

struct Node {
  std::vector<Edge> edges;
  std::unordered_multimap<uint64_t, size_t> by_hash;  // MoveHash -> index in edges
  size_t Find(const Move& m, uint64_t hash) const {
    auto [lo, hi] = by_hash.equal_range(hash);
    for (auto it = lo; it != hi; ++it)
      if (edges[it->second].move == m) return it->second;
    return SIZE_MAX;
  }
  size_t Add(const Move& m, uint64_t hash) {
    edges.push_back({m, -1, 0, 0, 0});
    by_hash.emplace(hash, edges.size() - 1);
    return edges.size() - 1;
  }
};

// Deals the cards `seat` cannot see afresh, keeping every zone's size. Zones of one name are
// pooled together (opponents' hands with each other, a deck with itself), so a resource deck
// never receives event cards. Then the RNG is reseeded: future dice and draws are unknown.
void Determinize(State* s, int seat, Rng* rng) {
  std::unordered_map<std::string, std::vector<size_t>> groups;
  for (size_t i = 0; i < s->zones.size(); ++i) {
    const Zone& z = s->zones[i];
    const bool unseen = z.visibility == Visibility::kHidden || (z.visibility == Visibility::kOwner && z.owner != seat);
    if (unseen && !z.cards.empty()) groups[z.name].push_back(i);
  }
  std::vector<CardId> pool;
  for (auto& [name, zones] : groups) {
    pool.clear();
    for (size_t i : zones) pool.insert(pool.end(), s->zones[i].cards.begin(), s->zones[i].cards.end());
    for (size_t i = pool.size(); i > 1; --i) std::swap(pool[i - 1], pool[rng->Below(static_cast<uint32_t>(i))]);
    size_t at = 0;
    for (size_t i : zones)
      for (auto& c : s->zones[i].cards) c = pool[at++];
  }
  s->rng.Seed(rng->Next());
  s->Touch();
}

class MctsBot : public Bot {
 public:
  MctsBot(const MctsOptions& o, uint64_t seed) : opt_(o), rng_(seed) {}
  const char* name() const override { return "mcts"; }

  Status Choose(Rules& rules, const State& state, int seat, Move* out) override {
    std::vector<Move> root_moves;
    Status st = rules.LegalMoves(state, seat, &root_moves);
    if (!st.ok()) return st;
    if (root_moves.empty()) return Status::Illegal("no legal move");
    if (root_moves.size() == 1) {
      *out = root_moves[0];
      return Status::Ok();
    }
    nodes_.assign(1, Node{});
    lead_sum_ = 0;
    lead_count_ = 0;
    for (const auto& m : root_moves) nodes_[0].Add(m, MoveHash(m));
    players_ = state.player_count;
    const auto start = std::chrono::steady_clock::now();
    for (int it = 0;; ++it) {
      if (stopped()) return BotStopped();
      if (opt_.iterations > 0 && it >= opt_.iterations) break;
      if (opt_.time_ms > 0 && it > 0 &&
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() >= opt_.time_ms)
        break;
      // Each iteration's world is a copy of the root without its move log (a rollout records
      // nothing): copying a long game's log on every iteration was a large share of a decision.
      if (it == 0) {
        State& s = const_cast<State&>(state);
        std::vector<LogEntry> log = std::move(s.log);
        root_ = s;
        s.log = std::move(log);
        root_.record = false;
      }
      State world = root_;
      Determinize(&world, seat, &rng_);
      st = Iterate(rules, &world, seat, root_moves);
      if (!st.ok()) return st;
    }
    size_t best = 0;
    for (size_t i = 1; i < nodes_[0].edges.size(); ++i)
      if (nodes_[0].edges[i].visits > nodes_[0].edges[best].visits) best = i;
    *out = root_moves[best];
    return Status::Ok();
  }

 private:
  struct Step {
    int node;
    size_t edge;
    int mover;
  };

  // One iteration: descend the tree by UCB1 (restricted to the moves legal in this world),
  // add one node, roll out at random, judge, and back the rewards up.
  Status Iterate(Rules& rules, State* world, int root_seat, const std::vector<Move>& root_moves) {
    std::vector<Step> path;
    std::vector<int> seats;
    std::vector<Move> moves;
    int node = 0;
    bool expanded = false;
    for (;;) {
      Status st = rules.ToMove(*world, &seats);
      if (!st.ok()) return st;
      if (seats.empty()) break;
      const int mover = path.empty() ? root_seat : seats.front();
      if (path.empty()) {
        moves = root_moves;
      } else {
        st = rules.LegalMoves(*world, mover, &moves);
        if (!st.ok()) return st;
        if (moves.empty()) return Status::Illegal("seat " + std::to_string(mover + 1) + " must move but has no legal move");
      }
      const size_t pick = Select(node, moves);
      path.push_back({node, pick, mover});
      st = rules.Apply(world, mover, moves[matched_]);
      // A root move can be illegal in a sampled world that contradicts it; skip that world.
      if (st.kind == ErrorKind::kIllegal && path.size() == 1) return Status::Ok();
      if (!st.ok()) return st;
      if (nodes_[static_cast<size_t>(node)].edges[pick].child < 0) {
        const int fresh = static_cast<int>(nodes_.size());
        nodes_.emplace_back();
        nodes_[static_cast<size_t>(node)].edges[pick].child = fresh;
        expanded = true;
      }
      node = nodes_[static_cast<size_t>(node)].edges[pick].child;
      if (expanded) break;
    }
    std::vector<double> reward;
    Status st = Rollout(rules, world, &reward);
    if (!st.ok()) return st;
    for (const auto& step : path) {
      Edge& e = nodes_[static_cast<size_t>(step.node)].edges[step.edge];
      ++e.visits;
      if (step.mover >= 0 && step.mover < static_cast<int>(reward.size())) e.reward += reward[static_cast<size_t>(step.mover)];
    }
    return Status::Ok();
  }

  // Picks the edge to follow among `moves` (creating edges for moves first seen in this
  // world); sets matched_ to the index in `moves` of the chosen move.
  size_t Select(int node, const std::vector<Move>& moves) {
    Node& n = nodes_[static_cast<size_t>(node)];
    index_.assign(moves.size(), 0);
    for (size_t i = 0; i < moves.size(); ++i) {
      const uint64_t hash = MoveHash(moves[i]);
      size_t j = n.Find(moves[i], hash);
      if (j == SIZE_MAX) j = n.Add(moves[i], hash);
      index_[i] = j;
      ++n.edges[j].available;
    }
    auto& edges = n.edges;
    // Unvisited moves first, in random order.
    size_t unvisited = 0, choice = SIZE_MAX;
    for (size_t i = 0; i < moves.size(); ++i)
      if (edges[index_[i]].visits == 0 && rng_.Below(static_cast<uint32_t>(++unvisited)) == 0) choice = i;
    if (choice == SIZE_MAX) {
      double best = -1e300;
      for (size_t i = 0; i < moves.size(); ++i) {
        const Edge& e = edges[index_[i]];
        const double v = e.reward / e.visits +
                         opt_.exploration * std::sqrt(std::log(static_cast<double>(e.available)) / e.visits);
        if (v > best) {
          best = v;
          choice = i;
        }
      }
    }
    matched_ = choice;
    return index_[choice];
  }

  // Plays random moves for at most rollout_depth moves, then rewards each player: a win
  // share when the game ended, otherwise a share of first place by the game's evaluation.
  Status Rollout(Rules& rules, State* world, std::vector<double>* reward) {
    std::vector<int> seats;
    Move m;
    bool ended = false;
    for (int d = 0;; ++d) {
      Status st = rules.ToMove(*world, &seats);
      if (!st.ok()) return st;
      if (seats.empty()) {
        ended = true;
        break;
      }
      if (d >= opt_.rollout_depth) break;
      // A rollout may be a million moves deep (depth=1e6): the stop flag is read on the way.
      if (stopped()) return BotStopped();
      for (int seat : seats) {
        st = rules.RandomMove(*world, seat, &rng_, &m);
        if (!st.ok()) return st;
        st = rules.Apply(world, seat, m);
        if (!st.ok()) return st;
      }
    }
    std::vector<double> value(static_cast<size_t>(players_), 0);
    if (ended) {
      // Only the totals decide who won: a game's `totals` hook gives them without the score
      // table's breakdowns and extra (a third of a Savane search was building those).
      std::vector<int64_t>& totals = totals_scratch_;
      Status st = rules.CurrentTotals(*world, &totals);
      if (!st.ok()) return st;
      for (size_t s = 0; s < totals.size() && s < static_cast<size_t>(players_); ++s)
        value[s] = static_cast<double>(totals[s]);
    } else {
      for (int s = 0; s < players_; ++s) {
        Status st = rules.EvaluateWith(*world, s, opt_.game_options, &value[static_cast<size_t>(s)]);
        if (!st.ok()) return st;
      }
    }
    reward->assign(static_cast<size_t>(players_), 0);
    if (ended) {
      // A finished game: the winners share the win.
      double best = -1e300;
      int winners = 0;
      for (double v : value) {
        if (v > best) {
          best = v;
          winners = 1;
        } else if (v == best) {
          ++winners;
        }
      }
      for (int s = 0; s < players_; ++s)
        if (value[static_cast<size_t>(s)] == best) (*reward)[static_cast<size_t>(s)] = 1.0 / winners;
      return Status::Ok();
    }
    // An unfinished game: each player's lead over the best other player, squashed into
    // (0, 1). The scale is the mean size of the leads seen so far in this search, so the
    // reward needs no knowledge of the units the game's evaluation uses.
    for (int s = 0; s < players_; ++s) {
      double other = -1e300;
      for (int o = 0; o < players_; ++o)
        if (o != s) other = std::max(other, value[static_cast<size_t>(o)]);
      const double lead = players_ > 1 ? value[static_cast<size_t>(s)] - other : value[static_cast<size_t>(s)];
      lead_sum_ += std::fabs(lead);
      ++lead_count_;
      const double scale = std::max(1e-9, lead_sum_ / lead_count_);
      (*reward)[static_cast<size_t>(s)] = 0.5 + 0.5 * std::tanh(lead / scale);
    }
    return Status::Ok();
  }

  MctsOptions opt_;
  Rng rng_;
  State root_;  // the decision's state without its log, copied for each iteration
  std::vector<int64_t> totals_scratch_;  // a finished rollout's totals, reused
  std::vector<Node> nodes_;
  std::vector<size_t> index_;
  size_t matched_ = 0;
  int players_ = 0;
  double lead_sum_ = 0;  // running mean of |lead| at unfinished leaves (the reward's scale)
  int64_t lead_count_ = 0;
};

}  // namespace

std::unique_ptr<Bot> MakeMctsBot(const MctsOptions& options, uint64_t seed) {
  return std::make_unique<MctsBot>(options, seed);
}

}  // namespace plateau

// The host's drafting mechanism (see draft.h).
#include "host/draft.h"

#include <algorithm>

namespace plateau::draft {
namespace {

constexpr const char* kPhase = "draft";

bool Solo(const State& s) { return s.player_count == 1; }

int HandIndex(const State& s, int seat) { return s.index().hand[static_cast<size_t>(seat)]; }
const Grid& SeatGrid(const State& s, int seat) {
  return s.grids[static_cast<size_t>(s.index().grid[static_cast<size_t>(seat)])].second;
}
Grid* SeatGrid(State* s, int seat) {
  return &s->grids[static_cast<size_t>(s->index().grid[static_cast<size_t>(seat)])].second;
}
Zone* SeatZone(State* s, int index) { return &s->zones[static_cast<size_t>(index)]; }

// Distinct cards in a hand, ascending by id, so move lists have a stable order.
void DistinctCards(const Zone& hand, std::vector<CardId>* out) {
  out->assign(hand.cards.begin(), hand.cards.end());
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
}

bool InHand(const Zone& hand, CardId card) {
  return std::find(hand.cards.begin(), hand.cards.end(), card) != hand.cards.end();
}

// The hands that circulate, in table order (players, then the neutral seat): State::Index
// keeps their zone indices.
void DealRound(const DraftConfig& cfg, State* s) {
  Zone* deck = SeatZone(s, s->index().deck);
  std::vector<Zone*> hands;
  for (int zone : s->index().rotation) hands.push_back(SeatZone(s, zone));
  const int deal = Solo(*s) ? cfg.solo_hand : cfg.rounds[static_cast<size_t>(s->flow.round)].deal;
  Deal(deck, hands, deal);
}

void SetToMove(State* s) {
  s->flow.to_move.clear();
  if (s->flow.phase != kPhase) return;
  if (Solo(*s)) {
    s->flow.to_move.push_back(0);
    return;
  }
  for (int i = 0; i < s->player_count; ++i) s->flow.to_move.push_back(i);
}

Coord OpponentCell(const DraftConfig& cfg, int turn) { return {turn / cfg.cols, turn % cfg.cols}; }

}  // namespace

std::string GridKey(int seat) { return State::Key("grid", seat); }

Status Setup(const DraftConfig& cfg, int players, State* s) {
  Status st = Build(cfg, players, s);
  if (!st.ok()) return st;
  return Start(cfg, s);
}

Status Build(const DraftConfig& cfg, int players, State* s) {
  if (cfg.rounds.empty() && players > 1) return Status::Input("draft: at least one round is needed");
  s->seats.clear();
  for (int i = 0; i < players; ++i) s->seats.push_back({"P" + std::to_string(i + 1), "player"});
  if (players == 2 && cfg.neutral) s->seats.push_back({cfg.neutral_name, "neutral"});
  if (players == 1) s->seats.push_back({cfg.opponent_name, "opponent"});
  s->player_count = players;

  Zone* deck = s->AddZone("deck", -1, Visibility::kHidden);
  for (auto [card, n] : cfg.deck)
    for (int k = 0; k < n; ++k) deck->cards.push_back(card);
  s->AddZone("discard", -1, Visibility::kPublic);
  for (size_t i = 0; i < s->seats.size(); ++i) {
    const int seat = static_cast<int>(i);
    if (s->seats[i].kind == "neutral") {
      s->AddZone("hand", seat, Visibility::kHidden);
      s->AddZone("pile", seat, Visibility::kPublic);
    } else {
      if (s->seats[i].kind == "player") s->AddZone("hand", seat, Visibility::kOwner);
      s->AddGrid(GridKey(seat), GridRules{cfg.rows, cfg.cols, true});
    }
  }
  // Enough cards for everyone's hands over every round?
  int needed = 0;
  if (players == 1) {
    needed = 2 * cfg.rows * cfg.cols + 1;
  } else {
    for (const auto& r : cfg.rounds) needed += r.deal * static_cast<int>(s->index().rotation.size());
  }
  deck = s->FindZone("deck", -1);
  if (static_cast<int>(deck->cards.size()) < needed)
    return Status::Input("the deck has " + std::to_string(deck->cards.size()) + " cards (the sum of the cards' 'count') but " +
                         std::to_string(players) + " player(s) need " + std::to_string(needed) +
                         " to fill every hand of every round: raise the counts, or lower players.max in game.json");
  return Status::Ok();
}

Status Start(const DraftConfig& cfg, State* s) {
  Zone* deck = &s->zones[static_cast<size_t>(s->index().deck)];
  Shuffle(deck, &s->rng);
  if (s->record) s->Log(-1, "shuffle", {{"zone", "deck"}, {"cards", deck->cards.size()}});
  s->flow = Flow{};
  s->flow.phase = kPhase;
  s->flow.committed.assign(s->seats.size(), 0);
  s->flow.pending.assign(s->seats.size(), Move{});
  DealRound(cfg, s);
  SetToMove(s);
  return Status::Ok();
}

bool Active(const State& s) { return s.flow.phase == kPhase; }

bool EndsDraft(const DraftConfig& cfg, const State& s, int seat) {
  if (!Active(s)) return false;
  if (Solo(s)) return s.flow.turn == cfg.rows * cfg.cols - 1 && s.flow.step == 1;
  if (s.flow.round + 1 != static_cast<int>(cfg.rounds.size()) || s.flow.step + 1 != cfg.rounds.back().keep) return false;
  for (int p = 0; p < s.player_count; ++p)
    if (p != seat && !s.flow.committed[static_cast<size_t>(p)]) return false;
  return true;
}

void ToMove(const DraftConfig& cfg, const State& s, std::vector<int>* seats) {
  seats->clear();
  if (!Active(s)) return;
  for (int seat : s.flow.to_move)
    if (!s.flow.committed[static_cast<size_t>(seat)]) seats->push_back(seat);
}

static bool Giving(const State& s) { return Solo(s) && s.flow.step == 1; }

void LegalMoves(const DraftConfig& cfg, const State& s, int seat, std::vector<Move>* out) {
  out->clear();
  if (!Active(s) || seat < 0 || seat >= s.player_count || s.flow.committed[static_cast<size_t>(seat)]) return;
  const Zone& hand = s.zones[static_cast<size_t>(HandIndex(s, seat))];
  std::vector<CardId> cards;
  DistinctCards(hand, &cards);
  if (Giving(s)) {
    for (CardId c : cards) {
      Move m;
      m.type = "give";
      m.card = c;
      out->push_back(std::move(m));
    }
    return;
  }
  std::vector<Coord> cells;
  SeatGrid(s, seat).Placeable(&cells);
  out->reserve(cards.size() * cells.size());
  for (CardId c : cards)
    for (const Coord& cell : cells) {
      Move m;
      m.type = "place";
      m.card = c;
      m.has_cell = true;
      m.cell = cell;
      out->push_back(std::move(m));
    }
}

bool RandomMove(const DraftConfig& cfg, const State& s, int seat, Rng* rng, Move* out) {
  if (!Active(s) || seat < 0 || seat >= s.player_count || s.flow.committed[static_cast<size_t>(seat)]) return false;
  const Zone& hand = s.zones[static_cast<size_t>(HandIndex(s, seat))];
  // The distinct cards in id order, without allocating: hands are small. With ids below 64
  // (every card game here) a bit set gives them sorted in one pass.
  CardId distinct[64];
  int k = 0;
  uint64_t ids = 0;
  bool small = true;
  for (CardId c : hand.cards) {
    if (c < 0 || c >= 64) {
      small = false;
      break;
    }
    ids |= uint64_t{1} << c;
  }
  if (small) {
    for (; ids; ids &= ids - 1) distinct[k++] = static_cast<CardId>(__builtin_ctzll(ids));
  } else {
    for (CardId c : hand.cards) {
      bool seen = false;
      for (int i = 0; i < k && !seen; ++i) seen = distinct[i] == c;
      if (!seen && k < 64) distinct[k++] = c;
    }
    // Insertion sort: hands hold at most a dozen distinct cards.
    for (int i = 1; i < k; ++i)
      for (int j = i; j > 0 && distinct[j - 1] > distinct[j]; --j) std::swap(distinct[j - 1], distinct[j]);
  }
  if (k == 0) return false;
  out->args = SharedJson();
  out->has_to = false;
  if (Giving(s)) {
    out->type = "give";
    out->card = distinct[rng->Below(static_cast<uint32_t>(k))];
    out->has_cell = false;
    return true;
  }
  thread_local std::vector<Coord> cells;
  cells.clear();
  SeatGrid(s, seat).Placeable(&cells);
  if (cells.empty()) return false;
  const uint32_t pick = rng->Below(static_cast<uint32_t>(k * cells.size()));
  out->type = "place";
  out->card = distinct[pick / cells.size()];
  out->has_cell = true;
  out->cell = cells[pick % cells.size()];
  return true;
}

static Status Check(const DraftConfig& cfg, const State& s, int seat, const Move& m) {
  if (!Active(s)) return Status::Illegal("the draft is over");
  if (seat < 0 || seat >= s.player_count) return Status::Illegal("seat " + std::to_string(seat + 1) + " does not draft");
  if (s.flow.committed[static_cast<size_t>(seat)])
    return Status::Illegal(s.seats[static_cast<size_t>(seat)].name + " has already chosen this turn");
  const bool giving = Giving(s);
  const char* expected = giving ? "give" : "place";  // no string built unless the move is refused
  if (m.type != expected)
    return Status::Illegal(std::string("a '") + expected + "' move is expected now, got '" + m.type + "'");
  if (m.card == kNoCard) return Status::Illegal("the move names no card");
  if (!m.args.is_null() || m.has_to || (giving && m.has_cell))
    return Status::Illegal(std::string("a '") + expected + "' move has only a card" + (giving ? "" : " and a cell") +
                           ", got " + MoveToString(m, *s.cards));
  const Zone& hand = s.zones[static_cast<size_t>(HandIndex(s, seat))];
  if (!InHand(hand, m.card)) return Status::Illegal("'" + s.CardName(m.card) + "' is not in the hand");
  if (!giving) {
    if (!m.has_cell) return Status::Illegal("a 'place' move needs a cell");
    std::string why;
    if (!SeatGrid(s, seat).CanPlace(m.cell.row, m.cell.col, &why))
      return Status::Illegal("cannot place at [" + std::to_string(m.cell.row) + ", " + std::to_string(m.cell.col) + "]: " + why);
  }
  return Status::Ok();
}

static void EndOfPick(const DraftConfig& cfg, State* s) {
  const auto& round = cfg.rounds[static_cast<size_t>(s->flow.round)];
  // The neutral seat takes a random card from its hand each time the players pick.
  for (size_t i = 0; i < s->seats.size(); ++i) {
    if (s->seats[i].kind != "neutral") continue;
    Zone* hand = SeatZone(s, HandIndex(*s, static_cast<int>(i)));
    if (hand->cards.empty()) continue;
    const uint32_t k = s->rng.Below(static_cast<uint32_t>(hand->cards.size()));
    const CardId c = hand->cards[k];
    hand->cards.erase(hand->cards.begin() + k);
    s->FindZone("pile", static_cast<int>(i))->cards.push_back(c);
    s->Log(static_cast<int>(i), "neutral_pick", {{"card", s->CardName(c)}});
  }
  s->flow.step += 1;
  if (s->flow.step < round.keep) {
    // Rotate the hands' contents around the table without allocating.
    const std::vector<int>& rot = s->index().rotation;
    const size_t n = rot.size();
    if (n > 1) {
      auto hand = [&](size_t k) -> std::vector<CardId>& { return s->zones[static_cast<size_t>(rot[k])].cards; };
      if (round.pass_left)
        for (size_t k = n - 1; k > 0; --k) hand(k).swap(hand(k - 1));
      else
        for (size_t k = 0; k + 1 < n; ++k) hand(k).swap(hand(k + 1));
    }
    return;
  }
  // End of the round: leftovers are discarded.
  Zone* discard = SeatZone(s, s->index().discard);
  for (int zone : s->index().rotation) {
    Zone* hand = SeatZone(s, zone);
    discard->cards.insert(discard->cards.end(), hand->cards.begin(), hand->cards.end());
    hand->cards.clear();
  }
  s->flow.step = 0;
  // After the last round the game stays in it: the round a game ended in is its length.
  if (s->flow.round + 1 >= static_cast<int>(cfg.rounds.size())) {
    s->flow.phase = "draft_done";
    return;
  }
  s->flow.round += 1;
  DealRound(cfg, s);
}

static void SoloAfterTurn(const DraftConfig& cfg, State* s) {
  // The player just gave a card: the opponent's grid fills in reading order.
  const int turn = s->flow.turn;
  s->flow.turn += 1;
  s->flow.step = 0;
  const int cells = cfg.rows * cfg.cols;
  Zone* hand = s->FindZone("hand", 0);
  if (s->flow.turn >= cells) {
    Zone* discard = s->FindZone("discard", -1);
    discard->cards.insert(discard->cards.end(), hand->cards.begin(), hand->cards.end());
    hand->cards.clear();
    s->flow.phase = "draft_done";
    return;
  }
  const bool row_done = (turn + 1) % cfg.cols == 0;
  Draw(s->FindZone("deck", -1), hand, row_done ? cfg.solo_draw_on_row : cfg.solo_draw);
}

Status Apply(const DraftConfig& cfg, State* s, int seat, const Move& m, std::vector<Placement>* revealed) {
  Status st = Check(cfg, *s, seat, m);
  if (!st.ok()) return st;
  s->move_count += 1;
  if (Solo(*s)) {
    Zone* hand = s->FindZone("hand", 0);
    RemoveCard(hand, m.card);
    if (m.type == "place") {
      s->FindGrid(GridKey(0))->Set(m.cell.row, m.cell.col, Cell{m.card});
      if (revealed) revealed->push_back({0, m.card, m.cell});
      s->flow.step = 1;
    } else {
      const int opp = s->SeatIndex("opponent");
      const Coord c = OpponentCell(cfg, s->flow.turn);
      s->FindGrid(GridKey(opp))->Set(c.row, c.col, Cell{m.card});
      if (revealed) revealed->push_back({opp, m.card, c});
      SoloAfterTurn(cfg, s);
    }
    SetToMove(s);
    return Status::Ok();
  }
  s->flow.pending[static_cast<size_t>(seat)] = m;
  s->flow.committed[static_cast<size_t>(seat)] = 1;
  for (int p = 0; p < s->player_count; ++p)
    if (!s->flow.committed[static_cast<size_t>(p)]) return Status::Ok();
  // Everyone has chosen: reveal and place in seat order.
  for (int p = 0; p < s->player_count; ++p) {
    const Move& pm = s->flow.pending[static_cast<size_t>(p)];
    RemoveCard(SeatZone(s, HandIndex(*s, p)), pm.card);
    SeatGrid(s, p)->Set(pm.cell.row, pm.cell.col, Cell{pm.card});
    if (revealed) revealed->push_back({p, pm.card, pm.cell});
    s->flow.committed[static_cast<size_t>(p)] = 0;
    s->flow.pending[static_cast<size_t>(p)] = Move{};
  }
  EndOfPick(cfg, s);
  SetToMove(s);
  return Status::Ok();
}

bool CheckState(const DraftConfig& cfg, const State& s, std::string* error) {
  if (!Active(s)) return true;  // after the draft the rules' own scripts read the state
  auto fail = [&](const std::string& why) {
    *error = why;
    return false;
  };
  const size_t n = s.seats.size();
  if (s.flow.committed.size() != n || s.flow.pending.size() != n)
    return fail("at /flow/committed: the draft keeps one commitment and one hidden choice per seat (" + std::to_string(n) +
                "), the save has " + std::to_string(s.flow.committed.size()) + " and " + std::to_string(s.flow.pending.size()));
  if (Solo(s) ? s.flow.turn >= cfg.rows * cfg.cols : s.flow.round >= static_cast<int>(cfg.rounds.size()))
    return fail("at /flow/" + std::string(Solo(s) ? "turn" : "round") + ": past the draft's last " + (Solo(s) ? "turn" : "round"));
  if (!Solo(s) && s.flow.step >= cfg.rounds[static_cast<size_t>(s.flow.round)].keep)
    return fail("at /flow/step: past the round's last pick");
  if (Solo(s) && s.flow.step > 1) return fail("at /flow/step: a solo turn has steps 0 and 1");
  const State::Index& ix = s.index();
  for (size_t i = 0; i < n; ++i) {
    const bool drafts = static_cast<int>(i) < s.player_count || s.seats[i].kind == "neutral";
    if (drafts && ix.hand[i] < 0) return fail("at /zones: seat " + std::to_string(i + 1) + " has no hand zone");
    if (static_cast<int>(i) < s.player_count && ix.grid[i] < 0)
      return fail("at /grids: seat " + std::to_string(i + 1) + " has no grid '" + GridKey(static_cast<int>(i)) + "'");
    if (s.seats[i].kind == "neutral" && ix.pile[i] < 0) return fail("at /zones: the neutral seat has no pile zone");
  }
  if (ix.deck < 0) return fail("at /zones: there is no deck");
  if (ix.discard < 0) return fail("at /zones: there is no discard zone");
  if (Solo(s)) {
    const int opp = s.SeatIndex("opponent");
    if (opp < 0 || !s.FindGrid(GridKey(opp))) return fail("at /grids: the solo opponent has no grid");
  }
  return true;
}

}  // namespace plateau::draft

// Card drafting into personal grids, run by the host so the playout loop never calls a
// script: deal hands, secret simultaneous picks placed into each player's floating grid,
// pass hands left or right, discard leftovers, a neutral hand in the rotation for two
// players, and a solo opponent who receives the player's discards and fills its grid in
// reading order. Everything the rulebooks fix (hand size, picks, passing, frame, draw
// schedule) is configuration coming from the game's Lua table and data; scoring is not here.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "host/game.h"

namespace plateau {

struct DraftConfig {
  struct Round {
    int deal = 10;
    int keep = 10;       // cards each player places; the rest of the hand is discarded
    bool pass_left = true;
  };
  std::vector<Round> rounds;
  int rows = 4, cols = 5;
  std::vector<std::pair<CardId, int>> deck;  // card and number of copies
  bool neutral = false;            // with exactly two players, add a neutral hand
  std::string neutral_name = "neutral";
  // Solo: the player draws `solo_hand` cards; each turn places one card and gives one to the
  // opponent, then draws `solo_draw` (or `solo_draw_on_row` when the opponent just completed a
  // row), for rows*cols turns.
  int solo_hand = 10, solo_draw = 1, solo_draw_on_row = 5;
  std::string opponent_name = "opponent";
};

namespace draft {

// Creates seats, the deck, hands and grids, and deals the first round (Build then Start).
Status Setup(const DraftConfig& cfg, int players, State* state);
// Creates the seats and components with the deck in data order (no randomness): a state
// that can be copied as the template of every new game with the same players and config.
Status Build(const DraftConfig& cfg, int players, State* state);
// Shuffles the deck with the state's RNG and deals the first round.
Status Start(const DraftConfig& cfg, State* state);
bool Active(const State& state);  // still drafting
void ToMove(const DraftConfig& cfg, const State& state, std::vector<int>* seats);
void LegalMoves(const DraftConfig& cfg, const State& state, int seat, std::vector<Move>* out);
bool RandomMove(const DraftConfig& cfg, const State& state, int seat, Rng* rng, Move* out);

struct Placement {
  int seat;
  CardId card;
  Coord cell;
};
// Applies a draft move. Simultaneous picks stay hidden until every player has committed;
// then they are placed in seat order and reported in *revealed (for on-place hooks).
Status Apply(const DraftConfig& cfg, State* state, int seat, const Move& move, std::vector<Placement>* revealed);

// Whether a state that comes from outside (a save) has everything the draft code above relies
// on while the draft runs: a hand and a grid for every player (and the neutral seat), a deck, a
// discard pile, the solo opponent's grid, one commitment and one hidden choice per seat, a round
// and step the configuration has. False with *error naming the JSON path.
bool CheckState(const DraftConfig& cfg, const State& state, std::string* error);

// Grid key of a seat's grid.
std::string GridKey(int seat);
// Whether `seat` committing now would complete the draft (the last pick of the last round,
// or the solo player's last gift): callers that must snapshot before it can tell.
bool EndsDraft(const DraftConfig& cfg, const State& state, int seat);

}  // namespace draft
}  // namespace plateau

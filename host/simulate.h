// Batch simulation: N seeded games between bots on T threads (one rules instance per
// thread), and the designer's report built from them: games per second, totals and win
// rates per seat and per bot, score categories, game length, endings, the game's own
// measurements (its `stats`), per-card balance for card games, and findings — the signs of
// a degenerate design (a seat with an edge, something that never happens, games that never end).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "host/bots.h"

namespace plateau {

// printf into a string of at most 511 characters, for the report's lines.
std::string Format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

struct SimulationReport;

// One game's result, for comparing two runs game by game (plateau compare-readings).
struct GameOutcome {
  bool played = false;       // false: failed, or not in this run
  uint64_t winners = 0;      // seats sharing the top total, as bits
  int64_t top = 0;           // the winning total
  int64_t second = 0;        // the best total of a seat that did not win (= top when all share it)
  double rounds = 0;
};

struct SimulationSpec {
  // The game as the command named it (an id or a folder's path), for the command that
  // reproduces a failed game: a copy of a game in another folder keeps the manifest's id, so
  // the id would replay the original. Empty: the rules' id.
  std::string game;
  int games = 100;
  int players = 4;
  uint64_t seed = 1;
  std::vector<std::string> bots;  // one per seat (cycled when shorter)
  int threads = 1;
  Json params = Json::object();
  int max_rounds = 0;  // 0: none; a game past it is stopped and reported as a finding
  bool progress = false;
  bool profile = false;  // count the rules' calls and their time (report.calls)
  // Game k seats the bots shifted by k places, so that each bot plays each seat as often (over
  // a multiple of `players` games): its win rate then says how strong it is, not which seat
  // it sat in.
  bool rotate_seats = false;
  // A game whose rules fail stops the run, with the seed to reproduce it: the same failure
  // replayed in every game would only repeat the wait. With more (--keep-going), the run goes
  // on, counting failed games in the report, until this many have failed.
  int max_failures = 1;
  // For a caller that shows the run while it goes (plateau studio): `done_games`, when set,
  // counts finished games; `cancel`, when set and true, stops the run early (Simulate then
  // returns kInput "cancelled").
  std::atomic<int>* done_games = nullptr;
  const std::atomic<bool>* cancel = nullptr;
  // One slice of the run (plateau simulate --shard K/N): 1-based `shard` of `shards`, 0 of 0
  // for the whole run. Only the slice's games are played (ShardOf); with `blocks` set, each
  // block's own report is kept there in order, raw, for plateau merge (host/shard.h).
  int shard = 0, shards = 0;
  std::vector<SimulationReport>* blocks = nullptr;
  // How the game feels (SimulationReport::feel): the score over time of every game (off: only
  // to measure its cost, plateau-bench), and kingmaking looked for in the run's first
  // `kingmaking_games` games (0: not looked for; with fewer than 3 players it cannot happen).
  bool feel = true;
  int kingmaking_games = 0;
  // When set, sized to `games` and game g's result written at [g].
  std::vector<GameOutcome>* outcomes = nullptr;
};

struct Stat {
  int64_t n = 0;
  double sum = 0, sum2 = 0;
  double min = 1e300, max = -1e300;
  void Add(double v) {
    ++n;
    sum += v;
    sum2 += v * v;
    min = std::min(min, v);
    max = std::max(max, v);
  }
  void Merge(const Stat& o) {
    n += o.n; sum += o.sum; sum2 += o.sum2;
    min = std::min(min, o.min); max = std::max(max, o.max);
  }
  double Mean() const { return n ? sum / static_cast<double>(n) : 0; }
  double Stdev() const;
  double Min() const { return n ? min : 0; }
  double Max() const { return n ? max : 0; }
};

// One measurement a game reports per player (`players` in its stats): how big it was, how
// often it happened, and how often the players it happened to won.
struct PlayerMetric {
  Stat value;              // over player-games
  int64_t happened = 0;    // player-games with a value > 0
  double wins_when = 0;    // win shares of those player-games
  void Merge(const PlayerMetric& o) { value.Merge(o.value); happened += o.happened; wins_when += o.wins_when; }
};

// What one bot did over every seat it played.
struct BotRecord {
  int64_t player_games = 0;  // seats played, over all games
  double wins = 0;           // shared wins count as fractions
  Stat totals;
  void Merge(const BotRecord& o);
};

// Outcomes of the games that carried one tag (an event that came up, a variant rule used).
struct TagOutcome {
  int64_t games = 0;
  Stat rounds, top_score, spread;
  std::map<std::string, int64_t> endings;
  // The winning total and the spread by game length (rounds): a tag that comes up more in long
  // games is compared with the games of the same length without it.
  std::map<int64_t, std::pair<Stat, Stat>> by_length;
  void Merge(const TagOutcome& o);
};

// A tag's effect at equal game length: over the lengths where games both with and without the
// tag were played, the difference of their means, weighted by the tagged games of each length.
struct SameLengthEffect {
  int64_t games_compared = 0;  // tagged games of lengths that games without the tag also had
  double top_score = 0, spread = 0;
};
SameLengthEffect SameLength(const TagOutcome& tag, const TagOutcome& all);

// Per card type, for games whose score categories are card ids.
struct CardBalance {
  Stat points;              // per player-game that placed the card
  int64_t copies = 0;       // copies placed over all player-games
  double points_sum = 0;
  int64_t offered = 0, picked = 0;  // picks from a hand that held the card
  double PerCopy() const { return copies ? points_sum / static_cast<double>(copies) : 0; }  // points a copy placed
  void Merge(const CardBalance& o);
};

// A win rate with its 95% interval and how far it lies from a fair share (the seat balance of
// the report, README "Findings and thresholds"). A seat's fair share is the mean win rate of the
// seats played by the same bot (1 / players when one bot plays every seat); a bot's, with
// --rotate-seats, is 1 / players. The edge is significant when a two-sided z test of the rate
// against the fair share gives p below kEdgeLevel divided by the number of rates tested
// together (Bonferroni: seats of one bot, or bots).
inline constexpr double kEdgeLevel = 0.01;
struct WinBalance {
  double rate = 0, lo = 0, hi = 0;  // the win rate (shared wins as fractions) and its Wilson 95% interval
  double n = 0;                     // games (a seat) or seats played (a bot)
  bool tested = false;              // false: no fair share to test against (one seat of its bot, one player)
  double fair = 0, edge = 0;        // the fair share, and rate - fair
  double p_value = 1, level = kEdgeLevel;  // level: kEdgeLevel over the number tested together
  bool significant = false;
};
// The Wilson score interval of k successes in n trials (k may be fractional), at z (1.96: 95%).
void WilsonInterval(double k, double n, double z, double* lo, double* hi);

// How the game feels, from every game's score over time (README "How the game feels", where
// each measure is defined and its source named: Browne's Ludii metrics, Jaffe's restricted
// play). The thresholds of the findings it gives live here and in that section only.
inline constexpr double kComebackMargin = 0.2;      // drama: the winner was behind the leader by more than
                                                    // this share of the final winning total
inline constexpr double kComebackFrom = 0.25;       // drama: ... from this share of the game on (in the first
                                                    // scores someone must be last, and a few points are far)
inline constexpr double kRunawayLeadFor = 0.2;      // finding: the winner leads for good from before this
                                                    // share of the game (the 95% interval's top below it)
inline constexpr double kDeadTurnShare = 0.3;       // finding: dead turns above this share (interval's bottom)
inline constexpr double kKingmakingShare = 0.1;     // finding: kingmaking in at least this share of the sampled games
inline constexpr double kWeakCardShare = 1.0 / 6;   // finding: a card's points a copy under this share of the median card's
inline constexpr int64_t kWeakCardCopies = 30;      // ... counted for cards placed this many times or more (3 cards at least)
inline constexpr int kKingmakingAlternatives = 4;   // moves replayed per decision at most
inline constexpr int kKingmakingReplays = 60;       // replays per sampled game at most (its last decisions first)
inline constexpr double kGapAt[4] = {0.25, 0.5, 0.75, 1.0};  // where in the game the score gap is read

// One game's feel from its totals over time ([sample][seat], the final score last).
struct GameFeel {
  int lead_changes = 0;       // the sole leader changed from one sample to the next (ties skipped)
  bool single_winner = false; // the rest needs one winner
  double lead_for_good = 0;   // share of the game played before the winner led for good (0: from the first sample)
  bool from_last = false;     // the winner was alone in last place at some sample before the end (from kComebackFrom on)
  bool from_behind = false;   // ... or behind the leader by more than kComebackMargin of the winning total
  double gap[4] = {0, 0, 0, 0};  // leader minus second at kGapAt
};
GameFeel FeelOfGame(const std::vector<std::vector<int64_t>>& totals);

struct FeelRecord {
  int64_t games = 0;           // games measured (two players or more)
  int64_t by_round = 0;        // of those, sampled at round ends (the others after every move)
  int64_t samples = 0;
  Stat lead_changes;           // per game
  Stat lead_for_good;          // per game with one winner
  int64_t from_last = 0, from_behind = 0, drama = 0;  // games with one winner where it happened (drama: either)
  Stat gap[4];
  Stat dead;                   // per game with decisions: its share of dead decisions
  int64_t decisions = 0, single_move = 0, all_equal = 0;
  int64_t kingmaking_games = 0, kingmaking_found = 0;  // games sampled, games with a kingmaking move
  int64_t kingmaking_decisions = 0, kingmaking_replays = 0, kingmaking_cut = 0;  // cut: games whose replays ran out
  void Merge(const FeelRecord& o);
};

// The mean's 95% interval (normal, with the sample standard deviation).
void MeanInterval(const Stat& s, double* lo, double* hi);

struct SimulationReport {
  int games = 0;
  int failed = 0;
  int stopped = 0;           // games ended by a round limit: the host's, or the rules' own
  int stopped_by_rules = 0;  // of those, games the rules stopped (their stats said "stopped")
  int players = 0;
  double seconds = 0;
  std::vector<std::string> seat_names;     // "P1 (random)"
  std::vector<std::string> seat_bots;      // "random"; "rotating" when seats rotate
  bool rotate_seats = false;
  std::map<std::string, BotRecord> bots;   // by bot name
  std::vector<Stat> seat_totals;           // per seat
  std::vector<double> seat_wins;           // shared wins count as fractions
  std::vector<std::string> categories;     // in first-seen order
  std::vector<std::vector<Stat>> category; // [category][seat]
  std::vector<int> category_cards;         // per category: its card id, kNoCard, or -2 (not yet known)
  std::vector<CardBalance> category_balance;  // per category while a thread runs; merged into `cards`
  std::vector<std::string> first_errors;   // up to 5, with seeds
  std::vector<uint64_t> stopped_seeds;     // up to 5, stopped by the host's round limit
  std::vector<uint64_t> rules_stopped_seeds;  // up to 5, stopped by the rules' own
  Json extra_counts = Json::object();      // counts of values seen in score extras
  Stat rounds;                             // game length
  // Distributions for plots (plateau studio), not part of ToJson: per seat, how many games
  // ended with each total; how many games lasted each number of rounds.
  std::vector<std::map<int64_t, int64_t>> seat_score_counts;
  std::map<int64_t, int64_t> round_counts;
  Stat top_score, spread;                  // the winner's total; winner minus last
  std::map<std::string, int64_t> endings;  // the game's `ending`, or "round limit"
  std::map<std::string, Stat> counts;      // the game's per-game numbers
  std::map<std::string, PlayerMetric> metrics;  // the game's per-player numbers
  std::map<std::string, TagOutcome> tags;
  TagOutcome all;                          // every game, for comparing tags against
  std::map<std::string, CardBalance> cards;
  FeelRecord feel;
  std::vector<std::string> findings;       // filled by Findings()
  std::map<std::string, RulesCallStat> calls;  // with SimulationSpec::profile: every thread's
  double worker_seconds = 0;               // with profile: every thread's playing time, summed
  double GamesPerSecond() const { return seconds > 0 ? games / seconds : 0; }
  // The designer-facing warnings derived from the figures above.
  void ComputeFindings(int max_rounds);
  WinBalance SeatBalance(size_t seat) const;
  // With --rotate-seats and more than one bot; else `tested` is false.
  WinBalance BotBalance(const std::string& bot) const;
  Json ToJson() const;
  std::string ToText() const;
};

using RulesFactory = std::function<Status(std::unique_ptr<Rules>*)>;
Status Simulate(const RulesFactory& factory, const SimulationSpec& spec, SimulationReport* report);

// Blocks. Games are played in chunks of 8 consecutive seeds and the chunks are summed in game
// order into blocks, the blocks in block order into the report: floating-point sums (shared
// wins, the game's own numbers) then add up in one order whatever the threads, and a slice
// of whole blocks played elsewhere (--shard) can be summed into the same report bit for bit
// (plateau merge). A run has at most kMaxBlocks blocks, so a block is one chunk up to
// 8 x kMaxBlocks games (the sums of a plain run are then those of a run before blocks) and
// grows with longer runs, keeping a shard's raw blocks small.
inline constexpr int kChunkGames = 8;
inline constexpr int kMaxBlocks = 256;
int BlockGames(int games);  // games per block (a multiple of kChunkGames)
int BlockCount(int games);
// The K-th of N slices (1 <= k <= n) of a run of `games`: blocks [first_block, end_block) and
// their games [first_game, end_game). Slices differ by at most one block; with more slices
// than blocks some are empty.
struct ShardSlice {
  int first_block = 0, end_block = 0;
  int first_game = 0, end_game = 0;
};
ShardSlice ShardOf(int games, int k, int n);

// The steps Simulate builds a report with, for plateau merge to build it the same way from
// the raw blocks of shards: a report set up for the spec's seats, a part (a chunk's or a
// block's report) added into a total, and the finishing touches (seeds in order, findings).
void InitReport(const SimulationSpec& spec, SimulationReport* r);
void MergeReport(const SimulationReport& part, int players, SimulationReport* total);
void FinishReport(int max_rounds, SimulationReport* r);

}  // namespace plateau

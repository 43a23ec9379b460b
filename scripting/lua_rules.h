// LuaRules: a game whose rules are a Lua table, run through the host's Rules contract.
// The game table (returned by the manifest's rules script) declares hooks:
//   draft(ctx)                 -> configuration of the host's drafting mechanism (optional)
//   setup(ctx, state)          -> builds anything the draft does not (optional)
//   to_move(ctx, state)        -> seats that must move now, after the draft
//   legal_moves(ctx, state, seat), moves.<type>(ctx, state, seat, move)
//   score(ctx, state)          -> per seat {total=, breakdown={}}
//   evaluate(ctx, state, seat), view(ctx, state, seat), on_place.<card>(ctx, state, seat, cell)
// Hooks that only look (to_move, legal_moves, score, evaluate, view) get a read-only state;
// hooks that change it run on the live state after a snapshot, restored if they fail.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>

#include "host/draft.h"
#include "host/loader.h"
#include "scripting/bindings.h"
#include "scripting/runtime.h"

namespace plateau::scripting {

class LuaRules : public Rules {
 public:
  // Loads and validates the game folder, then runs its rules script in a fresh VM.
  static Status Load(const std::string& game, const Limits& limits, std::unique_ptr<LuaRules>* out);
  // The same, with data values overridden for this run (`--set <data>.<path>=<value>`). A look
  // (data/look.json) that was refused fails the load last, unless `defer_look` (a reload, which
  // checks the table first and then refuses it: files().look_error).
  static Status Load(const std::string& game, const Limits& limits, const std::vector<DataOverride>& data_sets,
                     std::unique_ptr<LuaRules>* out, bool defer_look = false);
  ~LuaRules() override;

  const GameInfo& info() const override { return files_.info; }
  Status NewGame(const Json& params, int players, uint64_t seed, State* out) override;
  Status ToMove(const State& state, std::vector<int>* seats) override;
  Status LegalMoves(const State& state, int seat, std::vector<Move>* out) override;
  // Converts only the chosen move of the `legal_moves` list (a random game's decision would
  // otherwise turn every listed move into a host move to keep one).
  Status RandomMove(const State& state, int seat, Rng* rng, Move* out, int* listed) override;
  using Rules::RandomMove;
  Status Apply(State* state, int seat, const Move& move) override;
  Status Preview(const State& state, int seat, const Move& move, State* out) override;
  // Trials of scripted moves are journaled: undoing one restores only what it touched.
  Status TryMove(State* state, int seat, const Move& move) override;
  void UndoTrial(State* state) override;
  Status Score(const State& state, ScoreTable* out) override;
  Status Evaluate(const State& state, int seat, double* out) override;
  Status EvaluateWith(const State& state, int seat, const std::vector<std::pair<std::string, double>>& options,
                      double* out) override;
  Status CheckTotals(const State& state) override;
  Status CurrentTotals(const State& state, std::vector<int64_t>* out) override;
  Status EvaluateMoves(const State& state, int seat, const std::vector<Move>& moves,
                       const std::vector<std::pair<std::string, double>>& options, std::vector<double>* out,
                       int* base) override;
  Status CheckEvaluateMoves(const State& state, int seat, const std::vector<Move>& moves, int max_trials = 0,
                            uint64_t pick = 0) override;
  // An answer to a question (or a move of a to_move turn) while other seats are still to
  // choose: ApplyScripted keeps it aside and runs nothing. Draft picks are not hidden: their
  // trials show the pick, as Preview does.
  bool ChoiceIsHidden(const State& state, int seat) override;
  Status CheckRandomMove(const State& state, int seat, const std::vector<Move>& moves, uint64_t seed) override;
  Status Stats(const State& state, Json* out) override;
  // The game's own words for a legal move (`describe` hook), or "" without the hook.
  // The describe hook's text for a move ("" without the hook) and, when asked, the group it
  // puts the move in for a person choosing among many (its second value: a string or a list of
  // up to 4 strings, outermost first; empty when it gives none) and its picture (its third
  // value: lines shown under the move in short menus; "" when none).
  Status Describe(const State& state, int seat, const Move& move, std::string* out,
                  std::vector<std::string>* group = nullptr, std::string* picture = nullptr);
  std::string View(const State& state, int seat) override;
  // Per hook ("evaluate", "moves.<type>", ...): calls and time, outermost calls only.
  void EnableCallStats(bool on) override { call_stats_on_ = on; }
  void AddCallStats(std::map<std::string, RulesCallStat>* out) const override;
  // A draft counts its rounds; other games once they have called state:set_round.
  Status CheckLoaded(const State& state) override;
  // Failing fast (plateau test): once a hook has run past the wall-clock backstop, later calls
  // of that hook are not made; they fail at once with Status::skipped set, saying why.
  void set_skip_after_backstop(bool on) { skip_after_backstop_ = on; }
  // ctx.explain: true while a board is scored for `plateau score --explain`, so a score hook
  // may say in its extra's "explain" how each row was scored (work no other call pays for).
  void SetExplain(bool on);
  bool CountsRounds() const override { return uses_draft_ || binding_.counts_rounds; }

  const GameFiles& files() const { return files_; }
  // The data overrides the rules were loaded with (their games carry them, State::data_overrides).
  const std::vector<DataOverride>& data_overrides() const { return data_overrides_; }
  // RulesFingerprint of the files these rules were loaded from, taken when they loaded (the
  // files may change on disk later, which is what a comparison with it tells).
  const std::string& fingerprint() const { return fingerprint_; }
  Runtime& runtime() { return *rt_; }
  // Pushes ctx as the hooks get it (the read-only proxy): what the API census test walks.
  void PushContext();
  // Builds a state holding the given grids for scoring finished boards (plateau score).
  // grids[i] is rows of card ids for player i; `neutral` gives pile contents by card. A grid
  // must fit the draft's frame; `full` asks for exactly the frame (a finished board), else a
  // smaller grid, even with short rows, is accepted (a scenario test's corner).
  Status BoardState(const std::vector<std::string>& names, const std::vector<std::vector<std::vector<std::string>>>& grids,
                    const Json& neutral, State* out, const Json& params = Json::object(), bool full = false);
  // Builds a state from a position file (schemas/position.schema.json, already validated): a
  // new game with the file's players and names, whose tile map gets the file's tiles (placed
  // again in order, so two tiles on one space, mismatched edges, unknown tiles and bad rotations
  // are refused naming the entry) and pieces, whose region map gets the file's marks, whose
  // shared zones get the file's cards, with the file's data values and phase. `path` prefixes
  // every refusal ("<path>: at /pieces/0/cell: ...").
  Status PositionState(const Json& board, const std::string& path, const Json& params, State* out);
  // Applies the choices the player would make at the end (lion prey etc.) that maximise
  // their own total: used when scoring boards given without choices.
  // Whether the game table has this field (recorded by the shape check; the table is fixed
  // once loaded, and a reload makes a new LuaRules).
  bool has_hook(const std::string& name) const;
  // The game table's `version` (0 when absent): what migrate(ctx, state, old_version) sees.
  int64_t version() const;
  // Runs migrate(ctx, state, old_version) on `state` (writable); the state is unchanged on failure.
  Status Migrate(State* state, int64_t old_version);

 private:
  LuaRules() = default;
  Status Init(const Limits& limits);
  Status RunCheck();
  Status CheckShape();
  Status PushHook(const char* name);  // pushes game[name] (or nil)
  // "<file>:<line>: " where hook `name` is defined (the rules file when it cannot be told).
  std::string HookWhere(const char* name);
  Status CallHook(const char* name, const State* state, bool writable, int nargs, int nresults);
  Status EnsureDraftConfig(const Json& params);
  Status DraftFor(const State& state);
  uint64_t draft_uid_ = 0;  // the state whose parameters draft_ was last checked against
  void UpdateParams(const Json& params);
  Status Reveal(State* state, const std::vector<draft::Placement>& placed);
  Status ApplyMove(State* state, int seat, const Move& move);
  Status ApplyScripted(State* state, int seat, const Move& move, bool trial);
  Status ListLegal(const State& state, int seat, const std::vector<Move>** out);
  Status EvaluateFromTotals(const State& state, int seat, double* out);
  // The `totals` hook's list, checked: an integer (±limits::kScore) per seat, none missing
  // for a player, nothing but seats.
  Status Totals(const State& state, std::vector<std::optional<int64_t>>* out);
  std::vector<std::optional<int64_t>> totals_scratch_;  // EvaluateFromTotals's, kept between calls

  // Caches of the pure queries for one state version (see StateIdentity).
  struct ToMoveCache {
    uint64_t uid = 0, generation = 0;
    std::vector<int> seats;
  } to_move_cache_;
  // Whether legal_cache_ holds the list of this state version for `seat`.
  bool LegalListed(const State& state, int seat) const;
  // Calls `legal_moves`, leaving its result on the stack (a list, or nil: *n = 0) for the
  // caller to pop; *n is the list's length. A result that is neither is the hook's error.
  Status PushLegalList(const State& state, int seat, size_t* n);
  // Entry i (0-based) of the list on top of the stack as a host move, or the hook's error
  // naming the entry; *plain (when given) false if the entry has a metatable.
  Status LegalMoveAt(size_t i, Move* out, bool* plain = nullptr);
  struct LegalCache {
    uint64_t uid = 0, generation = 0;
    int seat = -1;
    std::vector<Move> moves;
  } legal_cache_;
  // The Lua list legal_cache_ was converted from, kept (a registry reference) for one use:
  // evaluate_moves is handed those very tables, instead of a copy built move by move, when no
  // hook has run since the list was made (hook_calls_) and its moves are the cached ones.
  struct LegalTables {
    lua_State* L = nullptr;
    int ref = -2;  // LUA_NOREF
    uint64_t stamp = 0;  // hook_calls_ when the list was made
  } legal_tables_;
  uint64_t hook_calls_ = 0;  // every CallHook, so a Lua table kept between calls is known unchanged
  // The moves a host generator lists (draft picks) as frozen Lua tables, made once and handed
  // to evaluate_moves decision after decision (registry references, by type, then card and
  // cell). Dropped with the VM (Init).
  std::unordered_map<std::string, std::unordered_map<uint64_t, int>> listed_moves_;
  size_t listed_move_count_ = 0;
  std::string listed_type_;  // the type whose map listed_by_type_ is (moves come in runs of a type)
  std::unordered_map<uint64_t, int>* listed_by_type_ = nullptr;
  // Pushes move `m` for evaluate_moves: the kept frozen table of a plain move (no arguments,
  // no `to`), or a new table.
  void PushListedMove(const Move& m);
  void DropLegalTables();
  // Pushes the kept list when it can stand for `moves` of this state and seat (and drops it).
  bool PushLegalTables(const State& state, int seat, const std::vector<Move>& moves);
  // The move RandomMove took from `legal_moves` of one state version: Apply of that very move
  // on that version needs no second listing to find it legal.
  struct Vouched {
    uint64_t uid = 0, generation = 0;
    int seat = -1;
    Move move;
  } vouched_;
  // The one draw a `random_move` hook makes through its pick(n): the bot's RNG while the hook
  // runs (pick refuses to draw at any other time, so a pick kept by the script draws nothing),
  // and the draw's n and k (0-based) for the caller to check.
 public:
  struct RandomPick {
    Rng* rng = nullptr;
    bool active = false;
    int calls = 0;
    uint32_t n = 0, k = 0;
  };

 private:
  RandomPick pick_;
  // Calls random_move with a pick drawing on `rng`; *out is the move it returned and pick_
  // holds the draw. Errors name the hook's line.
  Status HookRandomMove(const State& state, int seat, Rng* rng, Move* out);
  struct DraftMovesCache {
    uint64_t uid = 0, generation = 0;
    int seat = -1;
    std::vector<Move> moves;
  } draft_moves_;  // ListLegal's list of draft picks, for one state version
  uint64_t params_checked_uid_ = 0;  // the state whose parameters ctx.params already holds

  GameFiles files_;
  std::vector<DataOverride> data_overrides_;
  std::string fingerprint_;
  std::unique_ptr<Runtime> rt_;
  Binding binding_;
  bool call_stats_on_ = false;
  int call_depth_ = 0;
  std::map<std::string, RulesCallStat> call_stats_;
  StateUndo undo_;  // the journal of the scripted move being applied, or of an open trial
  // Per open trial, how it is taken back: the journal, a copy of the whole state, or (a
  // draft pick, the greedy bots' most common trial) the one card and the one grid it touched.
  enum class TrialKind : uint8_t { kJournal, kCopy, kDraftPick };
  std::vector<TrialKind> trial_kinds_;
  struct DraftPickTrial {
    size_t hand = 0;      // index in State::zones
    size_t position = 0;  // where the card was in the hand: put back there
    CardId card = kNoCard;
    size_t grid = 0;      // index in State::grids
    Grid before;  // the whole grid: a placement may grow its storage and move its bounds
    uint64_t generation = 0;
    bool record = false;
  };
  std::vector<DraftPickTrial> draft_trials_;  // [0, draft_depth_) are open trials
  size_t draft_depth_ = 0;
  bool TryDraftPick(State* state, int seat, const Move& move, Status* st);
  int game_ref_ = -2, ctx_ref_ = -2, ctx_table_ref_ = -2;
  bool uses_draft_ = false;
  bool skip_after_backstop_ = false;
  std::map<std::string, std::string> backstopped_;  // hook -> the message of its backstop failure
  bool has_on_place_ = false;
  std::vector<bool> on_place_card_;  // by card id: the card has an on_place hook
  bool has_after_draft_ = false;
  DraftConfig draft_;
  Json draft_params_;  // the params draft_ was built with
  Json current_params_;
  State template_;  // a new draft game before its shuffle, for template_players_/params_
  int template_players_ = -1;
  Json template_params_;
  std::vector<std::string> categories_;  // game.categories, the breakdown order
  std::set<std::string> hooks_;          // fields present in the game table
  int categories_ref_ = -2;               // the same names as a Lua list (registry)
};

}  // namespace plateau::scripting

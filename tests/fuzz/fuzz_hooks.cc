// fuzz_hooks: whole hooks of a small fixed game returning values decoded from the input, driven
// through scripting::LuaRules (scripting/lua_rules.h) the way `plateau play` and the bots drive it.
//
// Feeds: rules.lua of a game with four cards (fox, hen, tree, pond), 1-4 players and one
// parameter, written into the scratch folder and loaded afresh for every input. The first byte
// picks the form of the input, the second the number of players (1 + byte % 4):
//   0..199   structured: the input decides, hook by hook, whether it keeps a working default
//            body, returns values made by LuaGen (lua_gen.h: NaN, infinities, 2^31, 2^63,
//            fractions, non-UTF-8 strings, holes, cycles, deep tables, functions, handles...),
//            raises an error with such a value, or runs state operations with such arguments
//            (add_grid/add_zone/add_counter/add_track with huge or negative sizes, counter:add,
//            track:move, grid:add, zone:draw, state:ask, set_round, state.data writes), each in a
//            pcall or not. Hooks: draft (optional: the config's deal/keep/grid/deck/solo fields),
//            setup, to_move, legal_moves, moves.play, score, evaluate, view, stats, describe,
//            categories;
//   200..255 source: the third byte picks one hook (byte % 9, in the order setup, to_move,
//            legal_moves, moves.play, score, evaluate, view, stats, describe) and the rest of the
//            input is its body (Lua text; the corpus has snippets); the other hooks keep their
//            defaults.
// Runs: LuaRules::Load, NewGame, then up to 8 moves (a listed move, or one chosen by the
// greedy, heuristic or mcts bot: TryMove/UndoTrial/Preview/EvaluateWith), ToMove, LegalMoves,
// Apply, Score (RenderScores), Evaluate, View, Stats, Describe, then State::ToJson/FromJson and
// a replay of the log from the seed (host/replay.h).
// Checks (Finding() aborts): read-only hooks (to_move, legal_moves, score, evaluate, view,
// stats, describe) leave the state's hash unchanged; a failed Apply leaves it unchanged; a trial
// undone restores it; a bot's choice leaves it as it was; every state the rules build saves and
// loads back to the same hash; for structured rules, the replay of the log reaches the same hash.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "host/bots.h"
#include "host/json_io.h"
#include "host/render.h"
#include "host/replay.h"
#include "scripting/lua_rules.h"
#include "tests/fuzz/fuzz_util.h"
#include "tests/fuzz/lua_gen.h"

namespace plateau::fuzz {
namespace {

using scripting::LuaRules;

const char* kManifest = R"({
  "id": "fuzz-hooks",
  "api_version": 1,
  "version": 1,
  "name": {"en": "Fuzz hooks"},
  "players": {"min": 1, "max": 4},
  "rules": "rules.lua",
  "data": {"cards": {"file": "data/cards.json", "schema": "cards"}},
  "bot_options": {"knowledge": {"minimum": 0, "maximum": 1, "doc": "how much the bot knows"}},
  "parameters": {"deal": {"type": "integer", "default": 3, "minimum": 1, "maximum": 20, "doc": "cards dealt"}}
})";

const char* kCards = R"({"cards": [
  {"id": "fox", "count": 8}, {"id": "hen", "count": 8}, {"id": "tree", "count": 8}, {"id": "pond", "count": 8}]})";

const std::string& Folder() {
  static const std::string folder = [] {
    const std::string f = TempDir() + "/hooks";
    WriteFile(f + "/game.json", kManifest);
    WriteFile(f + "/data/cards.json", kCards);
    return f;
  }();
  return folder;
}

enum Hook { kSetup, kToMove, kLegal, kPlay, kScore, kEvaluate, kView, kStats, kDescribe, kHookCount };
const char* const kSignatures[] = {
    "function game.setup(ctx, state)",           "function game.to_move(ctx, state)",
    "function game.legal_moves(ctx, state, seat)", "function game.moves.play(ctx, state, seat, move)",
    "function game.score(ctx, state)",           "function game.evaluate(ctx, state, seat, options)",
    "function game.view(ctx, state, seat)",      "function game.stats(ctx, state)",
    "function game.describe(ctx, state, seat, move)"};
// Working bodies: a game of 6 moves in turn, each placing a fox in a row or passing.
const char* const kDefaults[] = {
    "  state.data.n = 0\n",
    "  local n = state.data.n or 0\n  if n >= 6 then return {} end\n  return {n % state.player_count + 1}\n",
    "  return {{type = \"play\", card = \"fox\", cell = {0, state.data.n or 0}}, {type = \"pass\"}}\n",
    "  state.data.n = (state.data.n or 0) + 1\n",
    "  local t = {}\n  for i = 1, state.player_count do t[i] = {total = i, breakdown = {a = i}} end\n  return t\n",
    "  return (state.data.n or 0) / 10\n",
    "  return \"view of seat \" .. tostring(seat)\n",
    "  return {n = state.data.n}\n",
    "  return \"a move\"\n"};

const std::vector<std::string> kWords = {"fox", "hen", "tree", "pond", "wolf", "play", "pass", "g", "z", "c",
                                         "t", "n", "a", "hand", "grid", "deck", "discard", "pile", "neutral",
                                         "opponent", "P1", "P2", "hidden", "owner", "public", "draft", "draft_done"};

class RulesWriter {
 public:
  explicit RulesWriter(FuzzedDataProvider* in) : in_(in), gen_(in, kWords, true, true) {}

  std::string Seat() {
    switch (in_->ConsumeIntegralInRange<int>(0, 4)) {
      case 0: return "nil";
      case 1: return "seat or 1";
      case 2: return std::to_string(in_->ConsumeIntegralInRange<int>(1, 4));
      case 3: return gen_.Word();
      default: return gen_.Value(1);
    }
  }
  std::string Name() { return in_->ConsumeIntegralInRange<int>(0, 5) ? gen_.Word() : gen_.Value(1); }
  std::string Num() { return in_->ConsumeIntegralInRange<int>(0, 2) ? gen_.Integer() : gen_.Number(); }
  std::string Small() { return std::to_string(in_->ConsumeIntegralInRange<int>(-1, 6)); }
  std::string MaybeNum() { return in_->ConsumeBool() ? Small() : Num(); }

  // One state operation with arguments from the input (writes fail in read-only hooks).
  std::string Op() {
    switch (in_->ConsumeIntegralInRange<int>(0, 17)) {
      case 0: case 1: return "state.data[" + Name() + "] = " + gen_.Value(3);
      case 2: return "state.data.n = " + gen_.Value(2);
      case 3:
        return "state:add_grid(" + Name() + ", " + Seat() + ", {rows = " + MaybeNum() + ", cols = " + MaybeNum() +
               ", must_touch = " + gen_.Value(0) + "})";
      case 4:
        return "state:add_zone(" + Name() + ", " + Seat() + ", " + gen_.Word() + ", " +
               (in_->ConsumeBool() ? "{\"fox\", \"hen\", \"fox\"}" : gen_.Value(2)) + ")";
      case 5:
        return "state:add_counter(" + Name() + ", " + Seat() + ", {value = " + MaybeNum() + ", min = " + MaybeNum() +
               ", max = " + MaybeNum() + "})";
      case 6:
        return "state:add_track(" + Name() + ", {length = " + MaybeNum() + ", circular = " + gen_.Value(0) +
               ", position = " + MaybeNum() + "})";
      case 7: return "state:counter(" + Name() + ", " + Seat() + "):add(" + Num() + ")";
      case 8: return "state:counter(" + Name() + ", " + Seat() + "):set(" + Num() + ")";
      case 9: return "state:track(" + Name() + "):move(" + Num() + ")";
      case 10: return "state:grid(" + Seat() + ", " + Name() + "):add(" + MaybeNum() + ", " + MaybeNum() + ", " + gen_.Word() + ")";
      case 11: return "state:zone(" + Name() + ", " + Seat() + "):draw(state:zone(" + Name() + ", " + Seat() + "), " + Num() + ")";
      case 12: return "state:ask(" + Seat() + ", " + (in_->ConsumeBool() ? "{{type = \"pass\"}}" : gen_.Value(3)) + ")";
      case 13: return "state:set_round(" + Num() + ")";
      case 14: return "state:set_phase(" + gen_.Value(1) + ")";
      case 15: return "local g = state:grid(" + Seat() + ", " + Name() + ") local _ = g:placeable(), g:snapshot(), g:bounds()";
      case 16: return "local _ = state:read(" + Name() + ")";
      default: return "ctx.log(" + gen_.Value(1) + ")";
    }
  }

  std::string Ops() {
    std::string s;
    const int n = in_->ConsumeIntegralInRange<int>(0, 4);
    for (int i = 0; i < n; ++i) {
      const std::string op = Op();
      s += in_->ConsumeIntegralInRange<int>(0, 3) ? "  pcall(function() " + op + " end)\n" : "  " + op + "\n";
    }
    return s;
  }

  std::string Body(int hook) {
    const std::string def = kDefaults[hook];
    switch (in_->ConsumeIntegralInRange<int>(0, 7)) {
      case 0: case 1: case 2: return def;
      case 3: return "  return " + gen_.Value(3) + "\n";
      case 4: return "  return " + gen_.Value(2) + ", " + gen_.Value(2) + "\n";
      case 5: return "  error(" + gen_.Value(2) + ")\n";
      case 6: return Ops() + def;
      default: return Ops() + "  return " + gen_.Value(3) + "\n";
    }
  }

  std::string Field(const std::string& sane) {
    return in_->ConsumeIntegralInRange<int>(0, 4) ? sane : (in_->ConsumeBool() ? Num() : gen_.Value(2));
  }

  std::string Draft() {
    std::string s = "function game.draft(ctx)\n  return {rounds = {";
    const int rounds = in_->ConsumeIntegralInRange<int>(0, 3) ? 2 : in_->ConsumeIntegralInRange<int>(0, 4);
    for (int i = 0; i < rounds; ++i)
      s += "{deal = " + Field("ctx.params.deal") + ", keep = " + Field("2") + ", pass = " +
           Field(i % 2 ? "\"right\"" : "\"left\"") + "}, ";
    s += "}, grid = {rows = " + Field("2") + ", cols = " + Field("2") + "}, deck = {fox = " + Field("8") +
         ", hen = " + Field("8") + ", tree = " + Field("8") + ", pond = " + Field("8") + "}";
    if (in_->ConsumeBool()) s += ", neutral = " + Field("true");
    if (in_->ConsumeBool())
      s += ", solo = {hand = " + Field("6") + ", draw = " + Field("1") + ", draw_on_row = " + Field("2") + "}";
    return s + "}\nend\n";
  }

  std::string Structured() {
    std::string s = "local game = {api_version = 1, moves = {}}\n";
    if (in_->ConsumeIntegralInRange<int>(0, 3) == 0) s += Draft();
    for (int h = 0; h < kHookCount; ++h) s += std::string(kSignatures[h]) + "\n" + Body(h) + "end\n";
    s += "function game.moves.pass(ctx, state, seat, move)\n  state.data.n = (state.data.n or 0) + 1\nend\n";
    if (in_->ConsumeIntegralInRange<int>(0, 5) == 0) s += "game.categories = " + gen_.Value(1) + "\n";
    return s + "return game\n";
  }

  static std::string WithBody(int hook, const std::string& body) {
    std::string s = "local game = {api_version = 1, moves = {}}\n";
    for (int h = 0; h < kHookCount; ++h) s += std::string(kSignatures[h]) + "\n" + (h == hook ? body + "\n" : kDefaults[h]) + "end\n";
    s += "function game.moves.pass(ctx, state, seat, move)\n  state.data.n = (state.data.n or 0) + 1\nend\n";
    return s + "return game\n";
  }

 private:
  FuzzedDataProvider* in_;
  LuaGen gen_;
};

// What the checks compare to see that a state did not change: the hash of all but state.data,
// and a hash of state.data taken by walking it (each string hashed whole by the standard
// library). Hashing a state whose data holds tens of MiB wrote and escaped all of it for every
// check: seconds per input under the sanitizers, so one such input outran the time limit.
struct Fingerprint {
  std::string rest;
  size_t data = 0;
  bool operator!=(const Fingerprint& o) const { return rest != o.rest || data != o.data; }
};

size_t DataHash(const Json& j) {
  auto mix = [](size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); };
  size_t h = static_cast<size_t>(j.type());
  switch (j.type()) {
    case Json::value_t::string:
      return mix(h, std::hash<std::string_view>{}(j.get_ref<const std::string&>()));
    case Json::value_t::number_integer:
      return mix(h, std::hash<int64_t>{}(j.get<int64_t>()));
    case Json::value_t::number_unsigned:
      return mix(h, std::hash<uint64_t>{}(j.get<uint64_t>()));
    case Json::value_t::number_float:
      return mix(h, std::hash<double>{}(j.get<double>()));
    case Json::value_t::boolean:
      return mix(h, j.get<bool>() ? 1 : 2);
    case Json::value_t::array:
      for (const Json& v : j) h = mix(h, DataHash(v));
      return h;
    case Json::value_t::object:
      for (auto it = j.begin(); it != j.end(); ++it)
        h = mix(mix(h, std::hash<std::string_view>{}(it.key())), DataHash(*it));
      return h;
    default:
      return h;
  }
}

Fingerprint FingerprintOf(const State& state) {
  // The data is moved out for the hash of the rest and back: the state is as it was.
  State& s = const_cast<State&>(state);
  Json data = std::move(s.data);
  s.data = Json::object();
  Fingerprint f;
  f.rest = s.Hash();
  s.data = std::move(data);
  f.data = DataHash(s.data);
  return f;
}

void CheckSaveLoad(const LuaRules& rules, const State& state, const char* when) {
  const Json j = state.ToJson();
  (void)DumpJson(j);
  State back;
  std::string error;
  if (!State::FromJson(j, rules.files().cards, &back, &error, rules.files().tiles, rules.files().regions))
    Finding(std::string("a state the rules built does not load back ") + when + ": " + error);
  if (FingerprintOf(back) != FingerprintOf(state)) Finding(std::string("a state saved and loaded changed its hash ") + when);
}

// Runs a read-only query and checks the state did not change.
template <typename F>
Status ReadOnly(const State& state, const char* what, F&& f) {
  const Fingerprint before = FingerprintOf(state);
  Status st = f();
  if (FingerprintOf(state) != before) Finding(std::string("read-only call ") + what + " changed the state");
  return st;
}

void Run(const uint8_t* data, size_t size) {
  if (size < 3) return;
  const uint8_t form = data[0];
  const int players = 1 + data[1] % 4;
  std::string rules_text;
  if (form >= 200) {
    rules_text = RulesWriter::WithBody(data[2] % kHookCount, std::string(reinterpret_cast<const char*>(data + 3), size - 3));
  } else {
    FuzzedDataProvider in(data + 2, size - 2);
    RulesWriter w(&in);
    rules_text = w.Structured();
  }
  WriteFile(Folder() + "/rules.lua", rules_text);
  // PLATEAU_FUZZ_PRINT=1: the rules written and what each step returned, to triage an input.
  const bool print = std::getenv("PLATEAU_FUZZ_PRINT") != nullptr;
  if (print) std::fprintf(stderr, "---- rules.lua\n%s----\n", rules_text.c_str());
  auto said = [&](const char* what, const Status& st) {
    if (print) std::fprintf(stderr, "%s: %s\n", what, st.ok() ? "ok" : st.ToString().c_str());
    return st.ok();
  };
  std::unique_ptr<LuaRules> rules;
  if (!said("load", LuaRules::Load(Folder(), FuzzLimits(), &rules))) return;
  Json params;
  if (!ResolveParams(rules->info(), Json::object(), &params).ok()) return;
  State state;
  if (!said("new game", rules->NewGame(params, players, 1, &state))) return;
  CheckSaveLoad(*rules, state, "after NewGame");

  // Which seat moves, which listed move, and whether a bot, a trial or the move itself is
  // played: from the input's last bytes, mixed.
  std::string error;
  std::vector<std::unique_ptr<Bot>> bots;
  for (const char* spec : {"greedy", "heuristic:samples=2", "mcts:iters=6:depth=4", "random"})
    bots.push_back(MakeBot(spec, 7, &error, &rules->info()));
  uint64_t pick = 0;
  for (size_t i = 0; i < size && i < 8; ++i) pick = pick * 131 + data[size - 1 - i];

  for (int step = 0; step < 8; ++step) {
    std::vector<int> seats;
    if (!ReadOnly(state, "ToMove", [&] { return rules->ToMove(state, &seats); }).ok() || seats.empty()) break;
    const int seat = seats[static_cast<size_t>(pick % seats.size())];
    if (seat < 0 || seat >= static_cast<int>(state.seats.size())) Finding("ToMove gave seat " + std::to_string(seat));
    std::vector<Move> legal;
    if (!ReadOnly(state, "LegalMoves", [&] { return rules->LegalMoves(state, seat, &legal); }).ok() || legal.empty()) break;
    Move move = legal[static_cast<size_t>((pick / 7) % legal.size())];
    const int how = static_cast<int>((pick / 3 + static_cast<uint64_t>(step)) % 6);
    if (how < 4) {
      // A bot's choice: trials on the live state must leave it as it was.
      const Fingerprint before = FingerprintOf(state);
      Move chosen;
      Status st = bots[static_cast<size_t>(how)]->ChooseIn(*rules, &state, seat, &chosen);
      if (FingerprintOf(state) != before) Finding(std::string("bot ") + bots[static_cast<size_t>(how)]->name() + " left the state changed");
      if (!st.ok()) break;
      move = chosen;
    } else if (how == 4) {
      const Fingerprint before = FingerprintOf(state);
      const Json before_json = state.ToJson();
      if (rules->TryMove(&state, seat, move).ok()) {
        rules->UndoTrial(&state);
        if (FingerprintOf(state) != before)
          Finding("TryMove then UndoTrial did not restore the state (" + std::to_string(seats.size()) +
                  " seat(s) to move); JSON patch from before: " + DumpJson(Json::diff(before_json, state.ToJson())).substr(0, 600));
      } else if (FingerprintOf(state) != before) {
        Finding("a failed TryMove changed the state");
      }
    }
    (void)ReadOnly(state, "Describe", [&] {
      std::string text;
      return rules->Describe(state, seat, move, &text);
    });
    const Fingerprint before = FingerprintOf(state);
    Status st = rules->Apply(&state, seat, move);
    said("apply", st);
    if (!st.ok()) {
      if (FingerprintOf(state) != before) Finding("a failed Apply changed the state: " + st.message);
      break;
    }
    pick = pick * 6364136223846793005ULL + 1442695040888963407ULL;
  }

  ScoreTable table;
  if (said("score", ReadOnly(state, "Score", [&] { return rules->Score(state, &table); }))) {
    (void)RenderScores(table);
    (void)DumpJson(table.extra);
  }
  for (int seat = 0; seat < static_cast<int>(state.seats.size()); ++seat) {
    double v = 0;
    (void)ReadOnly(state, "Evaluate", [&] { return rules->Evaluate(state, seat, &v); });
    (void)ReadOnly(state, "EvaluateWith", [&] { return rules->EvaluateWith(state, seat, {{"knowledge", 0.5}}, &v); });
    (void)ReadOnly(state, "View", [&] {
      (void)rules->View(state, seat);
      return Status::Ok();
    });
  }
  (void)ReadOnly(state, "View(-1)", [&] {
    (void)rules->View(state, -1);
    (void)RenderState(state, -1);
    return Status::Ok();
  });
  Json stats;
  (void)ReadOnly(state, "Stats", [&] { return rules->Stats(state, &stats); });
  CheckSaveLoad(*rules, state, "after the moves");

  // The log replays from the seed to the same table. Only for structured rules: hook bodies
  // written by the input may keep values of their own between calls (a script's fault).
  if (form >= 200) return;
  std::vector<LoggedMove> moves;
  State replayed;
  if (MovesOfLog(state, &moves).ok() && Replay(*rules, state, moves, &replayed).ok() && replayed.Hash() != state.Hash())
    Finding("the replay of " + std::to_string(moves.size()) + " moves reached another state");
}

}  // namespace
}  // namespace plateau::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  plateau::fuzz::Run(data, size);
  return 0;
}

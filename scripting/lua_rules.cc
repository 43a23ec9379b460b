// LuaRules: hooks, shape checks, snapshots and the draft hand-off (see lua_rules.h).
#include "scripting/lua_rules.h"

#include <cstring>

#include <lua.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <chrono>
#include <set>
#include <sstream>

#include "host/json_io.h"
#include "host/limits.h"
#include "host/text.h"
#include "host/render.h"

namespace plateau::scripting {

void MakeReadOnly(lua_State* L);  // sandbox.cc

namespace {

// The number of entries of the table at `idx`, whatever their keys.
size_t CountKeys(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  size_t keys = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    ++keys;
    lua_pop(L, 1);
  }
  return keys;
}

// t[k] without metamethods, or nil when t is not a table. What the rules return (the game
// table, score lines, breakdowns) is read after their call has ended, outside the budget: an
// __index there would run unbudgeted and unprotected.
int RawGetField(lua_State* L, int idx, const char* k) {
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx)) {
    lua_pushnil(L);
    return LUA_TNIL;
  }
  lua_pushstring(L, k);
  return lua_rawget(L, idx);
}

// PushFrozenJson in a protected call: data that passed the JSON limits can still need more
// Lua memory than the cap allows, and a memory error outside a protected call ends the process.
int PushFrozenJsonThunk(lua_State* L) {
  PushFrozenJson(L, *static_cast<const Json*>(lua_touserdata(L, 1)));
  return 1;
}

struct HookSpec {
  const char* name;
  int type;  // LUA_TFUNCTION or LUA_TTABLE, or LUA_TNUMBER
  bool required;
};

constexpr HookSpec kHooks[] = {
    {"api_version", LUA_TNUMBER, true}, {"draft", LUA_TFUNCTION, false},  {"setup", LUA_TFUNCTION, false},
    {"to_move", LUA_TFUNCTION, false},  {"legal_moves", LUA_TFUNCTION, false}, {"moves", LUA_TTABLE, false},
    {"score", LUA_TFUNCTION, true},     {"evaluate", LUA_TFUNCTION, false}, {"view", LUA_TFUNCTION, false},
    {"totals", LUA_TFUNCTION, false},   {"on_place", LUA_TTABLE, false},    {"categories", LUA_TTABLE, false},
    {"migrate", LUA_TFUNCTION, false},  {"on_reload", LUA_TFUNCTION, false}, {"version", LUA_TNUMBER, false},
    {"after_draft", LUA_TFUNCTION, false}, {"stats", LUA_TFUNCTION, false}, {"describe", LUA_TFUNCTION, false},
    {"evaluate_moves", LUA_TFUNCTION, false}, {"check", LUA_TFUNCTION, false},
    {"random_move", LUA_TFUNCTION, false}};

std::string WhereDefined(lua_State* L, int idx) {
  lua_Debug ar;
  lua_pushvalue(L, idx);
  if (!lua_getinfo(L, ">S", &ar) || ar.linedefined <= 0) return "";
  return std::string(ar.short_src) + ":" + std::to_string(ar.linedefined) + ": ";
}

}  // namespace

LuaRules::~LuaRules() = default;

void LuaRules::DropLegalTables() {
  if (legal_tables_.ref != LUA_NOREF && rt_ && legal_tables_.L == rt_->L())
    luaL_unref(legal_tables_.L, LUA_REGISTRYINDEX, legal_tables_.ref);
  legal_tables_ = LegalTables();
}

bool LuaRules::PushLegalTables(const State& state, int seat, const std::vector<Move>& moves) {
  const bool usable = legal_tables_.ref != LUA_NOREF && legal_tables_.L == rt_->L() &&
                      legal_tables_.stamp == hook_calls_ && LegalListed(state, seat) && moves == legal_cache_.moves;
  if (usable) lua_rawgeti(rt_->L(), LUA_REGISTRYINDEX, legal_tables_.ref);
  DropLegalTables();
  return usable;
}

void LuaRules::PushContext() { lua_rawgeti(rt_->L(), LUA_REGISTRYINDEX, ctx_ref_); }

Status LuaRules::Load(const std::string& game, const Limits& limits, std::unique_ptr<LuaRules>* out) {
  return Load(game, limits, {}, out);
}

Status LuaRules::Load(const std::string& game, const Limits& limits, const std::vector<DataOverride>& data_sets,
                      std::unique_ptr<LuaRules>* out, bool defer_look) {
  std::unique_ptr<LuaRules> rules(new LuaRules());
  Status st = LoadGameFiles(game, &rules->files_);
  if (!st.ok()) return st;
  st = ApplyDataOverrides(data_sets, &rules->files_);
  if (!st.ok()) return st;
  rules->data_overrides_ = data_sets;
  rules->fingerprint_ = RulesFingerprint(rules->files_);
  // An abstract base only lends its parameters, data and modules to the games that extend it.
  if (rules->files_.info.abstract)
    return Status::Input(rules->files_.roots.front().display + "/game.json: '" + rules->files_.info.id +
                         "' is an abstract base game (\"abstract\": true): it cannot be played itself; "
                         "make a game that \"extends\" it");
  st = rules->Init(limits);
  if (!st.ok()) return st;
  // The look (data/look.json) last: the data's and the rules' own errors speak first. A reload
  // defers it further, after its checks of the table (ReloadRules).
  if (!defer_look && !rules->files_.look_error.ok()) return rules->files_.look_error;
  *out = std::move(rules);
  return Status::Ok();
}

Status LuaRules::Init(const Limits& limits) {
  listed_moves_.clear();  // references into the VM being replaced
  listed_move_count_ = 0;
  listed_by_type_ = nullptr;
  rt_ = std::make_unique<Runtime>(limits);
  std::vector<Runtime::SourceRoot> roots;
  for (const auto& r : files_.roots) roots.push_back({r.folder, r.display});
  rt_->set_source_roots(roots);
  binding_.cards = files_.cards.get();
  binding_.scales = files_.scales.get();
  lua_State* L = rt_->L();
  // Rule calls make many small short-lived tables over a mostly static heap (data, the
  // game module): a longer pause between collection cycles spends less time re-marking it.
  lua_gc(L, LUA_GCINC, 1000, 400, 0);
  OpenBindings(L, &binding_);

  // ctx: services plus frozen data and parameters (set per game).
  lua_newtable(L);
  RawGetField(L, LUA_REGISTRYINDEX, "plateau.services");
  for (const char* k : {"rng", "dice", "log", "entry_line", "card_set", "query", "view", "move", "scale"}) {
    RawGetField(L, -1, k);
    lua_setfield(L, -3, k);
  }
  lua_pop(L, 1);
  Json data = Json::object();
  for (const auto& [name, doc] : files_.data) data[name] = doc;
  lua_pushcfunction(L, PushFrozenJsonThunk);
  lua_pushlightuserdata(L, &data);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    const std::string why = lua_tostring(L, -1) ? lua_tostring(L, -1) : "error";
    lua_settop(L, 0);
    std::string files;
    for (const auto& [name, file] : files_.data_files) files += (files.empty() ? "" : ", ") + file;
    return {ErrorKind::kMemory, "the game's data (" + files + ") does not fit in the scripts' memory (" + why + ")", {}, {}};
  }
  lua_setfield(L, -2, "data");
  lua_pushstring(L, files_.info.id.c_str());
  lua_setfield(L, -2, "game_id");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "explain");  // SetExplain: plateau score --explain
  // Scripts get a read-only view of ctx, so nothing can be smuggled from one call to the next.
  lua_pushvalue(L, -1);
  ctx_table_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
  MakeReadOnly(L);
  ctx_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
  Json defaults;
  Status st = ResolveParams(files_.info, Json::object(), &defaults);
  if (!st.ok()) return st;
  UpdateParams(defaults);

  st = rt_->RunFile(files_.rules_script, 1);
  if (!st.ok()) return st;
  if (!lua_istable(L, -1)) {
    const std::string got = luaL_typename(L, -1);
    lua_pop(L, 1);
    return {ErrorKind::kScript, files_.roots.front().display + "/" + files_.rules_script +
                                    ": the rules script must return the game table, got " + got, {}, {}};
  }
  game_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
  st = CheckShape();
  if (!st.ok()) return st;
  return RunCheck();
}

// game.check(ctx), once per load with the default parameters: the rules' own checks of the
// game's data (every card has a rule, a rule's numbers are whole...). What it refuses is the
// modder's input, not a crash of the rules: bad input, exit 2, and nothing is loaded.
Status LuaRules::RunCheck() {
  if (!has_hook("check")) return Status::Ok();
  lua_State* L = rt_->L();
  PushHook("check");
  lua_rawgeti(L, LUA_REGISTRYINDEX, ctx_ref_);
  binding_.state = nullptr;
  Status st = rt_->Call(1, 0, "check");
  if (st.ok() || st.kind != ErrorKind::kScript) return st;
  st.kind = ErrorKind::kInput;
  st.traceback.clear();
  return st;
}

Status LuaRules::CheckShape() {
  lua_State* L = rt_->L();
  const std::string file = files_.roots.front().display + "/" + files_.rules_script;
  lua_rawgeti(L, LUA_REGISTRYINDEX, game_ref_);
  const int t = lua_gettop(L);
  auto fail = [&](const std::string& msg) {
    lua_settop(L, t - 1);
    return Status{ErrorKind::kScript, file + ": " + msg, {}, {}};
  };
  std::set<std::string> known;
  for (const auto& h : kHooks) known.insert(h.name);
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING) return fail("the game table has a non-string key");
    const std::string key = lua_tostring(L, -1);
    if (!known.count(key)) {
      std::string names;
      for (const auto& h : kHooks) names += std::string(names.empty() ? "" : ", ") + h.name;
      lua_pop(L, 1);
      return fail("unknown field '" + key + "' in the game table (known: " + names + ")");
    }
  }
  hooks_.clear();
  for (const auto& h : kHooks) {
    const int type = RawGetField(L, t, h.name);
    if (type == LUA_TNIL) {
      lua_pop(L, 1);
      if (h.required) return fail(std::string("the game table needs '") + h.name + "'");
      continue;
    }
    hooks_.insert(h.name);
    if (type != h.type) {
      const std::string got = luaL_typename(L, -1);
      return fail(std::string("game.") + h.name + " must be a " + lua_typename(L, h.type) + ", got " + got);
    }
    lua_pop(L, 1);
  }
  RawGetField(L, t, "api_version");
  if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) != 1)
    return fail("api_version " + (lua_type(L, -1) == LUA_TNUMBER ? std::string(lua_tostring(L, -1)) : std::string(luaL_typename(L, -1))) +
                " is not supported (this host speaks 1)");
  lua_pop(L, 1);
  for (const char* table : {"moves", "on_place"}) {
    if (RawGetField(L, t, table) == LUA_TTABLE) {
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TFUNCTION) {
          const std::string key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
          return fail(std::string("game.") + table + "." + key + " must be a function");
        }
        if (std::string(table) == "on_place") {
          const CardId c = files_.cards->Find(lua_tostring(L, -2));
          if (c == kNoCard) return fail(std::string("game.on_place names unknown card '") + lua_tostring(L, -2) + "'");
          if (on_place_card_.size() < files_.cards->size()) on_place_card_.resize(files_.cards->size(), false);
          on_place_card_[static_cast<size_t>(c)] = true;
        }
        lua_pop(L, 1);
      }
      if (std::string(table) == "on_place") has_on_place_ = true;
    }
    lua_pop(L, 1);
  }
  categories_.clear();
  categories_ref_ = LUA_NOREF;
  if (RawGetField(L, t, "categories") == LUA_TTABLE) {
    lua_pushvalue(L, -1);
    categories_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);  // the interned names, for Score
    const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, -1));
    for (lua_Integer i = 1; i <= n; ++i) {
      lua_rawgeti(L, -1, i);
      if (lua_type(L, -1) != LUA_TSTRING) return fail("game.categories must be a list of category names");
      size_t len = 0;
      const char* name = lua_tolstring(L, -1, &len);
      if (!IsValidUtf8(name, len) || len > 256)
        return fail("game.categories[" + std::to_string(categories_.size() + 1) + "] must be UTF-8 text of at most 256 bytes");
      categories_.push_back(std::string(name, len));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  RawGetField(L, t, "draft");
  uses_draft_ = lua_isfunction(L, -1);
  lua_pop(L, 1);
  RawGetField(L, t, "after_draft");
  has_after_draft_ = lua_isfunction(L, -1);
  lua_pop(L, 1);
  if (!uses_draft_) {
    for (const char* needed : {"to_move", "moves"}) {
      if (RawGetField(L, t, needed) == LUA_TNIL) return fail(std::string("a game without 'draft' needs '") + needed + "'");
      lua_pop(L, 1);
    }
  }
  lua_settop(L, t - 1);
  return Status::Ok();
}

bool LuaRules::has_hook(const std::string& name) const { return hooks_.count(name) > 0; }

int64_t LuaRules::version() const {
  lua_State* L = rt_->L();
  lua_rawgeti(L, LUA_REGISTRYINDEX, game_ref_);
  RawGetField(L, -1, "version");
  const int64_t v = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
  lua_pop(L, 2);
  return v;
}

Status LuaRules::Migrate(State* state, int64_t old_version) {
  if (!has_hook("migrate")) return Status::Ok();
  State before = *state;
  PushHook("migrate");
  lua_pushinteger(rt_->L(), old_version);
  Status st = CallHook("migrate", state, true, 1, 0);
  if (!st.ok()) *state = std::move(before);
  return st;
}

void LuaRules::UpdateParams(const Json& params) {
  if (params == current_params_) return;
  current_params_ = params;
  params_checked_uid_ = 0;  // every state must be compared again
  lua_State* L = rt_->L();
  lua_rawgeti(L, LUA_REGISTRYINDEX, ctx_table_ref_);
  PushFrozenJson(L, params);
  lua_setfield(L, -2, "params");
  lua_pop(L, 1);
}

void LuaRules::SetExplain(bool on) {
  lua_State* L = rt_->L();
  lua_rawgeti(L, LUA_REGISTRYINDEX, ctx_table_ref_);
  lua_pushboolean(L, on);
  lua_setfield(L, -2, "explain");
  lua_pop(L, 1);
}

std::string LuaRules::HookWhere(const char* name) {
  lua_State* L = rt_->L();
  PushHook(name);
  std::string where = WhereDefined(L, -1);
  lua_pop(L, 1);
  return where.empty() ? files_.roots.front().display + "/" + files_.rules_script + ": " : where;
}

Status LuaRules::PushHook(const char* name) {
  lua_State* L = rt_->L();
  lua_rawgeti(L, LUA_REGISTRYINDEX, game_ref_);
  RawGetField(L, -1, name);
  lua_remove(L, -2);
  return Status::Ok();
}

// Calls the function already pushed (below nargs extra arguments) with (ctx, state, ...).
// The ctx and state are inserted here so callers push only hook-specific arguments.
Status LuaRules::CallHook(const char* name, const State* state, bool writable, int nargs, int nresults) {
  lua_State* L = rt_->L();
  ++hook_calls_;
  if (!backstopped_.empty()) {
    const auto it = backstopped_.find(name);
    if (it != backstopped_.end()) {
      lua_pop(L, nargs + 1);  // the hook and its arguments: a failed call leaves nothing
      Status skipped{ErrorKind::kBudget,
                     "skipped: hook '" + std::string(name) + "' already ran past the wall-clock backstop in this run (" +
                         it->second.substr(0, 300) + ")",
                     {}, {}};
      skipped.skipped = true;
      return skipped;
    }
  }
  const int fn = lua_gettop(L) - nargs;
  lua_rawgeti(L, LUA_REGISTRYINDEX, ctx_ref_);
  lua_insert(L, fn + 1);
  PushState(L);
  lua_insert(L, fn + 2);
  // ctx.params must be the parameters of the state at hand, whichever game was made last.
  // A game's parameters never change after NewGame, so one comparison per state is enough.
  if (state && state->identity.uid != params_checked_uid_) {
    if (!state->params.is_null() && state->params != current_params_) UpdateParams(state->params);
    params_checked_uid_ = state->identity.uid;
  }
  const Binding saved = binding_;
  binding_.state = const_cast<State*>(state);
  binding_.writable = writable;
  binding_.hook = name;
  ++binding_.epoch;  // another state, or the same one changed by the host since
  rt_->set_rng(state && writable ? &const_cast<State*>(state)->rng : nullptr);
  const bool timed = call_stats_on_ && call_depth_ == 0;
  const auto t0 = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  ++call_depth_;
  Status st = rt_->Call(nargs + 2, nresults, name);
  --call_depth_;
  if (timed) {
    RulesCallStat& c = call_stats_[name];
    ++c.calls;
    c.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  if (!st.ok() && skip_after_backstop_ && st.kind == ErrorKind::kBudget && rt_->backstop_hit())
    backstopped_.emplace(name, st.message);
  if (!st.ok() && state)
    st.context += ", move " + std::to_string(state->move_count) + ", seed " + std::to_string(state->seed) + ", game " +
                  state->game_id;
  if (writable && state) const_cast<State*>(state)->Touch();
  // The host's account of state.data: measured after a call that stored more than 1 MiB, so
  // a script cannot fill the host's memory by storing the same large value under many keys.
  if (st.ok() && writable && state && nresults >= 0 && TakeConvertedBytes() > (1u << 20) &&
      JsonTextBytes(state->data, limits::kStateDataBytes + 1) > limits::kStateDataBytes) {
    lua_pop(L, nresults);  // a failed call leaves nothing on the stack
    st = {ErrorKind::kMemory, HookWhere(name) + name + ": state.data would hold more than " +
                                  std::to_string(limits::kStateDataBytes >> 20) + " MiB (the host's limit)", {}, {}};
  }
  const uint64_t epoch = binding_.epoch;
  const bool counts_rounds = binding_.counts_rounds;  // learnt during the call: kept
  binding_ = saved;
  binding_.counts_rounds = counts_rounds;
  binding_.epoch = epoch + 1;
  rt_->set_rng(saved.state ? &saved.state->rng : nullptr);
  return st;
}

void LuaRules::AddCallStats(std::map<std::string, RulesCallStat>* out) const {
  for (const auto& [name, c] : call_stats_) {
    RulesCallStat& total = (*out)[name];
    total.calls += c.calls;
    total.seconds += c.seconds;
  }
}

Status LuaRules::CheckLoaded(const State& state) {
  if (!uses_draft_) return Status::Ok();
  Status st = EnsureDraftConfig(state.params);
  if (!st.ok()) return st;
  std::string error;
  if (!draft::CheckState(draft_, state, &error)) return Status::Input(error);
  return Status::Ok();
}

Status LuaRules::EnsureDraftConfig(const Json& params) {
  if (!uses_draft_ || (draft_params_ == params && !draft_.rounds.empty())) return Status::Ok();
  lua_State* L = rt_->L();
  UpdateParams(params);
  PushHook("draft");
  lua_rawgeti(L, LUA_REGISTRYINDEX, ctx_ref_);
  binding_.state = nullptr;
  Status st = rt_->Call(1, 1, "draft");
  if (!st.ok()) return st;
  Json cfg;
  std::string error;
  const std::string where = files_.roots.front().display + "/" + files_.rules_script + ": game.draft: ";
  if (!LuaToJson(L, -1, &cfg, &error)) {
    lua_pop(L, 1);
    return {ErrorKind::kScript, where + error, {}, {}};
  }
  lua_pop(L, 1);
  DraftConfig d;
  try {
    using limits::JsonInt;
    using limits::JsonIntField;
    const Json& rounds = cfg.at("rounds");
    if (!rounds.is_array() || rounds.empty() || rounds.size() > 1000) throw std::runtime_error("rounds: a list of 1 to 1000 rounds");
    for (size_t k = 0; k < rounds.size(); ++k) {
      const Json& r = rounds[k];
      const std::string at = "rounds[" + std::to_string(k + 1) + "]";
      DraftConfig::Round round;
      round.deal = static_cast<int>(JsonInt(r.at("deal"), 1, 10000, at + ".deal"));
      round.keep = static_cast<int>(JsonIntField(r, "keep", round.deal, 1, round.deal, at));
      const std::string pass = r.value("pass", std::string("left"));
      if (pass != "left" && pass != "right") throw std::runtime_error(at + ".pass must be \"left\" or \"right\"");
      round.pass_left = pass == "left";
      d.rounds.push_back(round);
    }
    if (cfg.contains("grid")) {
      d.rows = static_cast<int>(JsonInt(cfg["grid"].at("rows"), 1, 100, "grid.rows"));
      d.cols = static_cast<int>(JsonInt(cfg["grid"].at("cols"), 1, 100, "grid.cols"));
    }
    if (!cfg.at("deck").is_object()) throw std::runtime_error("deck: an object of card counts by card id");
    for (auto it = cfg.at("deck").begin(); it != cfg.at("deck").end(); ++it) {
      const CardId c = files_.cards->Find(it.key());
      if (c == kNoCard) throw std::runtime_error("deck names unknown card '" + it.key() + "'");
      d.deck.emplace_back(c, static_cast<int>(JsonInt(*it, 0, limits::kCardCopies, "deck." + it.key())));
    }
    std::sort(d.deck.begin(), d.deck.end());
    int64_t copies = 0;
    for (const auto& [card, n] : d.deck) copies += n;
    if (copies > limits::kStateCards)
      throw std::runtime_error("deck: " + std::to_string(copies) + " cards, over the limit of " + std::to_string(limits::kStateCards));
    d.neutral = cfg.value("neutral", false);
    if (cfg.contains("neutral_name")) d.neutral_name = cfg["neutral_name"];
    if (cfg.contains("solo")) {
      const Json& s = cfg["solo"];
      d.solo_hand = static_cast<int>(limits::JsonIntField(s, "hand", d.solo_hand, 0, 10000, "solo"));
      d.solo_draw = static_cast<int>(limits::JsonIntField(s, "draw", d.solo_draw, 0, 10000, "solo"));
      d.solo_draw_on_row = static_cast<int>(limits::JsonIntField(s, "draw_on_row", d.solo_draw_on_row, 0, 10000, "solo"));
      d.opponent_name = s.value("opponent", d.opponent_name);
    }
  } catch (const std::exception& e) {
    return {ErrorKind::kScript, where + e.what(), {}, {}};
  }
  int placed = 0;
  for (const auto& r : d.rounds) placed += r.keep;
  if (placed != d.rows * d.cols)
    return {ErrorKind::kScript, where + "the rounds place " + std::to_string(placed) + " cards but the grid has " +
                                    std::to_string(d.rows * d.cols) + " cells", {}, {}};
  // Solo: the hand must hold a card to place and one to give on every turn (only games that
  // can be played alone are checked).
  if (info().min_players <= 1) {
    int hand = d.solo_hand;
    const int cells = d.rows * d.cols;
    for (int turn = 0; turn < cells; ++turn) {
      if (hand < 2)
        return {ErrorKind::kScript, where + "solo: the hand runs out at turn " + std::to_string(turn + 1) +
                                        " (hand " + std::to_string(d.solo_hand) + ", draw " + std::to_string(d.solo_draw) +
                                        ", draw_on_row " + std::to_string(d.solo_draw_on_row) + ")", {}, {}};
      hand -= 2;
      if (turn + 1 < cells) hand += (turn + 1) % d.cols == 0 ? d.solo_draw_on_row : d.solo_draw;
    }
  }
  draft_ = std::move(d);
  draft_params_ = params;
  return Status::Ok();
}

// The draft configuration depends on the parameters; a state loaded from a save or kept
// across a reload may come with parameters this instance has not configured yet.
Status LuaRules::DraftFor(const State& state) {
  if (state.identity.uid == draft_uid_ && !draft_.rounds.empty()) return Status::Ok();
  Status st = EnsureDraftConfig(state.params);
  if (st.ok()) draft_uid_ = state.identity.uid;
  return st;
}

Status LuaRules::NewGame(const Json& params, int players, uint64_t seed, State* out) {
  if (players < info().min_players || players > info().max_players)
    return Status::Input(info().id + " is for " + std::to_string(info().min_players) + " to " +
                         std::to_string(info().max_players) + " players, not " + std::to_string(players));
  UpdateParams(params);
  State s;
  s.game_id = info().id;
  s.seed = seed;
  s.rng.Seed(seed);
  s.cards = files_.cards;
  s.tiles = files_.tiles;
  s.regions = files_.regions;
  s.params = params;
  if (uses_draft_) {
    Status st = EnsureDraftConfig(params);
    if (!st.ok()) return st;
    // Components come from a template built once per player count and parameters; only the
    // shuffle and the deal are done per game.
    if (template_players_ != players || template_params_ != params) {
      State t;
      t.game_id = info().id;
      t.cards = files_.cards;
      t.params = params;
      st = draft::Build(draft_, players, &t);
      if (!st.ok()) {
        // Name the card file: the counts there are what the modder has to change.
        auto file = files_.data_files.find("cards");
        if (st.kind == ErrorKind::kInput && file != files_.data_files.end()) st.message = file->second + ": " + st.message;
        return st;
      }
      template_ = std::move(t);
      template_players_ = players;
      template_params_ = params;
    }
    s = template_;
    s.seed = seed;
    s.rng.Seed(seed);
    st = draft::Start(draft_, &s);
    if (!st.ok()) return st;
  } else {
    for (int i = 0; i < players; ++i) s.seats.push_back({"P" + std::to_string(i + 1), "player"});
    s.player_count = players;
    s.flow.phase = "play";
    s.flow.committed.assign(s.seats.size(), 0);
    s.flow.pending.assign(s.seats.size(), Move{});
  }
  s.data_overrides = DataOverridesToJson(data_overrides_);
  if (has_hook("setup")) {
    PushHook("setup");
    Status st = CallHook("setup", &s, true, 0, 0);
    if (!st.ok()) return st;
  }
  *out = std::move(s);
  return Status::Ok();
}

Status LuaRules::ToMove(const State& state, std::vector<int>* seats) {
  seats->clear();
  if (state.flow.terminal) return Status::Ok();
  // Questions the rules asked come first, even in the middle of the draft (a card's effect
  // on placement is resolved before the next pick).
  if (state.flow.HasAsks()) {
    for (size_t i = 0; i < state.flow.asks.size(); ++i)
      if (!state.flow.asks[i].empty() && !(i < state.flow.committed.size() && state.flow.committed[i]))
        seats->push_back(static_cast<int>(i));
    return Status::Ok();
  }
  if (uses_draft_ && draft::Active(state)) {
    Status st = DraftFor(state);
    if (!st.ok()) return st;
    draft::ToMove(draft_, state, seats);
    return Status::Ok();
  }
  if (!has_hook("to_move")) return Status::Ok();
  if (to_move_cache_.uid == state.identity.uid && to_move_cache_.generation == state.identity.generation) {
    *seats = to_move_cache_.seats;
    return Status::Ok();
  }
  lua_State* L = rt_->L();
  PushHook("to_move");
  Status st = CallHook("to_move", &state, false, 0, 1);
  if (!st.ok()) return st;
  const std::string where = WhereDefined(L, -1);
  if (!lua_isnil(L, -1)) {
    if (!lua_istable(L, -1)) {
      lua_pop(L, 1);
      return {ErrorKind::kScript, HookWhere("to_move") + "to_move must return a list of seats", {}, {}};
    }
    const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, -1));
    for (lua_Integer i = 1; i <= n; ++i) {
      lua_rawgeti(L, -1, i);
      const lua_Integer seat = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
      const std::string got = NumberText(L, -1);
      lua_pop(L, 1);
      if (seat < 1 || seat > static_cast<lua_Integer>(state.seats.size())) {
        lua_pop(L, 1);
        PushHook("to_move");
        const std::string at = WhereDefined(L, -1);
        lua_pop(L, 1);
        return {ErrorKind::kScript, (at.empty() ? files_.roots.front().display + "/" + files_.rules_script + ": " : at) +
                                        "to_move returned seat " + got + " at position " + std::to_string(i) +
                                        ", not one of 1.." + std::to_string(state.seats.size()), {}, {}};
      }
      const int s0 = static_cast<int>(seat - 1);
      if (!state.flow.committed.empty() && state.flow.committed[static_cast<size_t>(s0)]) continue;
      seats->push_back(s0);
    }
  }
  lua_pop(L, 1);
  to_move_cache_ = {state.identity.uid, state.identity.generation, *seats};
  return Status::Ok();
}

// The legal moves without copying them: a pointer into the question asked, the draft's
// scratch list or the cache of the legal_moves hook, valid until the next query.
Status LuaRules::ListLegal(const State& state, int seat, const std::vector<Move>** out) {
  static const std::vector<Move> kNone;
  *out = &kNone;
  if (state.flow.HasAsks()) {
    if (seat >= 0 && static_cast<size_t>(seat) < state.flow.asks.size()) *out = &state.flow.asks[static_cast<size_t>(seat)];
    return Status::Ok();
  }
  if (uses_draft_ && draft::Active(state)) {
    Status st = DraftFor(state);
    if (!st.ok()) return st;
    DraftMovesCache& c = draft_moves_;
    if (c.uid != state.identity.uid || c.generation != state.identity.generation || c.seat != seat) {
      draft::LegalMoves(draft_, state, seat, &c.moves);
      c.uid = state.identity.uid;
      c.generation = state.identity.generation;
      c.seat = seat;
    }
    *out = &c.moves;
    return Status::Ok();
  }
  if (!has_hook("legal_moves")) return Status::Ok();
  if (LegalListed(state, seat)) {
    *out = &legal_cache_.moves;
    return Status::Ok();
  }
  legal_cache_.uid = 0;  // invalid until filled
  DropLegalTables();
  std::vector<Move>& moves = legal_cache_.moves;
  moves.clear();
  size_t n = 0;
  Status st = PushLegalList(state, seat, &n);
  if (!st.ok()) return st;
  lua_State* L = rt_->L();
  if (lua_isnil(L, -1)) {  // no list: nothing is kept
    lua_pop(L, 1);
    return Status::Ok();
  }
  moves.reserve(n);
  // Kept for evaluate_moves only when every entry is a plain table, as a copy would be, or a
  // frozen move (ctx.move), which nothing can change.
  bool plain = true;
  for (size_t i = 0; i < n; ++i) {
    Move m;
    st = LegalMoveAt(i, &m, &plain);
    if (!st.ok()) {
      lua_pop(L, 1);
      moves.clear();
      return st;
    }
    moves.push_back(std::move(m));
  }
  if (plain && n > 0) {
    legal_tables_.L = L;
    legal_tables_.ref = luaL_ref(L, LUA_REGISTRYINDEX);
    legal_tables_.stamp = hook_calls_;
  } else {
    lua_pop(L, 1);
  }
  legal_cache_.uid = state.identity.uid;
  legal_cache_.generation = state.identity.generation;
  legal_cache_.seat = seat;
  *out = &moves;
  return Status::Ok();
}

bool LuaRules::LegalListed(const State& state, int seat) const {
  return legal_cache_.uid == state.identity.uid && legal_cache_.generation == state.identity.generation &&
         legal_cache_.seat == seat;
}

Status LuaRules::PushLegalList(const State& state, int seat, size_t* n) {
  *n = 0;
  lua_State* L = rt_->L();
  PushHook("legal_moves");
  lua_pushinteger(L, LuaSeat(seat));
  Status st = CallHook("legal_moves", &state, false, 1, 1);
  if (!st.ok()) return st;
  if (lua_isnil(L, -1)) return Status::Ok();
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    return {ErrorKind::kScript, HookWhere("legal_moves") + "legal_moves must return a list of moves", {}, {}};
  }
  *n = lua_rawlen(L, -1);
  return Status::Ok();
}

Status LuaRules::LegalMoveAt(size_t i, Move* out, bool* plain) {
  lua_State* L = rt_->L();
  lua_rawgeti(L, -1, static_cast<lua_Integer>(i) + 1);
  if (plain && *plain && lua_getmetatable(L, -1)) {
    lua_pop(L, 1);
    // A move made by ctx.move is read-only: evaluate_moves may have it as it is.
    if (!IsFrozenMove(L, -1)) *plain = false;
  }
  std::string error;
  const bool ok = LuaToMove(L, -1, *files_.cards, out, &error);
  lua_pop(L, 1);
  if (ok) return Status::Ok();
  return {ErrorKind::kScript, HookWhere("legal_moves") + "legal_moves: move #" + std::to_string(i + 1) + ": " + error, {}, {}};
}

Status LuaRules::LegalMoves(const State& state, int seat, std::vector<Move>* out) {
  const std::vector<Move>* list = nullptr;
  Status st = ListLegal(state, seat, &list);
  if (!st.ok()) {
    out->clear();
    return st;
  }
  *out = *list;
  return Status::Ok();
}

Status LuaRules::RandomMove(const State& state, int seat, Rng* rng, Move* out, int* listed) {
  if (uses_draft_ && draft::Active(state) && !state.flow.HasAsks()) {
    Status st = DraftFor(state);
    if (!st.ok()) return st;
    if (!draft::RandomMove(draft_, state, seat, rng, out)) return Status::Illegal("no legal move");
    return Status::Ok();
  }
  if (state.flow.HasAsks() || !has_hook("legal_moves") || LegalListed(state, seat)) {
    // One copy: the chosen move's, not the whole list's.
    const std::vector<Move>* list = nullptr;
    Status st = ListLegal(state, seat, &list);
    if (!st.ok()) return st;
    if (list->empty()) return Status::Illegal("no legal move");
    if (listed) *listed = static_cast<int>(list->size());
    *out = (*list)[rng->Below(static_cast<uint32_t>(list->size()))];
    return Status::Ok();
  }
  if (has_hook("random_move")) {
    // The game's own draw: the same move the list holds at the same draw (held to it by the
    // conformance checks, CheckRandomMove), without listing the moves it did not draw.
    Move m;
    Status st = HookRandomMove(state, seat, rng, &m);
    if (!st.ok()) return st;
    if (listed) *listed = static_cast<int>(std::min<uint32_t>(pick_.n, INT32_MAX));
    vouched_ = {state.identity.uid, state.identity.generation, seat, m};
    *out = std::move(m);
    return Status::Ok();
  }
  // The same draw on the same list as ListLegal's, so the same move; only it is converted.
  // Every other entry is still checked by the conformance checks, which list them all.
  size_t n = 0;
  Status st = PushLegalList(state, seat, &n);
  if (!st.ok()) return st;
  if (n == 0 || n > UINT32_MAX) {
    lua_pop(rt_->L(), 1);
    if (n == 0) return Status::Illegal("no legal move");
    return {ErrorKind::kScript, HookWhere("legal_moves") + "legal_moves listed too many moves", {}, {}};
  }
  Move m;
  st = LegalMoveAt(rng->Below(static_cast<uint32_t>(n)), &m);
  lua_pop(rt_->L(), 1);
  if (!st.ok()) return st;
  if (listed) *listed = static_cast<int>(n);
  vouched_ = {state.identity.uid, state.identity.generation, seat, m};
  *out = std::move(m);
  return Status::Ok();
}

namespace {

// pick(n), handed to `random_move`: a draw among n moves (1..n) on the bot's RNG, once per call
// of the hook. Upvalue 1 is the LuaRules' RandomPick, which outlives the Lua state's closures.
int RandomPickFn(lua_State* L) {
  auto* p = static_cast<LuaRules::RandomPick*>(lua_touserdata(L, lua_upvalueindex(1)));
  if (!p->active || !p->rng) Raise(L, "pick(n) draws only while random_move runs (a pick kept for later draws nothing)");
  if (p->calls > 0)
    Raise(L, "pick(n) is called once per random_move: one draw among all the legal moves, as a random player makes");
  int exact = 0;
  const lua_Integer n = lua_tointegerx(L, 1, &exact);
  if (!exact || n < 1 || n > static_cast<lua_Integer>(UINT32_MAX))
    RaiseArg(L, 1, "pick(n): n is how many legal moves there are (an integer, 1 or more)");
  p->calls = 1;
  p->n = static_cast<uint32_t>(n);
  p->k = p->rng->Below(p->n);
  lua_pushinteger(L, static_cast<lua_Integer>(p->k) + 1);
  return 1;
}

}  // namespace

// random_move(ctx, state, seat, pick) -> move: the hook draws k = pick(n), n being the number of
// legal moves, and returns the move legal_moves would list k-th, building that one only.
Status LuaRules::HookRandomMove(const State& state, int seat, Rng* rng, Move* out) {
  lua_State* L = rt_->L();
  if (!lua_checkstack(L, 8)) return {ErrorKind::kMemory, "random_move: the Lua stack is full", {}, {}};
  PushHook("random_move");
  lua_pushinteger(L, LuaSeat(seat));
  lua_pushlightuserdata(L, &pick_);
  lua_pushcclosure(L, RandomPickFn, 1);
  pick_ = RandomPick{rng, true, 0, 0, 0};
  Status st = CallHook("random_move", &state, false, 2, 1);
  pick_.active = false;
  pick_.rng = nullptr;
  if (!st.ok()) return st;
  const std::string where = HookWhere("random_move");
  if (pick_.calls == 0 && lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return Status::Illegal("no legal move");  // nil without a draw: there is nothing to draw from
  }
  if (pick_.calls != 1) {
    lua_pop(L, 1);
    return {ErrorKind::kScript, where + "random_move must draw its move with pick(n), once, n being how many legal moves there are", {}, {}};
  }
  std::string error;
  const bool ok = lua_istable(L, -1) && LuaToMove(L, -1, *files_.cards, out, &error);
  if (!lua_istable(L, -1)) error = std::string("must return a move (a table), got ") + luaL_typename(L, -1);
  lua_pop(L, 1);
  if (!ok) return {ErrorKind::kScript, where + "random_move: " + error, {}, {}};
  return Status::Ok();
}

Status LuaRules::CheckRandomMove(const State& state, int seat, const std::vector<Move>& moves, uint64_t seed) {
  if (!has_hook("random_move") || moves.empty() || state.flow.HasAsks() || (uses_draft_ && draft::Active(state)))
    return Status::Ok();
  Rng rng(seed);
  Move m;
  Status st = HookRandomMove(state, seat, &rng, &m);
  if (st.kind == ErrorKind::kIllegal)
    return {ErrorKind::kScript,
            HookWhere("random_move") + "random_move: drew nothing (returned nil), but legal_moves lists " +
                std::to_string(moves.size()) + " moves",
            {}, {}};
  if (!st.ok()) return st;
  const std::string where = HookWhere("random_move") + "random_move: ";
  if (pick_.n != moves.size())
    return {ErrorKind::kScript,
            where + "drew among " + std::to_string(pick_.n) + " moves, but legal_moves lists " + std::to_string(moves.size()) +
                " (pick(n) takes the number of legal moves, so a random player draws what it would from the list)",
            {}, {}};
  const Move& listed = moves[pick_.k];
  if (!(m == listed))
    return {ErrorKind::kScript,
            where + "for the draw " + std::to_string(pick_.k + 1) + " of " + std::to_string(pick_.n) + " it gave " +
                MoveToString(m, *files_.cards) + ", but legal_moves lists " + MoveToString(listed, *files_.cards) +
                " there (random_move must give the move the list holds at the same draw)",
            {}, {}};
  return Status::Ok();
}

Status LuaRules::Reveal(State* state, const std::vector<draft::Placement>& placed) {
  if (!has_on_place_) return Status::Ok();
  lua_State* L = rt_->L();
  for (const auto& p : placed) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, game_ref_);
    RawGetField(L, -1, "on_place");
    const int type = RawGetField(L, -1, state->CardName(p.card).c_str());
    if (type != LUA_TFUNCTION) {
      lua_pop(L, 3);
      continue;
    }
    lua_remove(L, -2);
    lua_remove(L, -2);
    lua_pushinteger(L, LuaSeat(p.seat));
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, p.cell.row);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, p.cell.col);
    lua_rawseti(L, -2, 2);
    Status st = CallHook("on_place", state, true, 2, 0);
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

Status LuaRules::Apply(State* state, int seat, const Move& move) {
  Status st = ApplyMove(state, seat, move);
  state->Touch();
  return st;
}

Status LuaRules::ApplyMove(State* state, int seat, const Move& move) {
  if (state->flow.terminal) return Status::Illegal("the game is over");
  // A move applied while a trial is open keeps its own journal, and its rollback (or a
  // drafting move's copy) may replace nodes of state.data: the trial's slots go first.
  if (undo_.active()) undo_.FoldAllSlots(*state);
  if (uses_draft_ && draft::Active(*state) && !state->flow.HasAsks()) {
    Status dst = DraftFor(*state);
    if (!dst.ok()) return dst;
    // Snapshots only when a script will run: on-place hooks, or the move that ends the draft.
    // An on_place hook can only run when this move reveals the picks and one of the revealed
    // cards has a hook.
    bool hook_card = false;
    if (has_on_place_) {
      auto hooked = [&](CardId c) { return c >= 0 && static_cast<size_t>(c) < on_place_card_.size() && on_place_card_[static_cast<size_t>(c)]; };
      bool reveals = true;
      for (int p = 0; p < state->player_count && state->player_count > 1; ++p)
        if (p != seat && !state->flow.committed[static_cast<size_t>(p)]) reveals = false;
      if (reveals) {
        hook_card = hooked(move.card);
        for (int p = 0; p < state->player_count && !hook_card; ++p)
          if (state->flow.committed[static_cast<size_t>(p)]) hook_card = hooked(state->flow.pending[static_cast<size_t>(p)].card);
      }
    }
    const bool scripted = hook_card || (has_after_draft_ && draft::EndsDraft(draft_, *state, seat));
    if (!scripted) {
      Status st = draft::Apply(draft_, state, seat, move, nullptr);
      if (st.ok() && state->record) state->Log(seat, "move", MoveToJson(move, *files_.cards));
      return st;
    }
    State before = *state;
    std::vector<draft::Placement> placed;
    Status st = draft::Apply(draft_, state, seat, move, &placed);
    if (!st.ok()) return st;
    if (state->record) state->Log(seat, "move", MoveToJson(move, *files_.cards));
    st = Reveal(state, placed);
    if (st.ok() && !draft::Active(*state) && has_after_draft_) {
      PushHook("after_draft");
      st = CallHook("after_draft", state, true, 0, 0);
    }
    if (!st.ok()) *state = std::move(before);
    return st;
  }
  return ApplyScripted(state, seat, move, /*trial=*/false);
}

Status LuaRules::ApplyScripted(State* state, int seat, const Move& move, bool trial) {
  std::vector<int> seats;
  Status st = ToMove(*state, &seats);
  if (!st.ok()) return st;
  if (std::find(seats.begin(), seats.end(), seat) == seats.end())
    return Status::Illegal("it is not " + (seat >= 0 && seat < static_cast<int>(state->seats.size())
                                               ? state->seats[static_cast<size_t>(seat)].name : "that seat") + "'s turn");
  // An answer to a question is checked against the question itself, in place. A trial move
  // comes from the legal moves of this very state (a bot weighing its options): the
  // handler still refuses anything it does not accept, and the trial is undone anyway.
  const std::vector<Move>* legal = nullptr;
  if (state->flow.HasAsks() && static_cast<size_t>(seat) < state->flow.asks.size()) {
    legal = &state->flow.asks[static_cast<size_t>(seat)];
  } else if (!trial && !(vouched_.uid == state->identity.uid && vouched_.generation == state->identity.generation &&
                           vouched_.seat == seat && vouched_.move == move)) {
    st = ListLegal(*state, seat, &legal);
    if (!st.ok()) return st;
  }
  if (legal && std::find(legal->begin(), legal->end(), move) == legal->end())
    return Status::Illegal("move " + MoveToString(move, *files_.cards) + " is not among the " +
                           std::to_string(legal->size()) + " legal moves");
  lua_State* L = rt_->L();
  // Journaled instead of copied: a move usually touches a few parts of a large state. While
  // a bot's trial holds the main journal, a move applied inside it keeps its own.
  StateUndo nested;
  StateUndo& undo = undo_.active() ? nested : undo_;
  undo.Begin(*state);
  binding_.undo = &undo;
  // The journal closes with the move, except after a successful trial, which UndoTrial undoes.
  struct Detach {
    Binding* b;
    StateUndo* u;
    bool keep = false;
    ~Detach() {
      b->undo = nullptr;
      if (!keep) u->End();
    }
  } detach{&binding_, &undo};
  auto rollback = [&] {
    undo.Restore(state);
    ++binding_.epoch;  // the journal put back JSON nodes the data handles may remember
  };
  auto run = [&](int s, const Move& m) -> Status {
    lua_rawgeti(L, LUA_REGISTRYINDEX, game_ref_);
    RawGetField(L, -1, "moves");
    lua_remove(L, -2);
    if (RawGetField(L, -1, m.type.c_str()) != LUA_TFUNCTION) {
      lua_pop(L, 2);
      return {ErrorKind::kScript, files_.roots.front().display + "/" + files_.rules_script +
                                      ": no handler game.moves." + m.type + " for a legal move", {}, {}};
    }
    lua_remove(L, -2);
    if (static_cast<size_t>(s) < state->flow.asks.size() && !state->flow.asks[static_cast<size_t>(s)].empty()) {
      undo.ClearAsk(state, static_cast<size_t>(s));  // the question comes back if the answer fails
    }
    lua_pushinteger(L, LuaSeat(s));
    PushMove(L, m, *files_.cards);  // a table of its own, whether the move was listed or replayed
    Status r = CallHook(("moves." + m.type).c_str(), state, true, 2, 2);
    if (!r.ok()) return r;
    // `return false, why` refuses the move, and so does `return nil, why`.
    const bool refused = (lua_isboolean(L, -2) && !lua_toboolean(L, -2)) || (lua_isnil(L, -2) && lua_isstring(L, -1));
    std::string why = "refused by the rules";
    if (lua_isstring(L, -1)) {
      size_t len = 0;
      const char* text = lua_tolstring(L, -1, &len);
      why = SanitizeUtf8(std::string(text, std::min(len, limits::kMessageBytes)));
      if (len > limits::kMessageBytes) why += "... (" + std::to_string(len - limits::kMessageBytes) + " more bytes cut)";
    }
    lua_pop(L, 2);
    if (refused) return Status::Illegal(why);
    if (state->record) state->Log(s, "move", MoveToJson(m, *files_.cards));
    return Status::Ok();
  };
  state->move_count += 1;
  bool others_committed = false;
  for (size_t i = 0; i < state->flow.committed.size(); ++i) others_committed |= state->flow.committed[i] != 0;
  if (seats.size() > 1 || others_committed) {
    // Simultaneous: keep the choice hidden until everyone has chosen, then apply in seat order.
    undo.SaveCommits(*state);
    state->flow.pending[static_cast<size_t>(seat)] = move;
    state->flow.committed[static_cast<size_t>(seat)] = 1;
    state->Touch();  // who is still waiting must be asked of the state as it is now
    std::vector<int> waiting;
    st = ToMove(*state, &waiting);
    if (!st.ok()) {
      rollback();
      return st;
    }
    // A trial (a bot deliberating) is undone by UndoTrial, which needs the journal open: kept
    // on success here as on the single-mover path below (found by tests/fuzz/fuzz_hooks).
    if (!waiting.empty()) {
      detach.keep = trial && &undo == &undo_;
      return Status::Ok();
    }
    for (size_t i = 0; i < state->seats.size(); ++i) {
      if (!state->flow.committed[i]) continue;
      const Move m = state->flow.pending[i];
      state->flow.committed[i] = 0;
      state->flow.pending[i] = Move{};
      st = run(static_cast<int>(i), m);
      if (!st.ok()) {
        rollback();
        return st;
      }
    }
    detach.keep = trial && &undo == &undo_;
    return Status::Ok();
  }
  st = run(seat, move);
  if (!st.ok()) rollback();
  else detach.keep = trial && &undo == &undo_;
  return st;
}

bool LuaRules::ChoiceIsHidden(const State& state, int seat) {
  if (state.flow.terminal) return false;
  if (uses_draft_ && draft::Active(state) && !state.flow.HasAsks()) return false;
  // ApplyScripted's test: with another seat still to move, the move is only committed.
  std::vector<int> seats;
  if (!ToMove(state, &seats).ok() || seats.size() < 2) return false;
  return std::find(seats.begin(), seats.end(), seat) != seats.end();
}

Status LuaRules::TryMove(State* state, int seat, const Move& move) {
  if (state->flow.terminal) return Status::Illegal("the game is over");
  // The journal holds one trial at a time; drafting moves and nested trials use copies.
  const bool drafting = uses_draft_ && draft::Active(*state) && !state->flow.HasAsks();
  const bool journaled = !drafting && !undo_.active();
  // A trial on a copy puts the copy back over the state: an open trial's slots must not point
  // into the nodes that replaces.
  if (!journaled && undo_.active()) undo_.FoldAllSlots(*state);
  Status st;
  if (drafting && TryDraftPick(state, seat, move, &st)) {
    if (st.ok()) trial_kinds_.push_back(TrialKind::kDraftPick);
    return st;
  }
  trial_kinds_.push_back(journaled ? TrialKind::kJournal : TrialKind::kCopy);
  if (journaled) {
    st = ApplyScripted(state, seat, move, /*trial=*/true);
  } else if (drafting) {
    // A draft pick is a hidden choice: the trial shows it at once, as Preview does.
    trial_copies_.push_back(*state);
    st = Preview(trial_copies_.back(), seat, move, state);
    if (!st.ok()) {
      *state = std::move(trial_copies_.back());
      trial_copies_.pop_back();
    }
  } else {
    st = Rules::TryMove(state, seat, move);
  }
  if (!st.ok()) trial_kinds_.pop_back();
  if (journaled) state->Touch();
  return st;
}

// A draft pick tried in place: the card leaves the hand and lands on the seat's grid, exactly
// as Preview shows it, and UndoTrial puts both back. Copying the whole state twice per trial
// (the general path) was a quarter of a greedy Savane game. Returns false when the move is
// not a pick Preview would show (the general path then handles it, errors included).
bool LuaRules::TryDraftPick(State* state, int seat, const Move& move, Status* st) {
  // Inside a journaled trial the journal owns the undo: the general path copies instead.
  if (move.type != "place" || state->player_count <= 1 || undo_.active() || !DraftFor(*state).ok()) return false;
  // Legal as Preview judges it: among the listed moves, which are cached for this state's
  // version (the version every trial of one decision starts from).
  const std::vector<Move>* legal = nullptr;
  if (!ListLegal(*state, seat, &legal).ok()) return false;
  if (std::find(legal->begin(), legal->end(), move) == legal->end()) {
    *st = Status::Illegal("not a legal move");
    return true;
  }
  // The seat's hand and grid from the state's index (draft::GridKey(seat) is "grid:<seat>").
  const State::Index& index = state->index();
  const int hand_at = index.hand[static_cast<size_t>(seat)], grid_at = index.grid[static_cast<size_t>(seat)];
  if (hand_at < 0 || grid_at < 0) return false;
  Zone* hand = &state->zones[static_cast<size_t>(hand_at)];
  Grid* grid = &state->grids[static_cast<size_t>(grid_at)].second;
  auto it = std::find(hand->cards.begin(), hand->cards.end(), move.card);
  if (it == hand->cards.end()) return false;
  // Trials nest (a bot's trial inside a search's): one record per depth, kept between trials
  // so the grid's copy reuses its storage instead of allocating it for every candidate.
  if (draft_depth_ == draft_trials_.size()) draft_trials_.emplace_back();
  DraftPickTrial& t = draft_trials_[draft_depth_];
  t.hand = static_cast<size_t>(hand_at);
  t.position = static_cast<size_t>(it - hand->cards.begin());
  t.card = move.card;
  t.grid = static_cast<size_t>(grid_at);
  t.before = *grid;
  t.generation = state->identity.generation;
  t.record = state->record;
  hand->cards.erase(it);
  grid->Set(move.cell.row, move.cell.col, Cell{move.card});
  state->record = false;
  state->TouchOutsideData();  // a card moved from a hand to a grid; state.data as it was
  ++draft_depth_;
  *st = Status::Ok();
  return true;
}

void LuaRules::UndoTrial(State* state) {
  if (trial_kinds_.empty()) return;
  const TrialKind kind = trial_kinds_.back();
  trial_kinds_.pop_back();
  if (kind == TrialKind::kJournal) {
    undo_.Restore(state);
  } else if (kind == TrialKind::kDraftPick) {
    DraftPickTrial& t = draft_trials_[draft_depth_ - 1];
    std::vector<CardId>& hand = state->zones[t.hand].cards;
    hand.insert(hand.begin() + static_cast<std::ptrdiff_t>(t.position), t.card);
    std::swap(state->grids[t.grid].second, t.before);
    state->record = t.record;
    // The content is back, so its generation is too (as StateUndo does): the answers cached
    // for it (legal moves, who moves) stay valid for the next trial.
    state->identity.generation = t.generation;
    --draft_depth_;
  } else {
    Rules::UndoTrial(state);
  }
  ++binding_.epoch;
}

Status LuaRules::Preview(const State& state, int seat, const Move& move, State* out) {
  if (uses_draft_ && draft::Active(state) && !state.flow.HasAsks() && move.type == "place" && state.player_count > 1 &&
      DraftFor(state).ok()) {
    // Show the pick on its own grid at once instead of waiting for the reveal.
    *out = state;
    out->record = false;
    const std::vector<Move>* legal = nullptr;
    Status st = ListLegal(state, seat, &legal);
    if (!st.ok()) return st;
    if (std::find(legal->begin(), legal->end(), move) == legal->end()) return Status::Illegal("not a legal move");
    RemoveCard(out->FindZone("hand", seat), move.card);
    out->FindGrid(draft::GridKey(seat))->Set(move.cell.row, move.cell.col, Cell{move.card});
    return Status::Ok();
  }
  return Rules::Preview(state, seat, move, out);
}

Status LuaRules::Score(const State& state, ScoreTable* out) {
  lua_State* L = rt_->L();
  PushHook("score");
  Status st = CallHook("score", &state, false, 0, 2);
  if (!st.ok()) return st;
  auto fail = [&](const std::string& msg) {
    lua_pop(L, 2);
    PushHook("score");
    const std::string where = WhereDefined(L, -1);
    lua_pop(L, 1);
    return Status{ErrorKind::kScript, where + "score: " + msg, {}, {}};
  };
  if (!lua_istable(L, -2)) return fail(std::string("must return a table of seats, got ") + luaL_typename(L, -2));
  const std::vector<std::string>& order = categories_;
  ScoreTable table;
  table.lines.reserve(state.seats.size());
  for (size_t seat = 0; seat < state.seats.size(); ++seat) {
    const std::string who = "seat " + std::to_string(seat + 1);
    if (lua_rawgeti(L, -2, static_cast<lua_Integer>(seat + 1)) == LUA_TNIL) {
      lua_pop(L, 1);
      // Pseudo-seats (neutral, opponent) may go unscored; a player may not: a missing line
      // would rank the others against nothing.
      if (static_cast<int>(seat) < state.player_count) return fail("no entry for " + who + " (every player needs one)");
      continue;
    }
    if (!lua_istable(L, -1)) {
      lua_pop(L, 1);
      return fail("entry for " + who + " must be a table {total=, breakdown=}");
    }
    ScoreLine line;
    line.seat = static_cast<int>(seat);
    line.name = state.seats[seat].name;
    std::vector<std::pair<std::string, int64_t>> parts;
    parts.reserve(order.size());
    if (RawGetField(L, -1, "breakdown") == LUA_TTABLE) {
      // Declared categories first, in their order; then any others, sorted by name.
      auto bad = [&](const std::string& key) {
        const std::string got = NumberText(L, -1);
        lua_pop(L, 3);
        return fail("breakdown '" + key + "' for " + who + " is " + got + ", an integer within ±" +
                    std::to_string(limits::kScore) + " is expected");
      };
      size_t found = 0;
      const int breakdown = lua_gettop(L);
      if (categories_ref_ != LUA_NOREF) lua_rawgeti(L, LUA_REGISTRYINDEX, categories_ref_);
      const int names = lua_gettop(L);
      for (size_t k = 0; k < order.size(); ++k) {
        const std::string& cat = order[k];
        lua_rawgeti(L, names, static_cast<lua_Integer>(k + 1));  // interned: no hashing of a C string
        if (lua_rawget(L, breakdown) == LUA_TNIL) {
          lua_pop(L, 1);
          continue;
        }
        int isint = 0;
        const lua_Integer v = lua_tointegerx(L, -1, &isint);
        if (!isint || lua_type(L, -1) != LUA_TNUMBER || v < -limits::kScore || v > limits::kScore) {
          lua_remove(L, names);
          return bad(cat);
        }
        parts.emplace_back(cat, v);
        ++found;
        lua_pop(L, 1);
      }
      lua_settop(L, breakdown);
      size_t total_keys = 0;
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        ++total_keys;
        lua_pop(L, 1);
      }
      if (total_keys != found) {
        std::vector<std::pair<std::string, int64_t>> extra;
        lua_pushnil(L);
        while (lua_next(L, -2)) {
          if (lua_type(L, -2) != LUA_TSTRING) {
            lua_pop(L, 4);
            return fail("breakdown keys for " + who + " must be category names");
          }
          const std::string key = lua_tostring(L, -2);
          if (!IsValidUtf8(key.data(), key.size())) {
            lua_pop(L, 4);
            return fail("breakdown key '" + SanitizeUtf8(key) + "' for " + who + " is not UTF-8 text");
          }
          if (std::find(order.begin(), order.end(), key) == order.end()) {
            int isint = 0;
            const lua_Integer v = lua_tointegerx(L, -1, &isint);
            if (!isint || lua_type(L, -1) != LUA_TNUMBER || v < -limits::kScore || v > limits::kScore) {
              lua_remove(L, -2);
              return bad(key);
            }
            extra.emplace_back(key, v);
          }
          lua_pop(L, 1);
        }
        std::sort(extra.begin(), extra.end());
        parts.insert(parts.end(), extra.begin(), extra.end());
      }
    }
    lua_pop(L, 1);
    line.breakdown = std::move(parts);
    const int t = RawGetField(L, -1, "total");
    if (t == LUA_TNIL) {
      for (const auto& [k, v] : line.breakdown) line.total += v;
    } else {
      int isint = 0;
      const lua_Integer v = lua_tointegerx(L, -1, &isint);
      if (!isint || t != LUA_TNUMBER || v < -limits::kScore || v > limits::kScore) {
        const std::string got = NumberText(L, -1);
        lua_pop(L, 2);
        return fail("total for " + who + " is " + got + ", an integer within ±" + std::to_string(limits::kScore) +
                    " is expected");
      }
      line.total = v;
    }
    lua_pop(L, 2);
    table.lines.push_back(std::move(line));
  }
  // Every entry must be a seat's: a line for seat 5 of 2, or at 1.5, would be dropped unseen.
  lua_pushnil(L);
  while (lua_next(L, -3)) {
    lua_pop(L, 1);
    const bool seat_key = lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 &&
                          lua_tointeger(L, -1) <= static_cast<lua_Integer>(state.seats.size());
    if (!seat_key) {
      const std::string key = lua_type(L, -1) == LUA_TSTRING ? "'" + SanitizeUtf8(lua_tostring(L, -1)) + "'" : NumberText(L, -1);
      lua_pop(L, 1);
      return fail("entry " + key + " is not a seat (1.." + std::to_string(state.seats.size()) + ")");
    }
  }
  if (lua_istable(L, -1)) {
    std::string error;
    Json extra;
    if (!LuaToJson(L, -1, &extra, &error)) return fail("second result: " + error);
    // Reports count and print it for every game: kept small.
    if (LastConversionBytes() > (64u << 10)) return fail("second result (extra) is over 64 KiB");
    table.extra = extra;
  }
  lua_pop(L, 2);
  *out = std::move(table);
  return Status::Ok();
}

Status LuaRules::Evaluate(const State& state, int seat, double* out) { return EvaluateWith(state, seat, {}, out); }

// The `totals` hook: each seat's total as `score` would give it, for the bots' default measure
// (a game may compute them with caches a full score table cannot use: Écosystème rescores only
// the grids a candidate move changed). Held to the score's own totals by CheckTotals.
Status LuaRules::Totals(const State& state, std::vector<std::optional<int64_t>>* out) {
  lua_State* L = rt_->L();
  PushHook("totals");
  Status st = CallHook("totals", &state, false, 0, 1);
  if (!st.ok()) return st;
  auto fail = [&](const std::string& msg) {
    lua_pop(L, 1);
    return Status{ErrorKind::kScript, HookWhere("totals") + "totals: " + msg, {}, {}};
  };
  if (!lua_istable(L, -1)) return fail(std::string("must return a list of totals by seat, got ") + luaL_typename(L, -1));
  const size_t n = state.seats.size();
  out->assign(n, std::nullopt);
  size_t entries = 0;
  for (size_t k = 0; k < n; ++k) {
    const int t = lua_rawgeti(L, -1, static_cast<lua_Integer>(k + 1));
    if (t == LUA_TNIL) {
      lua_pop(L, 1);
      if (static_cast<int>(k) < state.player_count)
        return fail("no total for seat " + std::to_string(k + 1) + " (every player needs one)");
      continue;
    }
    int isint = 0;
    const lua_Integer v = lua_tointegerx(L, -1, &isint);
    if (!isint || t != LUA_TNUMBER || v < -limits::kScore || v > limits::kScore) {
      const std::string got = NumberText(L, -1);
      lua_pop(L, 1);
      return fail("total for seat " + std::to_string(k + 1) + " is " + got + ", an integer within ±" +
                  std::to_string(limits::kScore) + " is expected");
    }
    (*out)[k] = v;
    ++entries;
    lua_pop(L, 1);
  }
  // Every entry must be a seat's, as in score's table.
  if (CountKeys(L, -1) != entries) return fail("holds entries that are not seats 1.." + std::to_string(n));
  lua_pop(L, 1);
  return Status::Ok();
}

// Through the `totals` hook when the game has one (held to score's totals by CheckTotals).
Status LuaRules::CurrentTotals(const State& state, std::vector<int64_t>* out) {
  if (!has_hook("totals")) return Rules::CurrentTotals(state, out);
  Status st = Totals(state, &totals_scratch_);
  if (!st.ok()) return st;
  out->assign(totals_scratch_.size(), 0);
  for (size_t k = 0; k < totals_scratch_.size(); ++k) (*out)[k] = totals_scratch_[k].value_or(0);
  return Status::Ok();
}

Status LuaRules::CheckTotals(const State& state) {
  if (!has_hook("totals")) return Status::Ok();
  // The score is the reference: a state it cannot score is the score's failure, which the
  // checks report where they score (so one broken rule is one failure, named after it).
  ScoreTable table;
  if (!Score(state, &table).ok()) return Status::Ok();
  std::vector<std::optional<int64_t>> totals;
  Status st = Totals(state, &totals);
  if (!st.ok()) return st;
  std::vector<std::optional<int64_t>> scored(state.seats.size());
  for (const ScoreLine& line : table.lines) scored[static_cast<size_t>(line.seat)] = line.total;
  for (size_t k = 0; k < scored.size(); ++k)
    if (totals[k] != scored[k]) {
      auto text = [](const std::optional<int64_t>& v) { return v ? std::to_string(*v) : std::string("none"); };
      return {ErrorKind::kScript,
              HookWhere("totals") + "totals: seat " + std::to_string(k + 1) + " (" + state.seats[k].name + ") has " +
                  text(totals[k]) + " where score's total is " + text(scored[k]) +
                  " (totals must give each seat its score total: the bots rank moves by it)",
              {}, {}};
    }
  return Status::Ok();
}

// The host's default measure (Rules::Evaluate: the seat's total minus half the best other
// total) from the score hook's totals alone. Through Score, a greedy bot's every candidate
// move built each seat's breakdown as C++ strings only for four totals to be read: a seventh
// of a greedy game. Here the same checks run on the Lua values; anything Score would refuse
// or read another way (a missing line, a bad value, an extra to convert) is handed to Score
// itself, so the number and every error message stay Score's.
Status LuaRules::EvaluateFromTotals(const State& state, int seat, double* out) {
  if (has_hook("totals")) {
    std::vector<std::optional<int64_t>>& totals = totals_scratch_;
    Status st = Totals(state, &totals);
    if (!st.ok()) return st;
    int64_t best_other = INT64_MIN;
    for (size_t k = 0; k < totals.size(); ++k)
      if (totals[k] && static_cast<int>(k) != seat && *totals[k] > best_other) best_other = *totals[k];
    const int64_t mine = totals[static_cast<size_t>(seat)].value_or(0);
    *out = static_cast<double>(mine) - (best_other == INT64_MIN ? 0.0 : 0.5 * static_cast<double>(best_other));
    return Status::Ok();
  }
  lua_State* L = rt_->L();
  const int top = lua_gettop(L);
  PushHook("score");
  Status st = CallHook("score", &state, false, 0, 2);
  if (!st.ok()) return st;
  const int lines = top + 1;
  bool plain = lua_istable(L, lines) && lua_isnil(L, lines + 1);
  int64_t mine = 0, best_other = INT64_MIN;
  size_t entries = 0;
  auto integer = [&](int index, int64_t* v) {
    int isint = 0;
    const lua_Integer x = lua_tointegerx(L, index, &isint);
    if (!isint || lua_type(L, index) != LUA_TNUMBER || x < -limits::kScore || x > limits::kScore) return false;
    *v = x;
    return true;
  };
  for (size_t k = 0; plain && k < state.seats.size(); ++k) {
    const int t = lua_rawgeti(L, lines, static_cast<lua_Integer>(k + 1));
    if (t == LUA_TNIL) {
      plain = static_cast<int>(k) >= state.player_count;
      lua_pop(L, 1);
      continue;
    }
    ++entries;
    const int line = lua_gettop(L);
    plain = t == LUA_TTABLE;
    int64_t sum = 0;
    if (plain && RawGetField(L, line, "breakdown") == LUA_TTABLE) {
      lua_pushnil(L);
      while (plain && lua_next(L, -2)) {
        int64_t v = 0;
        size_t len = 0;
        const char* key = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &len) : nullptr;
        plain = key && IsValidUtf8(key, len) && integer(-1, &v);
        sum += v;
        lua_pop(L, 1);
      }
    }
    int64_t total = sum;
    if (plain && RawGetField(L, line, "total") != LUA_TNIL) plain = integer(-1, &total);
    if (plain) {
      if (static_cast<int>(k) == seat) mine = total;
      else if (total > best_other) best_other = total;
    }
    lua_settop(L, line - 1);
  }
  if (plain) {  // every key a seat's
    size_t keys = 0;
    lua_pushnil(L);
    while (lua_next(L, lines)) {
      ++keys;
      lua_pop(L, 1);
    }
    plain = keys == entries;
  }
  lua_settop(L, top);
  if (!plain) return Rules::Evaluate(state, seat, out);
  *out = static_cast<double>(mine) - (best_other == INT64_MIN ? 0.0 : 0.5 * static_cast<double>(best_other));
  return Status::Ok();
}

// Bot options reach the hook as its 4th argument ({knowledge = 0.5}); each must be declared in
// the manifest's "bot_options", within its range.
Status LuaRules::EvaluateWith(const State& state, int seat, const std::vector<std::pair<std::string, double>>& options,
                              double* out) {
  const Json& declared = files_.manifest.contains("bot_options") ? files_.manifest["bot_options"] : Json::object();
  for (const auto& [key, value] : options) {
    if (!declared.contains(key)) {
      std::string known;
      for (auto it = declared.begin(); it != declared.end(); ++it) known += (known.empty() ? "" : ", ") + it.key();
      return Status::Input("bot option '" + key + "' is neither the bot's nor the game's (" + info().id +
                           (known.empty() ? " declares no bot options)" : " declares: " + known + ")"));
    }
    const Json& d = declared[key];
    if ((d.contains("minimum") && value < d["minimum"].get<double>()) || (d.contains("maximum") && value > d["maximum"].get<double>()))
    {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g is outside %g..%g", value, d.value("minimum", -HUGE_VAL), d.value("maximum", HUGE_VAL));
      return Status::Input("bot option " + key + "=" + buf);
    }
  }
  if (!has_hook("evaluate")) return EvaluateFromTotals(state, seat, out);
  lua_State* L = rt_->L();
  PushHook("evaluate");
  lua_pushinteger(L, LuaSeat(seat));
  int args = 1;
  if (!options.empty()) {
    lua_createtable(L, 0, static_cast<int>(options.size()));
    for (const auto& [key, value] : options) {
      lua_pushnumber(L, value);
      lua_setfield(L, -2, key.c_str());
    }
    args = 2;
  }
  Status st = CallHook("evaluate", &state, false, args, 1);
  if (!st.ok()) return st;
  // A bot ranks moves by this number and MCTS turns it into a reward: NaN or an infinity
  // would make either pick nonsense (or index out of range).
  if (lua_type(L, -1) != LUA_TNUMBER || !std::isfinite(lua_tonumber(L, -1)) || std::fabs(lua_tonumber(L, -1)) > limits::kEvaluate) {
    const std::string got = NumberText(L, -1);
    lua_pop(L, 1);
    const std::string where = HookWhere("evaluate");
    char range[32];
    std::snprintf(range, sizeof range, "%g", limits::kEvaluate);
    return {ErrorKind::kScript, where + "evaluate must return a finite number within ±" + range + ", got " + got, {}, {}};
  }
  *out = lua_tonumber(L, -1);
  lua_pop(L, 1);
  return Status::Ok();
}

// The `evaluate_moves` hook: one call values every candidate of a decision, so a game can
// compute what each move changes instead of the host trying each one and the evaluation
// scoring the whole table after it. Its values are checked here on every call (one per move,
// finite, within ±kEvaluate; nil leaves the move to a trial) and held to the trials' values by
// the conformance checks (CheckEvaluateMoves): a bot never takes a value it cannot trust.
// A second result, `base` (a move's index), makes the values relative to that move: what each
// move adds to the base move's value, which the caller finds by one trial.
namespace {

int ListedMoveNewindex(lua_State* L) {
  return luaL_error(L, "the moves handed to evaluate_moves are read-only (the host hands the same tables again): "
                       "copy a move to annotate it");
}

// Whether the kept table on top of the stack still holds move m's type, card and cell (a hook
// may have overwritten a field, which no metamethod sees).
bool ListedMoveIntact(lua_State* L, const Move& m, const CardSet& cards) {
  lua_pushliteral(L, "type");
  bool ok = lua_rawget(L, -2) == LUA_TSTRING && m.type == lua_tostring(L, -1);
  lua_pop(L, 1);
  if (!ok) return false;
  lua_pushliteral(L, "card");
  const int t = lua_rawget(L, -2);
  ok = m.card == kNoCard ? t == LUA_TNIL : t == LUA_TSTRING && cards.Name(m.card) == lua_tostring(L, -1);
  lua_pop(L, 1);
  if (!ok || !m.has_cell) return ok;
  lua_pushliteral(L, "cell");
  if (lua_rawget(L, -2) != LUA_TTABLE || lua_rawlen(L, -1) != 2) {
    lua_pop(L, 1);
    return false;
  }
  lua_rawgeti(L, -1, 1);
  lua_rawgeti(L, -2, 2);
  ok = lua_isinteger(L, -2) && lua_isinteger(L, -1) && lua_tointeger(L, -2) == m.cell.row &&
       lua_tointeger(L, -1) == m.cell.col;
  lua_pop(L, 3);
  return ok;
}

}  // namespace

void LuaRules::PushListedMove(const Move& m) {
  lua_State* L = rt_->L();
  const bool plain = (m.args.is_null() || m.args->is_null() || (m.args->is_object() && m.args->empty())) && !m.has_to &&
                     m.card >= kNoCard && m.card < 0xffff && std::abs(m.cell.row) <= limits::kCoord &&
                     std::abs(m.cell.col) <= limits::kCoord;
  if (!plain) {
    PushMove(L, m, *files_.cards);
    return;
  }
  // card + 1 (16 bits), whether there is a cell, row and col (offset to be non-negative).
  const uint64_t key = (uint64_t(uint16_t(m.card + 1)) << 48) | (uint64_t(m.has_cell) << 47) |
                       (uint64_t(m.has_cell ? m.cell.row + limits::kCoord : 0) << 24) |
                       uint64_t(m.has_cell ? m.cell.col + limits::kCoord : 0);
  if (!listed_by_type_ || listed_type_ != m.type) {
    listed_type_ = m.type;
    listed_by_type_ = &listed_moves_[m.type];
  }
  const auto it = listed_by_type_->find(key);
  if (it != listed_by_type_->end()) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, it->second);
    if (ListedMoveIntact(L, m, *files_.cards)) return;
    lua_pop(L, 1);
    luaL_unref(L, LUA_REGISTRYINDEX, it->second);
    listed_by_type_->erase(it);
    --listed_move_count_;
  }
  PushMove(L, m, *files_.cards);
  // Bounded: a game with more distinct listed moves than this builds the rest each time.
  if (listed_move_count_ >= 4096) return;
  // Writes that add a field are refused (the next decision would see them); see ListedMoveIntact.
  if (luaL_newmetatable(L, "plateau.listed_move")) {
    lua_pushcfunction(L, ListedMoveNewindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushliteral(L, "the host's move");
    lua_setfield(L, -2, "__metatable");
  }
  if (m.has_cell) {
    lua_getfield(L, -2, "cell");
    lua_pushvalue(L, -2);
    lua_setmetatable(L, -2);
    lua_pop(L, 1);
  }
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  listed_by_type_->emplace(key, luaL_ref(L, LUA_REGISTRYINDEX));
  ++listed_move_count_;
}

Status LuaRules::EvaluateMoves(const State& state, int seat, const std::vector<Move>& moves,
                               const std::vector<std::pair<std::string, double>>& options, std::vector<double>* out,
                               int* base) {
  out->clear();
  *base = -1;
  if (!has_hook("evaluate_moves") || moves.empty()) return Status::Ok();
  lua_State* L = rt_->L();
  if (!lua_checkstack(L, 8)) return {ErrorKind::kMemory, "evaluate_moves: the Lua stack is full", {}, {}};
  PushHook("evaluate_moves");
  lua_pushinteger(L, LuaSeat(seat));
  if (!PushLegalTables(state, seat, moves)) {
    lua_createtable(L, static_cast<int>(std::min<size_t>(moves.size(), 1u << 20)), 0);
    for (size_t i = 0; i < moves.size(); ++i) {
      PushListedMove(moves[i]);
      lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
    }
  }
  if (options.empty()) {
    lua_pushnil(L);
  } else {
    lua_createtable(L, 0, static_cast<int>(options.size()));
    for (const auto& [key, value] : options) {
      lua_pushnumber(L, value);
      lua_setfield(L, -2, key.c_str());
    }
  }
  Status st = CallHook("evaluate_moves", &state, false, 3, 2);
  if (!st.ok()) return st;
  auto fail = [&](const std::string& msg) {
    lua_pop(L, 1);
    out->clear();
    *base = -1;
    return Status{ErrorKind::kScript, HookWhere("evaluate_moves") + "evaluate_moves: " + msg, {}, {}};
  };
  // The base, then the list (left on top, as the checks below expect).
  if (!lua_isnil(L, -1)) {
    int exact = 0;
    const lua_Integer b = lua_tointegerx(L, -1, &exact);
    if (!exact || b < 1 || b > static_cast<lua_Integer>(moves.size())) {
      const std::string got = NumberText(L, -1);
      lua_pop(L, 1);
      return fail("its second result (the base move the values are relative to) is " + got + ", not the index of one of the " +
                  std::to_string(moves.size()) + " moves");
    }
    *base = static_cast<int>(b - 1);
  }
  lua_pop(L, 1);
  if (!lua_istable(L, -1))
    return fail(std::string("must return a list of values, one per move (nil: try it), got ") + luaL_typename(L, -1));
  out->assign(moves.size(), std::nan(""));
  size_t entries = 0;
  for (size_t i = 0; i < moves.size(); ++i) {
    const int t = lua_rawgeti(L, -1, static_cast<lua_Integer>(i + 1));
    if (t == LUA_TNIL) {
      lua_pop(L, 1);
      continue;
    }
    ++entries;
    const double v = lua_tonumber(L, -1);
    if (t != LUA_TNUMBER || !std::isfinite(v) || std::fabs(v) > limits::kEvaluate) {
      const std::string got = NumberText(L, -1);
      lua_pop(L, 1);
      char range[32];
      std::snprintf(range, sizeof range, "%g", limits::kEvaluate);
      return fail("the value for move " + std::to_string(i + 1) + " (" + MoveToString(moves[i], *files_.cards) + ") is " + got +
                  ", a finite number within ±" + range + " (or nil: try it) is expected");
    }
    (*out)[i] = v;
    lua_pop(L, 1);
  }
  // One value per move and nothing else: a value past the last move, or under another key,
  // is for no move the bot was given.
  const size_t keys = CountKeys(L, -1);
  if (keys != entries)
    return fail("returned " + std::to_string(keys) + " values where the " + std::to_string(moves.size()) +
                " moves it was given take at most one each (a value at an index past the last move, or under another key)");
  if (*base >= 0) {
    double& own = (*out)[static_cast<size_t>(*base)];
    if (!std::isnan(own) && own != 0) {
      char got[32];
      std::snprintf(got, sizeof got, "%.17g", own);
      return fail("the base move " + std::to_string(*base + 1) + " (" + MoveToString(moves[static_cast<size_t>(*base)], *files_.cards) +
                  ") adds " + got + " to itself: a base's own entry is 0 or nil");
    }
    own = 0;
  }
  lua_pop(L, 1);
  return Status::Ok();
}

Status LuaRules::CheckEvaluateMoves(const State& state, int seat, const std::vector<Move>& moves, int max_trials,
                                    uint64_t pick) {
  if (!has_hook("evaluate_moves")) return Status::Ok();
  std::vector<double> values;
  int base = -1;
  Status st = EvaluateMoves(state, seat, moves, {}, &values, &base);
  if (!st.ok()) return st;
  // Each value against a trial of its move, on a copy without the log (as the bots try moves).
  std::vector<LogEntry> log;
  State scratch;
  {
    State& s = const_cast<State&>(state);
    log = std::move(s.log);
    scratch = s;
    s.log = std::move(log);
  }
  scratch.record = false;
  if (base >= 0) {
    double from = 0;
    bool chance = false;
    st = TryValue(&scratch, seat, moves[static_cast<size_t>(base)], {}, &from, &chance);
    if (!st.ok()) return st;
    if (chance)
      return {ErrorKind::kScript,
              HookWhere("evaluate_moves") + "evaluate_moves: the base move " + std::to_string(base + 1) + " (" +
                  MoveToString(moves[static_cast<size_t>(base)], *files_.cards) +
                  ") draws random numbers when it is played, so values relative to it are not known: give no base there",
              {}, {}};
    for (double& v : values)
      if (!std::isnan(v)) v += from;
  }
  std::vector<size_t> valued;
  for (size_t i = 0; i < values.size(); ++i)
    if (!std::isnan(values[i])) valued.push_back(i);
  if (max_trials > 0 && valued.size() > static_cast<size_t>(max_trials)) {
    // A partial Fisher-Yates shuffle: max_trials distinct moves, in their list's order.
    Rng r(pick);
    for (size_t k = 0; k < static_cast<size_t>(max_trials); ++k)
      std::swap(valued[k], valued[k + r.Below(static_cast<uint32_t>(valued.size() - k))]);
    valued.resize(static_cast<size_t>(max_trials));
    std::sort(valued.begin(), valued.end());
  }
  for (size_t i : valued) {
    double tried = 0;
    bool chance = false;
    st = TryValue(&scratch, seat, moves[i], {}, &tried, &chance);
    if (chance)
      return {ErrorKind::kScript,
              HookWhere("evaluate_moves") + "evaluate_moves: move " + std::to_string(i + 1) + " (" +
                  MoveToString(moves[i], *files_.cards) + ") draws random numbers when it is played, so its value depends "
                  "on them: leave it nil (the bots try it, the heuristic bot on several draws)",
              {}, {}};
    if (!st.ok()) return st;
    if (tried != values[i]) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "%.17g where a trial of the move gives %.17g", values[i], tried);
      return {ErrorKind::kScript,
              HookWhere("evaluate_moves") + "evaluate_moves: move " + std::to_string(i + 1) + " (" +
                  MoveToString(moves[i], *files_.cards) + ") is valued " + buf +
                  " (evaluate_moves must give exactly what the move's trial and the evaluation give: the bots rank moves by it)",
              {}, {}};
    }
  }
  return Status::Ok();
}

Status LuaRules::Stats(const State& state, Json* out) {
  *out = Json::object();
  if (!has_hook("stats")) return Status::Ok();
  lua_State* L = rt_->L();
  PushHook("stats");
  Status st = CallHook("stats", &state, false, 0, 1);
  if (!st.ok()) return st;
  std::string error;
  Json j;
  bool ok = lua_istable(L, -1) && LuaToJson(L, -1, &j, &error) && j.is_object();
  // Reports accumulate it over thousands of games: kept to 1 MiB a game.
  if (ok && LastConversionBytes() > (1u << 20)) {
    ok = false;
    error = "over 1 MiB";
  }
  const std::string got = luaL_typename(L, -1);
  lua_pop(L, 1);
  if (!ok)
    return {ErrorKind::kScript, HookWhere("stats") + "stats must return a table" +
                (error.empty() ? ", got " + got : ": " + error), {}, {}};
  *out = std::move(j);
  return Status::Ok();
}

Status LuaRules::Describe(const State& state, int seat, const Move& move, std::string* out,
                          std::vector<std::string>* group, std::string* picture) {
  out->clear();
  if (group) group->clear();
  if (picture) picture->clear();
  if (!has_hook("describe")) return Status::Ok();
  lua_State* L = rt_->L();
  PushHook("describe");
  lua_pushinteger(L, LuaSeat(seat));
  PushMove(L, move, *files_.cards);
  Status st = CallHook("describe", &state, false, 2, 3);
  if (!st.ok()) return st;
  auto fail = [&](const std::string& why) -> Status {
    lua_pop(L, 3);
    return {ErrorKind::kScript, files_.roots.front().display + "/" + files_.rules_script + ": describe" + why, {}, {}};
  };
  if (lua_type(L, -3) == LUA_TSTRING) {
    // A label for a person: one line of inert text (host/text.h), at most 1 KiB.
    size_t len = 0;
    const char* s = lua_tolstring(L, -3, &len);
    *out = TerminalText(std::string_view(s, std::min<size_t>(len, 1024)));
  } else if (!lua_isnil(L, -3)) {
    return fail(std::string(" must return a string (or nil), got ") + luaL_typename(L, -3));
  }
  // The picture: lines of inert text, at most 4 KiB, or nil.
  if (lua_type(L, -1) == LUA_TSTRING) {
    size_t len = 0;
    const char* text = lua_tolstring(L, -1, &len);
    if (len > 4096) return fail("'s third value (the move's picture) must be a string of at most 4096 bytes, got " +
                                std::to_string(len));
    if (picture) *picture = TerminalText(std::string_view(text, len), /*lines=*/true);
  } else if (!lua_isnil(L, -1)) {
    return fail(std::string("'s third value (the move's picture) must be a string (or nil), got ") + luaL_typename(L, -1));
  }
  // The group: read raw (no metamethods), bounded, each label a short line.
  std::vector<std::string> labels;
  const int g = lua_gettop(L) - 1;
  auto label = [&](int at) -> bool {
    if (lua_type(L, at) != LUA_TSTRING) return false;
    size_t len = 0;
    const char* text = lua_tolstring(L, at, &len);
    if (len == 0 || len > 200 || std::memchr(text, '\n', len)) return false;
    labels.push_back(TerminalText(std::string_view(text, len)));
    return true;
  };
  const char* kGroupRule = "'s second value (the move's group) must be a string or a list of 1 to 4 strings of "
                           "1 to 200 characters on one line, got ";
  if (lua_type(L, g) == LUA_TSTRING) {
    if (!label(g)) return fail(std::string(kGroupRule) + "a string of " + std::to_string(lua_rawlen(L, g)) + " characters");
  } else if (lua_type(L, g) == LUA_TTABLE) {
    const lua_Unsigned n = lua_rawlen(L, g);
    if (n < 1 || n > 4) return fail(std::string(kGroupRule) + "a list of " + std::to_string(n));
    for (lua_Unsigned i = 1; i <= n; ++i) {
      lua_rawgeti(L, g, static_cast<lua_Integer>(i));
      const bool ok = label(-1);
      const std::string got = luaL_typename(L, -1);
      lua_pop(L, 1);
      if (!ok) return fail(std::string(kGroupRule) + "a " + got + " at [" + std::to_string(i) + "]");
    }
  } else if (!lua_isnil(L, g)) {
    return fail(std::string(kGroupRule) + luaL_typename(L, g));
  }
  lua_pop(L, 3);
  if (group) *group = std::move(labels);
  return Status::Ok();
}

std::string LuaRules::View(const State& state, int seat) {
  std::string text = RenderState(state, seat);
  if (has_hook("view")) {
    lua_State* L = rt_->L();
    PushHook("view");
    if (seat >= 0) lua_pushinteger(L, LuaSeat(seat));
    else lua_pushnil(L);
    Status st = CallHook("view", &state, false, 1, 2);
    if (!st.ok()) return text + "(view failed: " + st.message + ")\n";
    // A second value true says the game's view is the whole table: the host's own description
    // (phase, zones by their internal names...) is left out.
    if (lua_isstring(L, -2) && lua_type(L, -1) == LUA_TBOOLEAN && lua_toboolean(L, -1)) text.clear();
    if (lua_isstring(L, -2)) {
      // A view is for a person to read: at most 64 KiB of it is printed.
      size_t len = 0;
      const char* v = lua_tolstring(L, -2, &len);
      constexpr size_t kMaxView = 64u << 10;
      text += TerminalText(std::string_view(v, std::min(len, kMaxView)), /*lines=*/true) +
              (len > kMaxView ? "... (view cut: " + std::to_string(len - kMaxView) + " more bytes)" : "") + "\n";
    }
    lua_pop(L, 2);
  }
  return text;
}

Status LuaRules::BoardState(const std::vector<std::string>& names,
                            const std::vector<std::vector<std::vector<std::string>>>& grids, const Json& neutral,
                            State* out, const Json& given, bool full) {
  State s;
  s.game_id = info().id;
  s.cards = files_.cards;
  s.tiles = files_.tiles;
  s.regions = files_.regions;
  Json params;
  Status st = ResolveParams(info(), given, &params);
  if (!st.ok()) return st;
  s.params = params;
  UpdateParams(params);
  const int players = static_cast<int>(grids.size());
  s.player_count = players;
  for (int i = 0; i < players; ++i) s.seats.push_back({names[static_cast<size_t>(i)], "player"});
  if (uses_draft_) {
    st = EnsureDraftConfig(params);
    if (!st.ok()) return st;
  }
  for (int i = 0; i < players; ++i) {
    const auto& rows = grids[static_cast<size_t>(i)];
    const std::string where = "players[" + std::to_string(i) + "].grid";
    const std::string frame = std::to_string(draft_.rows) + " rows of " + std::to_string(draft_.cols) + " cards";
    if (static_cast<int>(rows.size()) > draft_.rows || (full && static_cast<int>(rows.size()) != draft_.rows))
      return Status::Input(where + ": " + std::to_string(rows.size()) + " rows; a " + (full ? "finished " : "") + info().id +
                           " grid has " + (full ? "" : "at most ") + frame);
    // A scenario's corner may leave the ends of rows empty; a finished board fills every row.
    for (size_t r = 0; r < rows.size(); ++r) {
      const int n = static_cast<int>(rows[r].size());
      if (n > draft_.cols || (full && n != draft_.cols))
        return Status::Input(where + "[" + std::to_string(r) + "]: " + std::to_string(n) + " cards; a " +
                             (full ? "finished " : "") + info().id + " grid has " + (full ? "" : "at most ") + frame);
    }
    Grid* g = s.AddGrid(draft::GridKey(i), GridRules{draft_.rows, draft_.cols, true});
    for (size_t r = 0; r < rows.size(); ++r)
      for (size_t c = 0; c < rows[r].size(); ++c) {
        const CardId id = files_.cards->Find(rows[r][c]);
        if (id == kNoCard)
          return Status::Input("players[" + std::to_string(i) + "].grid[" + std::to_string(r) + "][" + std::to_string(c) +
                               "]: unknown card id '" + rows[r][c] + "' for " + info().id + files_.cards->Suggest(rows[r][c]));
        g->Set(static_cast<int>(r), static_cast<int>(c), Cell{id});
      }
    s.AddZone("hand", i, Visibility::kOwner);
  }
  if (neutral.is_object() && !neutral.empty()) {
    const int seat = static_cast<int>(s.seats.size());
    s.seats.push_back({draft_.neutral_name, "neutral"});
    Zone* pile = s.AddZone("pile", seat, Visibility::kPublic);
    for (auto it = neutral.begin(); it != neutral.end(); ++it) {
      const CardId id = files_.cards->Find(it.key());
      if (id == kNoCard) return Status::Input("neutral: unknown card id '" + it.key() + "' for " + info().id + files_.cards->Suggest(it.key()));
      if (!it->is_number_integer() || it->get<int64_t>() < 0 || it->get<int64_t>() > 1000)
        return Status::Input("neutral." + it.key() + ": a count from 0 to 1000 is expected");
      for (int64_t k = 0; k < it->get<int64_t>(); ++k) pile->cards.push_back(id);
    }
  }
  s.flow.phase = "draft_done";
  s.flow.committed.assign(s.seats.size(), 0);
  s.flow.pending.assign(s.seats.size(), Move{});
  *out = std::move(s);
  return Status::Ok();
}

}  // namespace plateau::scripting

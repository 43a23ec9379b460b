// The scenario-test VM and its assertion API (see test_runner.h).
#include "scripting/test_runner.h"

#include <dirent.h>

#include <lua.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>

#include "host/bots.h"
#include "host/files.h"
#include "host/json_io.h"
#include "host/replay.h"
#include "scripting/binding_util.h"

namespace plateau::scripting {
namespace {

struct Runner {
  LuaRules* rules = nullptr;
  // Rules loaded with data overrides (new_game{data = ...}), by their text; kept for the file.
  std::map<std::string, std::unique_ptr<LuaRules>> variants;
  std::vector<std::pair<std::string, int>> tests;  // name, registry ref of the function
  // Long loops inside host calls (play_random) never run test-VM instructions, so the budget
  // cannot see them; they check this deadline instead.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

Runner* R(lua_State* L) { return static_cast<Runner*>(lua_touserdata(L, lua_upvalueindex(1))); }

// Raises a test failure located at the test file's own line: the first frame of the file the
// test function is in (the outermost Lua frame), so a failure inside a shared helper (the
// Écosystème base's testing.lua, a game's own test module) names the line of the test that
// called it, then the helper's line.
[[noreturn]] void Fail(lua_State* L, const std::string& message) {
  lua_Debug ar;
  int first = 0, mine = 0;
  std::string first_where, test_source;
  for (int level = 1; lua_getstack(L, level, &ar); ++level) {
    lua_getinfo(L, "Sl", &ar);
    if (ar.currentline <= 0) continue;  // C functions
    if (!first) {
      first = level;
      first_where = std::string(ar.short_src) + ":" + std::to_string(ar.currentline);
    }
    test_source = ar.source;
  }
  for (int level = first; first && lua_getstack(L, level, &ar); ++level) {
    lua_getinfo(L, "Sl", &ar);
    if (ar.currentline > 0 && test_source == ar.source) {
      mine = level;
      break;
    }
  }
  luaL_where(L, mine ? mine : first ? first : 1);
  lua_pushstring(L, message.c_str());
  if (mine && mine != first) lua_pushstring(L, ("\n  (in " + first_where + ")").c_str());
  else lua_pushliteral(L, "");
  lua_concat(L, 3);
  lua_error(L);
  std::abort();
}

std::string Show(lua_State* L, int idx, int depth = 0) {
  idx = lua_absindex(L, idx);
  switch (lua_type(L, idx)) {
    case LUA_TSTRING: return std::string("\"") + lua_tostring(L, idx) + "\"";
    case LUA_TNUMBER:
    case LUA_TBOOLEAN:
    case LUA_TNIL: {
      Json j;
      std::string e;
      LuaToJson(L, idx, &j, &e);
      return j.dump();
    }
    case LUA_TTABLE: {
      Json j;
      std::string e;
      if (depth < 3 && LuaToJson(L, idx, &j, &e)) return j.dump();
      return "table";
    }
    default: return luaL_typename(L, idx);
  }
}

bool DeepEqual(lua_State* L, int a, int b, int depth = 0) {
  a = lua_absindex(L, a);
  b = lua_absindex(L, b);
  if (lua_type(L, a) != lua_type(L, b)) return false;
  if (lua_type(L, a) != LUA_TTABLE) return lua_rawequal(L, a, b);
  if (depth > 20) return false;
  // Same keys and deeply equal values, in both directions.
  for (int pass = 0; pass < 2; ++pass) {
    const int x = pass ? b : a, y = pass ? a : b;
    lua_pushnil(L);
    while (lua_next(L, x)) {
      lua_pushvalue(L, -2);
      lua_rawget(L, y);
      const bool same = pass ? !lua_isnil(L, -1) : DeepEqual(L, -1, -2, depth + 1);
      lua_pop(L, 2);
      if (!same) {
        lua_pop(L, 1);
        return false;
      }
    }
  }
  return true;
}

// ---- game handles ------------------------------------------------------------------

struct GameHandle {
  State state;
  LuaRules* rules = nullptr;  // the runner's, or a variant with data overrides
};

GameHandle* CheckGame(lua_State* L, int idx) {
  return static_cast<GameHandle*>(luaL_checkudata(L, idx, "plateau.test_game"));
}

int GameGc(lua_State* L) {
  CheckGame(L, 1)->~GameHandle();
  return 0;
}

GameHandle* PushGame(lua_State* L, LuaRules* rules) {
  auto* g = static_cast<GameHandle*>(lua_newuserdatauv(L, sizeof(GameHandle), 0));
  new (g) GameHandle();
  g->rules = rules;
  luaL_setmetatable(L, "plateau.test_game");
  return g;
}

int SeatArg(lua_State* L, int idx, const State& s) {
  if (lua_type(L, idx) == LUA_TSTRING) {
    const int seat = s.SeatIndex(lua_tostring(L, idx));
    if (seat < 0) Fail(L, std::string("no seat named '") + lua_tostring(L, idx) + "'");
    return seat;
  }
  return static_cast<int>(CheckIntRange(L, idx, 1, static_cast<lua_Integer>(s.seats.size()), "seat") - 1);
}

// A failure of the rules keeps what `plateau validate` shows for it: the hook and move, and
// the rules VM's traceback.
void CheckStatus(lua_State* L, const Status& st, const char* what) {
  if (!st.ok()) Fail(L, std::string(what) + ": " + (st.script_failure() ? st.ToString() : st.message));
}

// The rules for a game with data overrides {["<data>.<path>"] = value, ...} (the command
// line's --set <data>.<path>=value): loaded once per distinct set, checked by the schemas.
LuaRules* RulesWithData(lua_State* L, Runner* r, int idx) {
  std::vector<DataOverride> own;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_type(L, -2) != LUA_TSTRING) Fail(L, "new_game: data = {[\"<data>.<path>\"] = value, ...}");
    Json v;
    std::string error;
    if (!LuaToJson(L, -1, &v, &error)) Fail(L, std::string("new_game: data ") + lua_tostring(L, -2) + ": " + error);
    own.push_back({lua_tostring(L, -2), v});
    lua_pop(L, 1);
  }
  if (own.empty()) return r->rules;
  // Table order is not the file's order: sort, so one set of overrides is one variant. The
  // test's own values go after the command line's (--set, --set-file), so they win: a test that
  // pins a number checks the rules with that number whatever overlay the run was given.
  std::sort(own.begin(), own.end(), [](const DataOverride& a, const DataOverride& b) { return a.path < b.path; });
  std::vector<DataOverride> sets = r->rules->data_overrides();
  sets.insert(sets.end(), own.begin(), own.end());
  const std::string key = DataOverridesText(sets);
  auto it = r->variants.find(key);
  if (it != r->variants.end()) return it->second.get();
  std::unique_ptr<LuaRules> rules;
  CheckStatus(L, LuaRules::Load(r->rules->files().roots.front().folder, r->rules->runtime().limits(), sets, &rules),
              "new_game: data");
  LuaRules* out = rules.get();
  r->variants[key] = std::move(rules);
  return out;
}

// new_game{players=, seed=, params={}, data={}}
int NewGame(lua_State* L) {
  Runner* r = R(L);
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_getfield(L, 1, "players");
  const int players = static_cast<int>(FieldIntRange(L, 1, "players", 2, 1, limits::kSeats, "new_game"));
  lua_getfield(L, 1, "seed");
  const uint64_t seed = static_cast<uint64_t>(FieldIntRange(L, 1, "seed", 1, 0, INT64_MAX, "new_game"));
  Json given = Json::object();
  if (lua_getfield(L, 1, "params") == LUA_TTABLE) {
    std::string error;
    if (!LuaToJson(L, -1, &given, &error)) Fail(L, "params: " + error);
    if (given.is_array() && given.empty()) given = Json::object();
  }
  LuaRules* rules = r->rules;
  if (lua_getfield(L, 1, "data") == LUA_TTABLE) rules = RulesWithData(L, r, lua_gettop(L));
  lua_pop(L, 4);
  Json params;
  CheckStatus(L, ResolveParams(rules->info(), given, &params), "new_game");
  GameHandle* g = PushGame(L, rules);
  CheckStatus(L, rules->NewGame(params, players, seed, &g->state), "new_game");
  return 1;
}

// board{ {name=, grid={{...}}}, ..., neutral = {gazelle = 3} }
int Board(lua_State* L) {
  Runner* r = R(L);
  luaL_checktype(L, 1, LUA_TTABLE);
  std::vector<std::string> names;
  std::vector<std::vector<std::vector<std::string>>> grids;
  const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, 1));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, 1, i);
    lua_getfield(L, -1, "name");
    names.push_back(lua_isstring(L, -1) ? lua_tostring(L, -1) : "P" + std::to_string(i));
    lua_pop(L, 1);
    lua_getfield(L, -1, "grid");
    Json rows;
    std::string error;
    if (!LuaToJson(L, -1, &rows, &error) || !rows.is_array()) Fail(L, "board: player " + std::to_string(i) + " needs grid = {{...}, ...}");
    try {
      grids.push_back(rows.get<std::vector<std::vector<std::string>>>());
    } catch (const std::exception&) {
      Fail(L, "board: grid rows must be lists of card ids");
    }
    lua_pop(L, 2);
  }
  Json neutral = Json::object();
  if (lua_getfield(L, 1, "neutral") == LUA_TTABLE) {
    std::string error;
    if (!LuaToJson(L, -1, &neutral, &error)) Fail(L, "neutral: " + error);
  }
  lua_pop(L, 1);
  Json params = Json::object();
  if (lua_getfield(L, 1, "params") == LUA_TTABLE) {
    std::string error;
    if (!LuaToJson(L, -1, &params, &error)) Fail(L, "params: " + error);
    if (params.is_array() && params.empty()) params = Json::object();
  }
  lua_pop(L, 1);
  GameHandle* g = PushGame(L, r->rules);
  CheckStatus(L, r->rules->BoardState(names, grids, neutral, &g->state, params), "board");
  return 1;
}

void PushMoves(lua_State* L, const std::vector<Move>& moves, const CardSet& cards) {
  lua_createtable(L, static_cast<int>(moves.size()), 0);
  for (size_t i = 0; i < moves.size(); ++i) {
    PushMove(L, moves[i], cards);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
}

int GameMoves(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  const int seat = SeatArg(L, 2, g->state);
  std::vector<Move> moves;
  CheckStatus(L, g->rules->LegalMoves(g->state, seat, &moves), "moves");
  PushMoves(L, moves, *g->state.cards);
  return 1;
}

int GameToMove(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  std::vector<int> seats;
  CheckStatus(L, g->rules->ToMove(g->state, &seats), "to_move");
  lua_createtable(L, static_cast<int>(seats.size()), 0);
  for (size_t i = 0; i < seats.size(); ++i) {
    lua_pushinteger(L, seats[i] + 1);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

Status TryPlay(lua_State* L, GameHandle* g, int seat, int move_idx) {
  Move m;
  std::string error;
  if (!LuaToMove(L, move_idx, *g->state.cards, &m, &error)) return Status::Input(error);
  return g->rules->Apply(&g->state, seat, m);
}

int GamePlay(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  const int seat = SeatArg(L, 2, g->state);
  CheckStatus(L, TryPlay(L, g, seat, 3), "play");
  lua_settop(L, 1);
  return 1;
}

int GameTryPlay(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  const int seat = SeatArg(L, 2, g->state);
  Status st = TryPlay(L, g, seat, 3);
  lua_pushboolean(L, st.ok());
  if (st.ok()) return 1;
  lua_pushstring(L, st.message.c_str());
  lua_pushstring(L, ErrorKindName(st.kind));
  return 3;
}

// g:play_random(n, seed): plays up to n moves (to the end if n is nil) with random bots. A
// game that has not ended after 20000 moves (or by the test's time limit) fails the test.
int GamePlayRandom(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  constexpr lua_Integer kNoEnd = 20000;
  const bool to_end = lua_isnoneornil(L, 2);
  const lua_Integer limit = to_end ? kNoEnd : CheckIntRange(L, 2, 0, kNoEnd, "moves");
  Rng rng(static_cast<uint64_t>(OptIntRange(L, 3, 1, 0, INT64_MAX, "seed")));
  std::vector<int> seats;
  lua_Integer played = 0;
  while (played < limit) {
    CheckStatus(L, g->rules->ToMove(g->state, &seats), "play_random");
    if (seats.empty()) break;
    Move m;
    CheckStatus(L, g->rules->RandomMove(g->state, seats.front(), &rng, &m), "play_random");
    CheckStatus(L, g->rules->Apply(&g->state, seats.front(), m), "play_random");
    ++played;
    if ((played & 63) == 0 && std::chrono::steady_clock::now() > R(L)->deadline)
      Fail(L, "play_random: the test ran past its time limit after " + std::to_string(played) + " moves (does the game end?)");
  }
  if (to_end && played >= kNoEnd) Fail(L, "play_random: the game did not end within " + std::to_string(kNoEnd) + " moves");
  lua_pushinteger(L, played);
  return 1;
}

void PushScores(lua_State* L, const ScoreTable& t) {
  lua_createtable(L, static_cast<int>(t.lines.size()), 0);
  for (const auto& line : t.lines) {
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, line.seat + 1);
    lua_setfield(L, -2, "seat");
    lua_pushstring(L, line.name.c_str());
    lua_setfield(L, -2, "name");
    lua_pushinteger(L, line.total);
    lua_setfield(L, -2, "total");
    lua_createtable(L, 0, static_cast<int>(line.breakdown.size()));
    for (const auto& [k, v] : line.breakdown) {
      lua_pushinteger(L, v);
      lua_setfield(L, -2, k.c_str());
    }
    lua_setfield(L, -2, "breakdown");
    lua_rawseti(L, -2, line.seat + 1);
  }
  PushJson(L, t.extra);
  lua_setfield(L, -2, "extra");
}

// g:score([{explain = true}]): the score table; with explain, scored as `plateau score
// --explain` scores it (ctx.explain set for this call only), so the extra's "explain" says how
// each row was scored: a failing scenario test can show what each rule counted.
int GameScore(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  bool explain = false;
  if (!lua_isnoneornil(L, 2)) {
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_getfield(L, 2, "explain");
    explain = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  ScoreTable t;
  g->rules->SetExplain(explain);
  const Status st = g->rules->Score(g->state, &t);
  g->rules->SetExplain(false);
  CheckStatus(L, st, "score");
  PushScores(L, t);
  return 1;
}

// g:describe(seat, move) -> text, group, picture: the game's describe hook on this state; the
// group is a list of labels, outermost first (empty when the hook gives none), the picture a
// string ("" when none).
int GameDescribe(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  const int seat = SeatArg(L, 2, g->state);
  Move m;
  std::string error;
  if (!LuaToMove(L, 3, *g->state.cards, &m, &error)) Fail(L, "describe: " + error);
  std::string text;
  std::vector<std::string> group;
  std::string picture;
  CheckStatus(L, g->rules->Describe(g->state, seat, m, &text, &group, &picture), "describe");
  lua_pushstring(L, text.c_str());
  lua_createtable(L, static_cast<int>(group.size()), 0);
  for (size_t i = 0; i < group.size(); ++i) {
    lua_pushlstring(L, group[i].data(), group[i].size());
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_pushlstring(L, picture.data(), picture.size());
  return 3;
}

// g:evaluate(seat, [options]) -> the game's evaluation of this state for the seat, as a bot
// with those options ({knowledge = 1}) sees it.
int GameEvaluate(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  const int seat = SeatArg(L, 2, g->state);
  std::vector<std::pair<std::string, double>> options;
  if (!lua_isnoneornil(L, 3)) {
    luaL_checktype(L, 3, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, 3)) {
      if (lua_type(L, -2) != LUA_TSTRING || !lua_isnumber(L, -1)) Fail(L, "evaluate: options are {name = number}");
      options.emplace_back(lua_tostring(L, -2), lua_tonumber(L, -1));
      lua_pop(L, 1);
    }
    std::sort(options.begin(), options.end());
  }
  double v = 0;
  CheckStatus(L, g->rules->EvaluateWith(g->state, seat, options, &v), "evaluate");
  lua_pushnumber(L, v);
  return 1;
}

// The game's stats hook on this state, as simulate sees it at the end of a game.
int GameStats(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  Json j;
  CheckStatus(L, g->rules->Stats(g->state, &j), "stats");
  PushJson(L, j);
  return 1;
}

int GameHash(lua_State* L) {
  lua_pushstring(L, CheckGame(L, 1)->state.Hash().c_str());
  return 1;
}

// Rows of card ids of a seat's grid, top row first; face-down cards read "(id)".
int GameGrid(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  const int seat = SeatArg(L, 2, g->state);
  const Grid* grid = g->state.FindGrid(State::Key(luaL_optstring(L, 3, "grid"), seat));
  if (!grid) Fail(L, "that seat has no grid");
  const Bounds& b = grid->bounds();
  lua_newtable(L);
  if (grid->count() == 0) return 1;
  for (int r = b.min_row; r <= b.max_row; ++r) {
    lua_newtable(L);
    for (int c = b.min_col; c <= b.max_col; ++c) {
      const Cell* cell = grid->Get(r, c);
      if (!cell || cell->empty()) lua_pushboolean(L, 0);
      else {
        std::string name = g->state.CardName(cell->item);
        if (cell->face_down) name = "(" + name + ")";
        lua_pushstring(L, name.c_str());
      }
      lua_rawseti(L, -2, c - b.min_col + 1);
    }
    lua_rawseti(L, -2, r - b.min_row + 1);
  }
  return 1;
}

int GameZone(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  const char* name = luaL_checkstring(L, 2);
  const int owner = lua_isnoneornil(L, 3) ? -1 : SeatArg(L, 3, g->state);
  const Zone* z = g->state.FindZone(name, owner);
  if (!z) Fail(L, "no zone '" + State::Key(name, owner) + "'");
  lua_createtable(L, static_cast<int>(z->cards.size()), 0);
  for (size_t i = 0; i < z->cards.size(); ++i) {
    lua_pushstring(L, g->state.CardName(z->cards[i]).c_str());
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

// g:force_dice("2d6", 7): the next roll of that notation gives that total.
int GameForceDice(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  std::string error;
  if (!g->state.dice.Force(luaL_checkstring(L, 2), static_cast<int>(CheckIntRange(L, 3, INT32_MIN, INT32_MAX, "die result")), &error)) Fail(L, error);
  lua_settop(L, 1);
  return 1;
}

// g:force_deck("deck", {"a", "b"}, [seat]): those cards are drawn next, in that order.
int GameForceDeck(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  const char* name = luaL_checkstring(L, 2);
  luaL_checktype(L, 3, LUA_TTABLE);
  const int owner = lua_isnoneornil(L, 4) ? -1 : SeatArg(L, 4, g->state);
  Zone* z = g->state.FindZone(name, owner);
  if (!z) Fail(L, std::string("no zone '") + name + "'");
  const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, 3));
  // Take each named card out of the zone (it must be there) and stack them on top.
  std::vector<CardId> top;
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, 3, i);
    const CardId c = g->state.cards->Find(luaL_checkstring(L, -1));
    lua_pop(L, 1);
    if (c == kNoCard || !RemoveCard(z, c)) Fail(L, "force_deck: card #" + std::to_string(i) + " is not in '" + name + "'");
    top.push_back(c);
  }
  for (auto it = top.rbegin(); it != top.rend(); ++it) z->cards.push_back(*it);
  g->state.Touch();
  lua_settop(L, 1);
  return 1;
}

// g:set_zone(name, seat|nil, {ids...}): the zone now holds exactly these cards, bottom to top
// (a hand or a deck described compactly; the cards need not come from anywhere).
int GameSetZone(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  const char* name = luaL_checkstring(L, 2);
  const int owner = lua_isnoneornil(L, 3) ? -1 : SeatArg(L, 3, g->state);
  luaL_checktype(L, 4, LUA_TTABLE);
  Zone* z = g->state.FindZone(name, owner);
  if (!z) Fail(L, "no zone '" + State::Key(name, owner) + "'");
  std::vector<CardId> cards;
  const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, 4));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, 4, i);
    const CardId c = g->state.cards->Find(luaL_checkstring(L, -1));
    if (c == kNoCard) Fail(L, std::string("set_zone: unknown card '") + lua_tostring(L, -1) + "'" + g->state.cards->Suggest(lua_tostring(L, -1)));
    cards.push_back(c);
    lua_pop(L, 1);
  }
  z->cards = std::move(cards);
  g->state.Touch();
  lua_settop(L, 1);
  return 1;
}

int GameData(lua_State* L) {
  PushJson(L, CheckGame(L, 1)->state.data);
  return 1;
}

// g:set_data(key, value): state.data[key] = value (a position described compactly: the
// tiles left in a bag, a player's markers), checked like any value stored in state.data.
int GameSetData(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  const char* key = luaL_checkstring(L, 2);
  Json value;
  std::string error;
  if (!LuaToJson(L, 3, &value, &error)) Fail(L, std::string("set_data: ") + error);
  g->state.data[key] = std::move(value);
  g->state.Touch();
  lua_settop(L, 1);
  return 1;
}

// g:tile_map(name) -> {tiles = {{row, col, tile, rotation}...}, features = {{id, kind,
// complete, open_edges, open_ends, empty_inside, tally, occupants, tiles}...}}: the map as the
// host holds it.
int GameTileMap(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  const char* name = luaL_checkstring(L, 2);
  auto it = g->state.tile_maps.find(name);
  if (it == g->state.tile_maps.end()) Fail(L, std::string("no tile map '") + name + "'");
  const TileMap& m = it->second;
  Json out = {{"tiles", m.ToJson()["tiles"]}, {"features", Json::array()}};
  for (int root : m.Features(-1)) {
    const TileMap::FeatureInfo f = m.Feature(root);
    Json occ = Json::object();
    for (const auto& [owner, n] : f.occupants)
      if (n) occ[std::to_string(owner + 1)] = n;
    Json tiles = Json::array();
    for (const Coord& c : f.tiles) tiles.push_back({c.row, c.col});
    out["features"].push_back({{"id", f.id + 1}, {"kind", f.kind}, {"complete", f.complete}, {"open_edges", f.open_edges},
                               {"open_ends", f.open_ends}, {"empty_inside", f.empty_inside}, {"tally", f.tally}, {"occupants", occ}, {"tiles", tiles}});
  }
  PushJson(L, out);
  return 1;
}

int GameView(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  const int seat = lua_isnoneornil(L, 2) ? -1 : SeatArg(L, 2, g->state);
  lua_pushstring(L, g->rules->View(g->state, seat).c_str());
  return 1;
}

int GameSave(lua_State* L) {
  lua_pushstring(L, DumpJson(CheckGame(L, 1)->state.ToJson()).c_str());
  return 1;
}

int LoadGame(lua_State* L) {
  Runner* r = R(L);
  Json j;
  std::string error;
  if (!ParseJsonLimited(luaL_checkstring(L, 1), "save", &j, &error)) Fail(L, error);
  GameHandle* g = PushGame(L, r->rules);
  if (!State::FromJson(j, r->rules->files().cards, &g->state, &error, r->rules->files().tiles, r->rules->files().regions)) Fail(L, error);
  if (g->state.game_id != r->rules->info().id)
    Fail(L, "load_game: at /game: a saved '" + g->state.game_id + "' game, not '" + r->rules->info().id + "'");
  // A save `plateau play` wrote under these very rules is rebuilt from its seed and moves, as
  // `play --load` does. A test's own g:save() records no rules fingerprint, since tests build
  // tables by hand (set_data); those, and saves from other rules, are checked for players and
  // parameters only.
  CheckStatus(L, CheckSave(*r->rules, g->state, SaveRebuildable(j, g->state, r->rules->fingerprint())), "load_game");
  return 1;
}

int GameIndex(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  const char* key = luaL_checkstring(L, 2);
  if (std::strcmp(key, "phase") == 0) lua_pushstring(L, g->state.flow.phase.c_str());
  else if (std::strcmp(key, "move_count") == 0) lua_pushinteger(L, g->state.move_count);
  else if (std::strcmp(key, "player_count") == 0) lua_pushinteger(L, g->state.player_count);
  else if (lua_getfield(L, lua_upvalueindex(2), key) == LUA_TNIL) return luaL_error(L, "game has no field '%s'", key);
  return 1;
}

// ---- assertions --------------------------------------------------------------------

int Test(lua_State* L) {
  const char* name = luaL_checkstring(L, 1);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 2);
  R(L)->tests.emplace_back(name, luaL_ref(L, LUA_REGISTRYINDEX));
  return 0;
}

std::string Label(lua_State* L, int idx) {
  return lua_isstring(L, idx) ? std::string(lua_tostring(L, idx)) + ": " : "";
}

int ExpectEq(lua_State* L) {
  luaL_checkany(L, 2);
  if (!DeepEqual(L, 1, 2)) Fail(L, Label(L, 3) + "expected " + Show(L, 2) + ", got " + Show(L, 1));
  return 0;
}

int ExpectTrue(lua_State* L) {
  if (!lua_toboolean(L, 1)) Fail(L, Label(L, 2) + "expected a true value, got " + Show(L, 1));
  return 0;
}

int ExpectError(lua_State* L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_pushvalue(L, 1);
  if (lua_pcall(L, 0, 0, 0) == LUA_OK) Fail(L, "expected an error, but the function returned");
  const std::string msg = lua_tostring(L, -1) ? lua_tostring(L, -1) : "";
  if (lua_isstring(L, 2) && msg.find(lua_tostring(L, 2)) == std::string::npos)
    Fail(L, "expected an error containing \"" + std::string(lua_tostring(L, 2)) + "\", got \"" + msg + "\"");
  return 0;
}

// expect_score(game, who, total, [breakdown])
int ExpectScore(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  const int seat = SeatArg(L, 2, g->state);
  const lua_Integer total = CheckIntRange(L, 3, -limits::kScore, limits::kScore, "total");
  ScoreTable t;
  CheckStatus(L, g->rules->Score(g->state, &t), "score");
  const ScoreLine* line = nullptr;
  for (const auto& l : t.lines)
    if (l.seat == seat) line = &l;
  if (!line) Fail(L, "no score for seat " + std::to_string(seat + 1));
  std::string diffs;
  if (lua_istable(L, 4)) {
    lua_pushnil(L);
    while (lua_next(L, 4)) {
      const std::string key = lua_tostring(L, -2);
      int64_t got = 0;
      bool found = false;
      for (const auto& [k, v] : line->breakdown)
        if (k == key) { got = v; found = true; }
      if (!found || got != lua_tointeger(L, -1))
        diffs += "\n  " + key + ": expected " + std::to_string(lua_tointeger(L, -1)) + ", got " +
                 (found ? std::to_string(got) : "nothing");
      lua_pop(L, 1);
    }
  }
  if (line->total != total || !diffs.empty()) {
    std::string all;
    for (const auto& [k, v] : line->breakdown) all += " " + k + "=" + std::to_string(v);
    Fail(L, line->name + ": expected total " + std::to_string(total) + ", got " + std::to_string(line->total) + diffs +
                "\n  breakdown:" + all);
  }
  return 0;
}

// expect_illegal(game, seat, move, [text]): refused as illegal, state unchanged.
int ExpectIllegal(lua_State* L) {
  GameHandle* g = CheckGame(L, 1);
  const int seat = SeatArg(L, 2, g->state);
  const std::string before = g->state.Hash();
  Status st = TryPlay(L, g, seat, 3);
  if (st.ok()) Fail(L, "expected the move " + Show(L, 3) + " to be refused, but it was played");
  if (st.kind != ErrorKind::kIllegal)
    Fail(L, "expected an illegal-move refusal, got " + std::string(ErrorKindName(st.kind)) + ": " + st.message);
  if (g->state.Hash() != before) Fail(L, "the refused move changed the state");
  if (lua_isstring(L, 4) && st.message.find(lua_tostring(L, 4)) == std::string::npos)
    Fail(L, "expected the refusal to mention \"" + std::string(lua_tostring(L, 4)) + "\", got \"" + st.message + "\"");
  return 0;
}

}  // namespace

std::vector<std::string> ScenarioFiles(const std::string& game_folder) {
  std::vector<std::string> files;
  ListOptions o;
  o.max_depth = 1;
  o.enter = [](const std::string& rel) { return rel == "tests"; };
  std::vector<FolderEntry> entries;
  ListGameFiles(game_folder, GameFolderDisplay(game_folder), o, &entries);
  // Links and FIFOs are listed too: reading them is refused by name, never skipped in silence.
  for (const auto& e : entries)
    if (e.rel.rfind("tests/", 0) == 0 && e.rel.find('/', 6) == std::string::npos && e.rel.size() > 10 &&
        e.rel.compare(e.rel.size() - 4, 4, ".lua") == 0)
      files.push_back(game_folder + "/" + e.rel);
  return files;
}

Status RunScenarioFile(LuaRules& rules, const std::string& path, std::vector<TestResult>* results,
                       const std::function<void(Runtime&)>& inspect) {
  std::string text, error;
  // Chunk names follow the games/<id>/... convention of rule scripts.
  std::string display = path;
  const std::string folder = rules.info().folder;
  if (path.rfind(folder + "/", 0) == 0) {
    // A test file in the game's folder is the game's, read as its other files are.
    const std::string& shown = rules.files().roots.front().display;
    display = shown + path.substr(folder.size());
    if (!ReadGameFile(folder, shown, path.substr(folder.size() + 1), 1u << 20, &text, &error)) return Status::Input(error);
  } else if (!ReadTextFile(path, 1u << 20, &text, &error)) {
    return Status::Input(error);
  }
  Limits limits;
  limits.call_instructions = 200'000'000;
  // A test's call lasts as long as the games it plays through the rules (each of those calls
  // has its own budget), so its backstop is a fixed 10 s rather than one scaled to 200 M.
  limits.wall_backstop_ms = 10'000;
  Runtime rt(limits);
  // Tests require() from the same folders as the rules (the game's, then its bases'), so a
  // base can share test helpers with the games that extend it.
  std::vector<Runtime::SourceRoot> roots;
  for (const auto& r : rules.files().roots) roots.push_back({r.folder, r.display});
  rt.set_source_roots(std::move(roots));
  Runner runner;
  runner.rules = &rules;
  lua_State* L = rt.L();
  rt.set_log([](const std::string& line) { std::printf("  [log] %s\n", line.c_str()); });

  static const luaL_Reg game_methods[] = {
      {"moves", GameMoves},   {"to_move", GameToMove}, {"play", GamePlay},   {"try_play", GameTryPlay},
      {"play_random", GamePlayRandom}, {"score", GameScore}, {"stats", GameStats}, {"describe", GameDescribe}, {"evaluate", GameEvaluate}, {"hash", GameHash}, {"grid", GameGrid},
      {"zone", GameZone},     {"force_dice", GameForceDice}, {"force_deck", GameForceDeck},
      {"data", GameData},     {"view", GameView},      {"save", GameSave},   {"set_zone", GameSetZone},
      {"set_data", GameSetData}, {"tile_map", GameTileMap},
      {nullptr, nullptr}};
  luaL_newmetatable(L, "plateau.test_game");
  lua_pushcfunction(L, GameGc);
  lua_setfield(L, -2, "__gc");
  lua_pushlightuserdata(L, &runner);
  lua_newtable(L);
  for (const luaL_Reg* r = game_methods; r->name; ++r) {
    lua_pushlightuserdata(L, &runner);
    lua_pushcclosure(L, r->func, 1);
    lua_setfield(L, -2, r->name);
  }
  lua_pushcclosure(L, GameIndex, 2);
  lua_setfield(L, -2, "__index");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);

  // The assertion API lives in the sandbox environment of this VM only.
  static const luaL_Reg api[] = {{"test", Test},           {"expect_eq", ExpectEq},     {"expect_true", ExpectTrue},
                                 {"expect_error", ExpectError}, {"expect_score", ExpectScore},
                                 {"expect_illegal", ExpectIllegal}, {"new_game", NewGame}, {"board", Board},
                                 {"load_game", LoadGame}, {nullptr, nullptr}};
  rt.PushEnv();
  for (const luaL_Reg* r = api; r->name; ++r) {
    lua_pushstring(L, r->name);
    lua_pushlightuserdata(L, &runner);
    lua_pushcclosure(L, r->func, 1);
    lua_rawset(L, -3);
  }
  lua_pop(L, 1);
  if (inspect) inspect(rt);

  Status st = rt.Compile(text, display);
  if (!st.ok()) return st;
  st = rt.Call(0, 0, "load " + display, true);
  if (!st.ok()) return st;
  if (runner.tests.empty()) return Status::Input(display + ": no test() registered");
  for (const auto& [name, ref] : runner.tests) {
    runner.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    Status t = rt.Call(0, 0, "test '" + name + "'");
    TestResult r{display, name, t.ok(), t.ok() ? "" : t.message};
    // A hook the test needed was skipped (LuaRules::set_skip_after_backstop): the test did not
    // fail on its own account.
    r.skipped = !t.ok() && t.message.find("skipped: hook '") != std::string::npos &&
                t.message.find("already ran past the wall-clock backstop") != std::string::npos;
    if (!t.ok() && t.kind != ErrorKind::kScript) r.message = std::string(ErrorKindName(t.kind)) + ": " + t.message;
    results->push_back(std::move(r));
    luaL_unref(L, LUA_REGISTRYINDEX, ref);
  }
  return Status::Ok();
}

}  // namespace plateau::scripting

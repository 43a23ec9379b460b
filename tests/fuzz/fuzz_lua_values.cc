// fuzz_lua_values: the conversions between Lua values and host values (scripting/bindings.h).
//
// Feeds: one value made by a script in a fresh sandboxed VM whose `state` binding is live and
// writable (as in a move handler) and whose `ctx` is a frozen table. The first input byte picks
// how the value is made:
//   0..127   a Lua expression decoded from the rest of the input by LuaGen (lua_gen.h): integer
//            and float edges, NaN and infinities, non-UTF-8 strings, lists with holes, mixed,
//            deep and cyclic tables, functions, coroutines, metatables, data handles, frozen
//            tables, move-shaped tables;
//   128..191 the rest of the input is Lua source, run as a chunk `local state, ctx = ...; <input>`
//            whose first result is the value (the corpus has snippets: corpus/fuzz_lua_values/*.lua
//            prefixed with this byte);
//   192..255 the rest of the input is JSON text (read under the host's JSON limits), pushed into
//            Lua with PushJson and PushFrozenJson and read back.
// Runs: LuaToJson, PushJson, PushFrozenJson, LuaToMove, PushMove, MoveToJson, MoveFromJson, the
// state.data write path (`state.data.v = value`) with the undo journal of a scripted move, and
// StateUndo::Restore.
// Checks (Finding() aborts): a value LuaToJson accepts comes back equal through PushJson and
// through PushFrozenJson; a move LuaToMove accepts survives MoveToJson/MoveFromJson and
// PushMove/LuaToMove unchanged; what `state.data.v = value` stored reads back equal to what the
// script sees; and after the journal restores the state, its hash is the hash it had before the
// script ran, whatever the script did or however it failed.
#include <lua.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "host/json_io.h"
#include "scripting/bindings.h"
#include "scripting/runtime.h"
#include "tests/fuzz/fuzz_util.h"
#include "tests/fuzz/lua_gen.h"

namespace plateau::fuzz {
namespace {

using scripting::Binding;
using scripting::Runtime;

const std::vector<std::string> kCards = {"fox", "hen", "tree", "pond", "c\xc3\xa9pe"};

std::shared_ptr<CardSet> Cards() {
  static const std::shared_ptr<CardSet> set = [] {
    auto s = std::make_shared<CardSet>();
    for (const auto& c : kCards) s->Intern(c);
    return s;
  }();
  return set;
}

// A small state with something in every part the data bindings reach.
State MakeState() {
  State s;
  s.game_id = "fuzz";
  s.cards = Cards();
  s.seats = {{"P1", "player"}, {"P2", "player"}, {"Magpie", "neutral"}};
  s.player_count = 2;
  s.params = {{"deal", 5}, {"mode", "x"}};
  s.data = Json::parse(R"({"v": 1, "list": [1, 2, 3], "obj": {"a": {"b": [true, "s", 2.5]}}, "empty": {}})");
  s.flow.phase = "play";
  s.flow.committed.assign(s.seats.size(), 0);
  s.flow.pending.assign(s.seats.size(), Move{});
  s.flow.asks.assign(s.seats.size(), {});
  s.AddZone("deck", -1, Visibility::kHidden)->cards = {0, 1, 2, 3};
  return s;
}

const Json& CtxJson() {
  static const Json ctx = Json::parse(R"({
    "data": {"cards": {"cards": [{"id": "fox", "count": 3}, {"id": "hen", "count": 2}], "$file": "games/fuzz/data/cards.json"}},
    "params": {"deal": 5, "mode": "x", "ratio": 0.5, "list": [1, [2, [3]]]},
    "game_id": "fuzz"})");
  return ctx;
}

// Runs `fn` inside a protected, budgeted call of a C closure whose upvalue 1 is the binding, as
// every binding runs (B(L) in scripting/binding_util.h): the `nargs` values on the stack are its
// arguments 1..nargs, and what it leaves on top is the one result. False when the call failed
// (the memory cap refused a copy, for one).
using InBinding = std::function<void(lua_State*)>;
int InBindingThunk(lua_State* L) {
  (*static_cast<InBinding*>(lua_touserdata(L, lua_upvalueindex(2))))(L);
  return 1;
}
bool RunInBinding(Runtime& rt, Binding* binding, int nargs, InBinding fn) {
  lua_State* L = rt.L();
  lua_pushlightuserdata(L, binding);
  lua_pushlightuserdata(L, &fn);
  lua_pushcclosure(L, InBindingThunk, 2);
  lua_insert(L, -1 - nargs);
  return rt.Call(nargs, 1, "moves.fuzz").ok();
}

// What PushFrozenJson keeps of j: it drops the loader's annotations "$schema_name" and
// "$cards_key" by design.
Json FrozenView(const Json& j) {
  if (j.is_array()) {
    Json out = Json::array();
    for (const auto& v : j) out.push_back(FrozenView(v));
    return out;
  }
  if (!j.is_object()) return j;
  Json out = Json::object();
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "$schema_name" || it.key() == "$cards_key") continue;
    out[it.key()] = FrozenView(*it);
  }
  return out;
}

// The conversions, run where the bindings run them. The value is argument 1.
void CheckConversions(lua_State* L, bool check_value) {
  Json j;
  std::string error;
  if (scripting::LuaToJson(L, 1, &j, &error)) {
    // Lua -> JSON -> Lua -> JSON gives the same JSON, plain or frozen.
    (void)DumpJson(j);
    scripting::PushJson(L, j);
    Json back;
    if (check_value && scripting::LuaToJson(L, -1, &back, &error) && back != j)
      Finding("PushJson then LuaToJson changed " + DumpJson(j).substr(0, 300) + " into " + DumpJson(back).substr(0, 300));
    lua_pop(L, 1);
    scripting::PushFrozenJson(L, j);
    const Json kept = FrozenView(j);
    if (check_value && scripting::LuaToJson(L, -1, &back, &error) && back != kept)
      Finding("PushFrozenJson then LuaToJson changed " + DumpJson(kept).substr(0, 300) + " into " + DumpJson(back).substr(0, 300));
    lua_pop(L, 1);
  }
  Move m;
  if (scripting::LuaToMove(L, 1, *Cards(), &m, &error)) {
    const Json mj = MoveToJson(m, *Cards());
    (void)MoveToString(m, *Cards());
    Move back;
    if (!MoveFromJson(mj, *Cards(), &back, &error))
      Finding("a move LuaToMove accepted is refused by MoveFromJson (" + error + "): " + DumpJson(mj).substr(0, 300));
    if (!(back == m)) Finding("MoveToJson/MoveFromJson changed a move: " + DumpJson(mj).substr(0, 300));
    scripting::PushMove(L, m, *Cards());
    Move again;
    if (!scripting::LuaToMove(L, -1, *Cards(), &again, &error))
      Finding("a move pushed by PushMove is refused by LuaToMove (" + error + "): " + DumpJson(mj).substr(0, 300));
    if (!(again == m)) Finding("PushMove/LuaToMove changed a move: " + DumpJson(mj).substr(0, 300));
    lua_pop(L, 1);
  }
  lua_pushnil(L);
}

void Run(const uint8_t* data, size_t size) {
  if (size == 0) return;
  const uint8_t mode = data[0];
  ++data;
  --size;
  State state = MakeState();
  const std::string hash0 = state.Hash();
  StateUndo undo;
  undo.Begin(state);
  Runtime rt(FuzzLimits());
  lua_State* L = rt.L();
  Binding binding;
  binding.state = &state;
  binding.writable = true;
  binding.hook = "moves.fuzz";
  binding.cards = Cards().get();
  binding.undo = &undo;
  scripting::OpenBindings(L, &binding);

  auto restore_and_check = [&](const char* when) {
    undo.Restore(&state);
    ++binding.epoch;
    if (state.Hash() != hash0)
      Finding(std::string("StateUndo::Restore did not put the state back ") + when + ": " +
              DumpJson(state.ToJson()).substr(0, 400));
  };

  if (mode >= 192) {
    // JSON text: the host's reading, then into Lua (plain and frozen) and back.
    Json j;
    std::string error;
    if (!ParseJsonLimited(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json", &j, &error)) return;
    for (bool frozen : {false, true}) {
      if (!RunInBinding(rt, &binding, 0, [&](lua_State* L) {
            if (frozen) scripting::PushFrozenJson(L, j);
            else scripting::PushJson(L, j);
          }))
        continue;
      (void)RunInBinding(rt, &binding, 1, [&](lua_State* L) { CheckConversions(L, true); });
      lua_settop(L, 0);
    }
    return;
  }

  std::string source = "local state, ctx = ...\n";
  if (mode < 128) {
    FuzzedDataProvider in(data, size);
    LuaGen gen(&in, {"fox", "hen", "tree", "v", "list", "obj", "empty", "Magpie"}, true, true);
    source += "return " + gen.Value(4) + "\n";
  } else {
    source.append(reinterpret_cast<const char*>(data), size);
  }
  if (std::getenv("PLATEAU_FUZZ_PRINT")) std::fprintf(stderr, "---- value.lua\n%s----\n", source.c_str());
  if (!rt.Compile(source, "games/fuzz/value.lua").ok()) return;
  scripting::PushState(L);
  if (!RunInBinding(rt, &binding, 0, [](lua_State* L) { scripting::PushFrozenJson(L, CtxJson()); })) {
    lua_settop(L, 0);
    return;
  }
  Status st = rt.Call(2, 1, "moves.fuzz");
  ++binding.epoch;
  if (!st.ok()) {
    restore_and_check("after a failed script");
    return;
  }
  const int value = lua_gettop(L);

  // Converted where the bindings convert (storing, listing moves)...
  lua_pushvalue(L, value);
  (void)RunInBinding(rt, &binding, 1, [](lua_State* L) { CheckConversions(L, true); });
  lua_settop(L, value);
  // ...and where the host converts a hook's results, after the call (LuaRules::CallHook has put
  // the binding back: no state): a data handle is refused there, never followed.
  binding.state = nullptr;
  {
    Json j;
    std::string error;
    (void)scripting::LuaToJson(L, value, &j, &error);
    Move m;
    (void)scripting::LuaToMove(L, value, *Cards(), &m, &error);
  }
  binding.state = &state;
  Json j;
  std::string error;
  bool converted = false;
  lua_pushvalue(L, value);
  (void)RunInBinding(rt, &binding, 1, [&](lua_State* L) {
    converted = scripting::LuaToJson(L, 1, &j, &error);
    lua_pushnil(L);
  });
  lua_settop(L, value);

  // state.data.v = value, read back through the handle.
  static const char* kWrite = "local state, v = ...\nstate.data.v = v\nreturn state.data.v\n";
  if (rt.Compile(kWrite, "games/fuzz/write.lua").ok()) {
    scripting::PushState(L);
    lua_pushvalue(L, value);
    st = rt.Call(2, 1, "moves.fuzz");
    ++binding.epoch;
    if (st.ok()) {
      Json stored = state.data.is_object() && state.data.contains("v") ? state.data["v"] : Json();
      Json read;
      bool read_ok = false;
      (void)RunInBinding(rt, &binding, 1, [&](lua_State* L) {
        read_ok = scripting::LuaToJson(L, 1, &read, &error);
        lua_pushnil(L);
      });
      if (read_ok && read != stored)
        Finding("state.data.v reads back " + DumpJson(read).substr(0, 300) + " but holds " + DumpJson(stored).substr(0, 300));
      // A value that converts is stored as that value (a handle or a frozen table as a copy).
      if (converted && stored != j)
        Finding("state.data.v = value stored " + DumpJson(stored).substr(0, 300) + ", the value converts to " +
                DumpJson(j).substr(0, 300));
      (void)DumpJson(state.ToJson());
    }
  }
  lua_settop(L, 0);
  restore_and_check("after the script and the write");
}

}  // namespace
}  // namespace plateau::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  plateau::fuzz::Run(data, size);
  return 0;
}

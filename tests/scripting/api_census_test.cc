// The Lua API spec against the bindings (issue 18): every function the bindings register is in
// scripting/api/lua_api.json and every function of the spec is registered, so the reference
// and the editor stubs generated from it name no undocumented and no phantom API. The test walks
// what scripts are handed, in the VMs the host builds: ctx and its rng and dice tables, the
// state object's methods, every metatable the bindings register for a handle or value, the
// sandbox's globals and library fields, the scenario-test globals and game methods, and the
// game table's hooks (from the shape check's list of known fields). Fields served by an index
// function (state.player_count, g.phase) cannot be listed: the spec's are read to check they
// exist.
#include <gtest/gtest.h>

#include <lua.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <regex>
#include <set>
#include <sstream>

#include "host/home.h"
#include "scripting/api/api_spec.h"
#include "scripting/bindings.h"
#include "scripting/lua_rules.h"
#include "scripting/runtime.h"
#include "scripting/test_runner.h"

namespace plateau::scripting {
namespace {

namespace fs = std::filesystem;
using Names = std::set<std::string>;

std::string GamePath(const std::string& name) { return std::string(PLATEAU_TEST_DATA) + "/games/" + name; }

const api::Spec& TheSpec() {
  static const api::Spec spec = [] {
    api::Spec s;
    std::vector<std::string> errors;
    const bool ok = api::LoadSpec(PlateauHome(), &s, &errors);
    std::string all;
    for (const auto& e : errors) all += e + "\n";
    EXPECT_TRUE(ok) << all;
    return s;
  }();
  return spec;
}

const api::Class& SpecClass(const std::string& name) {
  const api::Class* c = TheSpec().Find(name);
  if (!c) ADD_FAILURE() << "the spec has no class " << name;
  static const api::Class empty;
  return c ? *c : empty;
}

Names SpecFunctions(const std::string& cls) {
  Names out;
  for (const auto& f : SpecClass(cls).functions) out.insert(f.name);
  return out;
}

Names SpecFields(const std::string& cls) {
  Names out;
  for (const auto& f : SpecClass(cls).fields) out.insert(f.name);
  return out;
}

// The table a read-only proxy stands for (MakeReadOnly keeps it as the metatable's __index),
// or the value itself: pushes it.
void PushUnproxied(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  if (lua_getmetatable(L, idx)) {
    lua_pushliteral(L, "__plateau_frozen");
    const bool frozen = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 1);
    if (frozen) {
      lua_pushliteral(L, "__index");
      lua_rawget(L, -2);
      lua_remove(L, -2);
      return;
    }
    lua_pop(L, 1);
  }
  lua_pushvalue(L, idx);
}

// The string keys of the table at idx whose values are (or are not) functions.
Names Keys(lua_State* L, int idx, bool functions) {
  Names out;
  idx = lua_absindex(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_type(L, -2) == LUA_TSTRING && (lua_type(L, -1) == LUA_TFUNCTION) == functions) out.insert(lua_tostring(L, -2));
    lua_pop(L, 1);
  }
  return out;
}

// The methods of a handle: its metatable's __index table, or upvalue `up` of an __index function
// (state, test games: the methods come first, then fields).
Names Methods(lua_State* L, const std::string& metatable, int up = 0) {
  const int top = lua_gettop(L);
  Names out;
  if (luaL_getmetatable(L, metatable.c_str()) != LUA_TTABLE) {
    ADD_FAILURE() << "no metatable " << metatable << " is registered";
  } else {
    lua_getfield(L, -1, "__index");
    if (up && lua_iscfunction(L, -1)) lua_getupvalue(L, -1, up);
    if (lua_istable(L, -1)) out = Keys(L, -1, true);
  }
  lua_settop(L, top);
  return out;
}

// Every metatable the VM's registry holds for script-visible values ("plateau.*" tables that
// seal their metatable with __metatable).
Names ScriptMetatables(lua_State* L) {
  Names out;
  lua_pushnil(L);
  while (lua_next(L, LUA_REGISTRYINDEX)) {
    if (lua_type(L, -2) == LUA_TSTRING && lua_istable(L, -1)) {
      const std::string key = lua_tostring(L, -2);
      lua_pushliteral(L, "__metatable");
      if (key.rfind("plateau.", 0) == 0 && lua_rawget(L, -2) != LUA_TNIL) out.insert(key);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  return out;
}

std::string Show(const Names& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "(none)" : out;
}

// Registered and spec'd must be the same names; `what` says where they were found.
void ExpectSame(const Names& registered, const Names& spec, const std::string& what) {
  Names undocumented, phantom;
  for (const auto& n : registered)
    if (!spec.count(n)) undocumented.insert(n);
  for (const auto& n : spec)
    if (!registered.count(n)) phantom.insert(n);
  EXPECT_TRUE(undocumented.empty()) << what << ": registered but not in scripting/api/lua_api.json: " << Show(undocumented);
  EXPECT_TRUE(phantom.empty()) << what << ": in scripting/api/lua_api.json but not registered: " << Show(phantom);
}

TEST(ApiCensus, SpecLoads) {
  EXPECT_FALSE(TheSpec().classes.empty());
}

// ctx, ctx.rng, ctx.dice as a loaded game's hooks get them.
TEST(ApiCensus, CtxMatchesTheSpec) {
  std::unique_ptr<LuaRules> rules;
  Status st = LuaRules::Load(GamePath("api-examples"), {}, &rules);
  ASSERT_TRUE(st.ok()) << st.message;
  lua_State* L = rules->runtime().L();
  rules->PushContext();
  PushUnproxied(L, -1);
  const int ctx = lua_gettop(L);
  ExpectSame(Keys(L, ctx, true), SpecFunctions("ctx"), "ctx");
  ExpectSame(Keys(L, ctx, false), SpecFields("ctx"), "ctx's fields");
  for (const char* sub : {"rng", "dice"}) {
    lua_getfield(L, ctx, sub);
    PushUnproxied(L, -1);
    ExpectSame(Keys(L, -1, true), SpecFunctions(sub), std::string("ctx.") + sub);
    lua_pop(L, 2);
  }
  lua_settop(L, 0);
}

// Every handle's methods, and every script-visible metatable named by a class of the spec.
TEST(ApiCensus, HandlesMatchTheSpec) {
  std::unique_ptr<LuaRules> rules;
  Status st = LuaRules::Load(GamePath("api-examples"), {}, &rules);
  ASSERT_TRUE(st.ok()) << st.message;
  lua_State* L = rules->runtime().L();
  Names spec_metatables;
  for (const api::Class& c : TheSpec().classes) {
    if (c.metatable.empty() || c.name == "test_game") continue;  // the test VM's, below
    spec_metatables.insert(c.metatable);
    if (c.kind == "value") {
      EXPECT_TRUE(Methods(L, c.metatable).empty()) << c.name << " is a value in the spec but has methods";
      continue;
    }
    ExpectSame(Methods(L, c.metatable, c.name == "state" ? 3 : 0), SpecFunctions(c.name), c.metatable);
  }
  ExpectSame(ScriptMetatables(L), spec_metatables, "the rules VM's metatables");
}

// state's fields: each one the spec lists reads without error (undeclared ones raise
// "state has no field").
TEST(ApiCensus, StateFieldsExist) {
  Runtime rt;
  State state;
  state.player_count = 2;
  Binding binding;
  binding.state = &state;
  lua_State* L = rt.L();
  OpenBindings(L, &binding);
  // state[field] in a protected call: an unknown field raises "state has no field".
  auto read = [&](const std::string& field, std::string* error) {
    lua_pushcfunction(L, [](lua_State* S) -> int {
      lua_gettable(S, 1);
      return 1;
    });
    PushState(L);
    lua_pushstring(L, field.c_str());
    const bool ok = lua_pcall(L, 2, 1, 0) == LUA_OK && !lua_isnil(L, -1);
    if (!ok) *error = lua_isstring(L, -1) ? lua_tostring(L, -1) : "it reads nil";
    lua_settop(L, 0);
    return ok;
  };
  std::string error;
  for (const std::string& field : SpecFields("state"))
    EXPECT_TRUE(read(field, &error)) << "state." << field << " is in the spec but reading it fails: " << error;
  EXPECT_FALSE(read("no_such_field", &error));  // the probe tells a field that does not exist
  EXPECT_NE(error.find("state has no field 'no_such_field'"), std::string::npos) << error;
}

// The standard library the sandbox leaves, library fields included.
TEST(ApiCensus, SandboxMatchesTheSpec) {
  Runtime rt;
  lua_State* L = rt.L();
  rt.PushEnv();
  const int env = lua_gettop(L);
  Names globals, spec_globals;
  lua_pushnil(L);
  while (lua_next(L, env)) {
    const std::string name = lua_tostring(L, -2);
    globals.insert(name);
    const auto it = TheSpec().sandbox.find(name);
    if (it != TheSpec().sandbox.end() && it->second && name != "_G") {
      PushUnproxied(L, -1);
      Names fields = Keys(L, -1, true);
      for (const auto& v : Keys(L, -1, false)) fields.insert(v);  // math.pi, utf8.charpattern
      Names spec_fields(it->second->begin(), it->second->end());
      ExpectSame(fields, spec_fields, "the sandbox's " + name);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  for (const auto& [name, fields] : TheSpec().sandbox) spec_globals.insert(name);
  ExpectSame(globals, spec_globals, "the sandbox's globals");
  lua_settop(L, 0);
}

// A scenario file's globals (the sandbox's and the test API's) and the methods of a test game,
// in the VM RunScenarioFile builds; and the spec's game fields read in a real test.
TEST(ApiCensus, TestApiMatchesTheSpec) {
  std::unique_ptr<LuaRules> rules;
  Status st = LuaRules::Load(GamePath("api-examples"), {}, &rules);
  ASSERT_TRUE(st.ok()) << st.message;
  const fs::path dir = fs::temp_directory_path() / ("plateau-api-census-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "census_test.lua";
  {
    std::ofstream out(file);
    out << "test('the spec\\'s game fields read', function()\n  local g = new_game{}\n";
    for (const std::string& field : SpecFields("test_game"))
      out << "  expect_true(g." << field << " ~= nil, 'g." << field << "')\n";
    out << "end)\n";
  }
  Names globals, game_methods, game_metatables;
  std::vector<TestResult> results;
  st = RunScenarioFile(*rules, file.string(), &results, [&](Runtime& rt) {
    lua_State* L = rt.L();
    rt.PushEnv();
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      const std::string name = lua_tostring(L, -2);
      if (!TheSpec().sandbox.count(name)) globals.insert(name);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    game_methods = Methods(L, "plateau.test_game", 2);
    for (const auto& m : ScriptMetatables(L)) game_metatables.insert(m);
  });
  fs::remove_all(dir);
  ASSERT_TRUE(st.ok()) << st.message;
  ExpectSame(globals, SpecFunctions("test"), "a scenario file's globals (beyond the sandbox's)");
  ExpectSame(game_methods, SpecFunctions("test_game"), "plateau.test_game");
  EXPECT_TRUE(game_metatables.count("plateau.test_game"));
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].passed) << results[0].message;
}

// Query entries with named fields: ctx.query refuses a field an op does not take and lists the
// fields it does, in order; they must be the spec's (query_entry's ops).
TEST(ApiCensus, QueryEntryFieldsMatchTheSpec) {
  std::unique_ptr<LuaRules> rules;
  Status st = LuaRules::Load(GamePath("api-examples"), {}, &rules);
  ASSERT_TRUE(st.ok()) << st.message;
  lua_State* L = rules->runtime().L();
  const api::Class& entry = SpecClass("query_entry");
  EXPECT_FALSE(entry.ops.empty());
  for (const api::Op& op : entry.ops) {
    rules->PushContext();
    lua_getfield(L, -1, "query");
    lua_newtable(L);  // {{op = <op>, zz_census = true}}
    lua_newtable(L);
    lua_pushstring(L, op.name.c_str());
    lua_setfield(L, -2, "op");
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "zz_census");
    lua_rawseti(L, -2, 1);
    ASSERT_NE(lua_pcall(L, 1, 1, 0), LUA_OK) << op.name << ": a field the op does not take was accepted";
    const std::string message = lua_tostring(L, -1);
    lua_settop(L, 0);
    std::string fields;
    for (const auto& f : op.fields) fields += (fields.empty() ? "" : ", ") + f;
    EXPECT_NE(message.find("(" + op.name + "): unknown field 'zz_census' (its fields: " + fields + ")"), std::string::npos)
        << "query_entry op " << op.name << ": the spec says " << fields << "; ctx.query says: " << message;
  }
}

// The game table's hooks: the shape check lists the fields it knows when it refuses another.
TEST(ApiCensus, HooksMatchTheSpec) {
  std::unique_ptr<LuaRules> rules;
  Status st = LuaRules::Load(GamePath("safety-unknown-field"), {}, &rules);
  ASSERT_FALSE(st.ok());
  std::smatch m;
  ASSERT_TRUE(std::regex_search(st.message, m, std::regex(R"(\(known: ([a-z_, ]+)\))"))) << st.message;
  Names known;
  std::stringstream list(m[1].str());
  for (std::string name; std::getline(list, name, ',');) known.insert(name.substr(name.find_first_not_of(' ')));
  Names spec = SpecFields("game");
  for (const std::string& f : SpecFunctions("game")) spec.insert(f.substr(0, f.find('.')));  // moves.<type>: moves
  ExpectSame(known, spec, "the game table's known fields");
}

}  // namespace
}  // namespace plateau::scripting

// Lua bindings of dice (host/dice.h): ctx.dice.roll("2d6+1") rolls with the state's RNG and
// logs the roll, only in hooks that may change the state (RandomSource).
#include <string>

#include "scripting/binding_util.h"

namespace plateau::scripting {

namespace {

int DiceRollFn(lua_State* L) {
  State* s = RandomSource(L, "ctx.dice");
  const char* notation = luaL_checkstring(L, 2);
  std::string error;
  auto spec = ParseDice(notation, &error);
  if (!spec) RaiseArg(L, 2, error);
  const DiceRoll roll = s->dice.Roll(*spec, &s->rng);
  if (s->record) s->Log(-1, "roll", {{"dice", roll.notation}, {"faces", roll.faces}, {"total", roll.total}, {"forced", roll.forced}});
  lua_pushinteger(L, roll.total);
  lua_createtable(L, static_cast<int>(roll.faces.size()), 0);
  for (size_t i = 0; i < roll.faces.size(); ++i) {
    lua_pushinteger(L, roll.faces[i]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 2;
}

}  // namespace

// ctx.dice, on the ctx table at the top of the stack.
void OpenDiceBindings(lua_State* L, int up) {
  static const luaL_Reg dice_methods[] = {{"roll", DiceRollFn}, {nullptr, nullptr}};
  lua_newtable(L);
  SetFuncs(L, dice_methods, up);
  MakeReadOnly(L);
  lua_setfield(L, -2, "dice");
}

}  // namespace plateau::scripting

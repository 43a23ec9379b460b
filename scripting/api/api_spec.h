// The Lua API spec (scripting/api/lua_api.json, issue 18): read and checked once, then turned
// into what is generated from it (the reference section of scripting/README.md, the LuaLS
// stubs, the luacheck globals). Shared by plateau-api-gen and the API census test. No Lua here:
// the spec is data about the bindings, not the bindings.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace plateau::api {

struct Arg {
  std::string name, type, doc;
  bool optional = false;
};

struct Field {
  std::string name, type, doc;
  bool optional = false;
};

struct Function {
  std::string name, doc;
  std::vector<Arg> args;
  std::vector<Arg> returns;  // name may be empty
  std::vector<std::string> errors;
  bool writes = false;    // writing hooks only
  bool optional = false;  // a hook the game may leave out
  std::string call;       // "." or ":" (the class's unless overridden); "" for globals
};

// A tagged table's variants (query entries): the fields one op takes, in positional order.
struct Op {
  std::string name, doc;
  std::vector<std::string> fields;
};

struct Class {
  std::string name, kind, var, call, metatable, reached, section, example, doc, lua_type;
  std::vector<Field> fields;
  std::vector<Function> functions;
  std::vector<Op> ops;
  // "grid:get", "ctx.log", "test" (globals), "game.moves.<type>": how the reference names it.
  std::string Qualified(const Function& f) const;
  std::string Qualified(const Field& f) const;
};

struct Alias {
  std::string name, type, doc;
};

struct Spec {
  int api_version = 0;
  std::vector<Alias> aliases;
  std::vector<Class> classes;
  std::string sandbox_doc;
  // Sandbox globals: nullopt for a value or function, else the fields a library table keeps.
  std::map<std::string, std::optional<std::vector<std::string>>> sandbox;
  const Class* Find(const std::string& name) const;
};

// The spec's place in a Plateau tree (source or home): <root>/scripting/api/lua_api.json.
std::string SpecPath(const std::string& root);

// Reads and checks the spec of the tree at `root`: the JSON Schema (schemas/lua_api.schema.json)
// first, then what a schema cannot say (unique names, plateau.* types that name a class or an
// alias, the README anchors the classes point at). Every problem names the entry
// ("scripting/api/lua_api.json: at /classes/9/functions/0 (grid:get): missing \"doc\"").
bool LoadSpec(const std::string& root, Spec* out, std::vector<std::string>* errors);

// What is generated from it. The reference is the text between the markers of
// scripting/README.md; the stubs are scripting/api/stubs/plateau.lua; the luacheck file is
// scripting/api/luacheckrc (plateau lint's --config).
std::string RenderReference(const Spec& spec);
std::string RenderStubs(const Spec& spec);
std::string RenderLuacheck(const Spec& spec);

// The markers around the generated reference in scripting/README.md.
extern const char* const kBeginMarker;
extern const char* const kEndMarker;
// Replaces the text between the markers of `readme` with `reference`; false (with *error) when
// the markers are missing or out of order.
bool SpliceReference(const std::string& readme, const std::string& reference, std::string* out, std::string* error);

}  // namespace plateau::api

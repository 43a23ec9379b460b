// The Lua API spec: reading and checking scripting/api/lua_api.json, and rendering what is
// generated from it (see api_spec.h).
#include "scripting/api/api_spec.h"

#include <regex>
#include <set>
#include <sstream>

#include "host/json_io.h"
#include "host/schema.h"

namespace plateau::api {

const char* const kBeginMarker =
    "<!-- BEGIN GENERATED API REFERENCE: written by plateau-api-gen from scripting/api/lua_api.json; "
    "edit the spec, then run build/plateau-api-gen --write -->";
const char* const kEndMarker = "<!-- END GENERATED API REFERENCE -->";

namespace {

const char* const kSpecFile = "scripting/api/lua_api.json";

std::string Text(const Json& o, const char* key) {
  return o.contains(key) && o[key].is_string() ? o[key].get<std::string>() : std::string();
}
bool Flag(const Json& o, const char* key) { return o.contains(key) && o[key].is_boolean() && o[key].get<bool>(); }

std::vector<Arg> Args(const Json& list) {
  std::vector<Arg> out;
  for (const Json& a : list) out.push_back({Text(a, "name"), Text(a, "type"), Text(a, "doc"), Flag(a, "optional")});
  return out;
}

// "at /classes/9/functions/0: ..." -> " (grid:get)": a schema error names the entry it is in, so
// the one who wrote it finds it without counting array elements.
std::string EntryOf(const Json& doc, const std::string& message) {
  static const std::regex kPointer(R"(at /classes/(\d+)(/(functions|fields)/(\d+))?)");
  std::smatch m;
  if (!std::regex_search(message, m, kPointer)) return "";
  const size_t c = std::stoul(m[1].str());
  if (!doc["classes"].is_array() || c >= doc["classes"].size() || !doc["classes"][c].is_object()) return "";
  const Json& cls = doc["classes"][c];
  std::string name = Text(cls, "name").empty() ? "class #" + m[1].str() : Text(cls, "name");
  if (m[2].matched) {
    const Json& list = cls.contains(m[3].str()) ? cls[m[3].str()] : Json();
    const size_t i = std::stoul(m[4].str());
    std::string entry = list.is_array() && i < list.size() && list[i].is_object() ? Text(list[i], "name") : "";
    if (entry.empty()) entry = m[3].str().substr(0, m[3].str().size() - 1) + " #" + m[4].str();
    const std::string call = Text(cls, "call").empty() ? "." : Text(cls, "call");
    name += (m[3].str() == "functions" ? call : ".") + entry;
  }
  return " (" + name + ")";
}

// GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as hyphens.
std::string Anchor(const std::string& heading) {
  std::string out;
  for (unsigned char ch : heading) {
    if (std::isalnum(ch) || ch == '_' || ch == '-' || ch >= 0x80) out += static_cast<char>(std::tolower(ch));
    else if (ch == ' ') out += '-';
  }
  return out;
}

std::set<std::string> ReadmeAnchors(const std::string& readme) {
  std::set<std::string> out;
  std::istringstream in(readme);
  std::string line;
  bool fenced = false;
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) fenced = !fenced;
    if (fenced || line.empty() || line[0] != '#') continue;
    const size_t start = line.find_first_not_of('#');
    if (start == std::string::npos || line[start] != ' ') continue;
    out.insert("#" + Anchor(line.substr(start + 1)));
  }
  return out;
}

}  // namespace

std::string Class::Qualified(const Function& f) const {
  if (kind == "globals") return f.name;
  return (var.empty() ? name : var) + f.call + f.name;
}

std::string Class::Qualified(const Field& f) const { return (var.empty() ? name : var) + "." + f.name; }

const Class* Spec::Find(const std::string& name) const {
  for (const Class& c : classes)
    if (c.name == name) return &c;
  return nullptr;
}

std::string SpecPath(const std::string& root) { return root + "/" + kSpecFile; }

bool LoadSpec(const std::string& root, Spec* out, std::vector<std::string>* errors) {
  Json doc;
  std::string error;
  if (!ReadJsonFile(SpecPath(root), kSpecFile, &doc, &error)) {
    errors->push_back(error);
    return false;
  }
  SchemaSet schemas;
  if (!schemas.Load(root + "/schemas", &error)) {
    errors->push_back(error);
    return false;
  }
  std::vector<std::string> found;
  if (!schemas.Validate("lua_api", doc, kSpecFile, &found)) {
    for (std::string& e : found) errors->push_back(e + EntryOf(doc, e));
    return false;
  }
  Spec spec;
  spec.api_version = doc["api_version"].get<int>();
  for (const Json& a : doc["aliases"]) spec.aliases.push_back({Text(a, "name"), Text(a, "type"), Text(a, "doc")});
  for (const Json& c : doc["classes"]) {
    Class cls;
    cls.name = Text(c, "name");
    cls.kind = Text(c, "kind");
    cls.var = Text(c, "var");
    cls.call = Text(c, "call");
    cls.metatable = Text(c, "metatable");
    cls.reached = Text(c, "reached");
    cls.section = Text(c, "section");
    cls.example = Text(c, "example");
    cls.doc = Text(c, "doc");
    cls.lua_type = Text(c, "lua_type");
    for (const Json& f : c["fields"]) cls.fields.push_back({Text(f, "name"), Text(f, "type"), Text(f, "doc"), Flag(f, "optional")});
    for (const Json& f : c["functions"]) {
      Function fn;
      fn.name = Text(f, "name");
      fn.doc = Text(f, "doc");
      fn.args = Args(f["args"]);
      fn.returns = Args(f["returns"]);
      if (f.contains("errors"))
        for (const Json& e : f["errors"]) fn.errors.push_back(e.get<std::string>());
      fn.writes = Flag(f, "writes");
      fn.optional = Flag(f, "optional");
      fn.call = cls.kind == "globals" ? "" : Text(f, "call").empty() ? cls.call : Text(f, "call");
      cls.functions.push_back(std::move(fn));
    }
    if (c.contains("ops"))
      for (const Json& o : c["ops"]) {
        Op op{Text(o, "name"), Text(o, "doc"), {}};
        for (const Json& f : o["fields"]) op.fields.push_back(f.get<std::string>());
        cls.ops.push_back(std::move(op));
      }
    spec.classes.push_back(std::move(cls));
  }
  spec.sandbox_doc = Text(doc["sandbox"], "doc");
  for (const auto& [name, fields] : doc["sandbox"]["globals"].items()) {
    if (fields.is_null()) {
      spec.sandbox[name] = std::nullopt;
      continue;
    }
    std::vector<std::string> list;
    for (const Json& f : fields) list.push_back(f.get<std::string>());
    spec.sandbox[name] = list;
  }

  // What the schema cannot say.
  std::string readme;
  const bool have_readme = ReadTextFile(root + "/scripting/README.md", 8u << 20, &readme, &error);
  const std::set<std::string> anchors = have_readme ? ReadmeAnchors(readme) : std::set<std::string>();
  if (!have_readme) errors->push_back(error);
  std::set<std::string> types;  // every plateau.* name a type may use
  for (const Alias& a : spec.aliases)
    if (!types.insert(a.name).second) errors->push_back(std::string(kSpecFile) + ": alias " + a.name + " is declared twice");
  std::set<std::string> classes;
  for (const Class& c : spec.classes) {
    if (!classes.insert(c.name).second) errors->push_back(std::string(kSpecFile) + ": class " + c.name + " is declared twice");
    if (!types.insert("plateau." + c.name).second)
      errors->push_back(std::string(kSpecFile) + ": class " + c.name + " has the name of an alias");
  }
  auto bad = [&](const std::string& entry, const std::string& why) {
    errors->push_back(std::string(kSpecFile) + ": " + entry + ": " + why);
  };
  static const std::regex kPlateauType(R"(plateau\.[a-z_]+)");
  auto check_type = [&](const std::string& entry, const std::string& type) {
    for (auto it = std::sregex_iterator(type.begin(), type.end(), kPlateauType); it != std::sregex_iterator(); ++it)
      if (!types.count(it->str())) bad(entry, "type '" + type + "' names " + it->str() + ", which is neither a class nor an alias");
  };
  for (const Alias& a : spec.aliases) check_type("alias " + a.name, a.type);
  for (const Class& c : spec.classes) {
    const std::string entry = "class " + c.name;
    if (!c.section.empty() && have_readme && !anchors.count(c.section))
      bad(entry, "section " + c.section + " is no heading of scripting/README.md");
    if (c.kind == "value" && !c.functions.empty()) bad(entry, "a value has no functions (make it a handle or a table)");
    if ((c.kind == "handle" || c.kind == "table") && (c.call.empty() || c.var.empty()))
      bad(entry, "a " + c.kind + " needs \"call\" and \"var\" (how the reference writes a call)");
    if (c.kind == "handle" && c.metatable.empty() && c.name != "state")
      bad(entry, "a handle needs \"metatable\": the name the bindings register it under");
    if (!c.lua_type.empty()) check_type(entry, c.lua_type);
    std::set<std::string> names;
    for (const Field& f : c.fields) {
      if (!names.insert(f.name).second) bad(c.Qualified(f), "declared twice");
      check_type(c.Qualified(f), f.type);
    }
    for (const Op& op : c.ops)
      for (const std::string& f : op.fields)
        if (!names.count(f)) bad(entry + " op " + op.name, "field '" + f + "' is not a field of the class");
    for (const Function& f : c.functions) {
      const std::string q = c.Qualified(f);
      if (!names.insert(f.name).second) bad(q, "declared twice (a field or function of that name exists)");
      if (f.name.find('<') != std::string::npos && c.kind != "hooks") bad(q, "only hooks are named moves.<type>");
      bool seen_optional = false;
      for (const Arg& a : f.args) {
        check_type(q + " argument " + a.name, a.type);
        if (a.optional) seen_optional = true;
        else if (seen_optional && a.name != "...") bad(q, "argument " + a.name + " is required after an optional one");
      }
      for (const Arg& r : f.returns) check_type(q + " result", r.type);
    }
  }
  if (!errors->empty()) return false;
  *out = std::move(spec);
  return true;
}

// ---- the README reference ----------------------------------------------------------------

namespace {

// A table cell: pipes would end it.
std::string Cell(const std::string& s) {
  std::string out;
  for (char ch : s) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}

std::string Code(const std::string& s) { return "`" + Cell(s) + "`"; }

std::string Signature(const Class& c, const Function& f) {
  std::string out = c.Qualified(f) + "(";
  for (size_t i = 0; i < f.args.size(); ++i) {
    const Arg& a = f.args[i];
    out += (i ? ", " : "") + a.name + (a.optional ? "?" : "") + (a.name == "..." ? "" : ": " + a.type);
  }
  return out + ")";
}

std::string Returns(const Function& f) {
  if (f.returns.empty()) return "";
  std::string out;
  for (size_t i = 0; i < f.returns.size(); ++i) {
    const Arg& r = f.returns[i];
    out += (i ? ", " : "") + Code((r.name.empty() ? "" : r.name + ": ") + r.type);
    if (!r.doc.empty()) out += " (" + Cell(r.doc) + ")";
  }
  return out;
}

std::string Does(const Function& f) {
  std::string out = Cell(f.doc);
  for (const Arg& a : f.args)
    if (!a.doc.empty()) out += " `" + a.name + "`: " + Cell(a.doc) + ".";
  if (f.writes) out += " Writing hooks only.";
  if (f.optional) out += " Optional.";
  if (!f.errors.empty()) {
    out += " Errors:";
    for (size_t i = 0; i < f.errors.size(); ++i) out += std::string(i ? "," : "") + " " + Code(f.errors[i]);
    out += ".";
  }
  return out;
}

const char* KindTitle(const std::string& kind) {
  if (kind == "hooks") return "the game table";
  if (kind == "globals") return "scenario-test globals";
  if (kind == "table") return "table";
  if (kind == "value") return "value";
  return "handle";
}

}  // namespace

std::string RenderReference(const Spec& spec) {
  std::ostringstream o;
  o << "## 8. API reference\n\n"
    << "Every function, field and hook a script sees, one line each, generated from\n"
    << "[`scripting/api/lua_api.json`](api/lua_api.json) (the sections above explain them with examples).\n"
    << "Types are those of the Lua language server (LuaLS), whose stubs `scripting/api/stubs/plateau.lua`\n"
    << "are generated from the same spec; `name?` is an optional argument, `T?` a value that may be\n"
    << "nil. \"Writing hooks only\" marks calls that change the state (or draw random numbers): they\n"
    << "work in `setup`, `moves.<type>`, `on_place.<card>`, `after_draft` and `migrate`.\n\n"
    << "Contents:";
  for (size_t i = 0; i < spec.classes.size(); ++i)
    o << (i ? " ·" : "") << " [" << spec.classes[i].name << "](#" << spec.classes[i].name << "-"
      << Anchor(KindTitle(spec.classes[i].kind)) << ")";
  o << " · [types](#shared-types) · [sandbox](#the-sandboxs-globals)\n\n";
  for (const Class& c : spec.classes) {
    o << "### " << c.name << ": " << KindTitle(c.kind) << "\n\n" << c.doc;
    if (!c.reached.empty()) o << " Reached as: " << c.reached << ".";
    if (!c.section.empty()) o << " Explained in [its section](" << c.section << ").";
    if (!c.example.empty()) o << " Run by `" << c.example << "`.";
    o << "\n\n";
    if (!c.fields.empty()) {
      o << "| field | type | is |\n| --- | --- | --- |\n";
      for (const Field& f : c.fields)
        o << "| " << Code(c.Qualified(f)) << " | " << Code(f.type + (f.optional ? "?" : "")) << " | " << Cell(f.doc)
          << " |\n";
      o << "\n";
    }
    if (!c.ops.empty()) {
      o << "| op | fields, in the positional form's order | is |\n| --- | --- | --- |\n";
      for (const Op& op : c.ops) {
        std::string fields;
        for (const std::string& f : op.fields) fields += (fields.empty() ? "" : ", ") + Code(f);
        o << "| " << Code(op.name) << " | " << fields << " | " << Cell(op.doc) << " |\n";
      }
      o << "\n";
    }
    if (!c.functions.empty()) {
      o << "| " << (c.kind == "hooks" ? "hook" : "call") << " | returns | does |\n| --- | --- | --- |\n";
      for (const Function& f : c.functions) o << "| " << Code(Signature(c, f)) << " | " << Returns(f) << " | " << Does(f) << " |\n";
      o << "\n";
    }
  }
  o << "### Shared types\n\n| type | is |\n| --- | --- |\n";
  for (const Alias& a : spec.aliases) o << "| " << Code(a.name) << " | " << Code(a.type) << ": " << Cell(a.doc) << " |\n";
  o << "\n### The sandbox's globals\n\n" << spec.sandbox_doc << " ([§6](#6-the-sandbox))\n\n| global | fields |\n| --- | --- |\n";
  for (const auto& [name, fields] : spec.sandbox) {
    o << "| `" << name << "` | ";
    if (fields)
      for (size_t i = 0; i < fields->size(); ++i) o << (i ? " " : "") << (*fields)[i];
    o << " |\n";
  }
  return o.str();
}

bool SpliceReference(const std::string& readme, const std::string& reference, std::string* out, std::string* error) {
  const size_t begin = readme.find(kBeginMarker), end = readme.find(kEndMarker);
  if (begin == std::string::npos || end == std::string::npos || end < begin) {
    *error = "scripting/README.md has no generated region: put the lines\n  " + std::string(kBeginMarker) + "\n  " +
             kEndMarker + "\nwhere the API reference goes";
    return false;
  }
  const size_t after_begin = begin + std::string(kBeginMarker).size();
  *out = readme.substr(0, after_begin) + "\n" + reference + readme.substr(end);
  return true;
}

// ---- LuaLS stubs ---------------------------------------------------------------------------

namespace {

// "table<K, V>" -> {K, V}; anything else is a parent class.
bool IndexType(const std::string& t, std::string* key, std::string* value) {
  static const std::regex kTable(R"(^table<\s*([^,]+?)\s*,\s*(.+)>$)");
  std::smatch m;
  if (!std::regex_match(t, m, kTable)) return false;
  *key = m[1].str();
  *value = m[2].str();
  return true;
}

std::string FunType(const Function& f) {
  std::string out = "fun(";
  for (size_t i = 0; i < f.args.size(); ++i)
    out += (i ? ", " : "") + f.args[i].name + (f.args[i].optional ? "?" : "") + ": " + f.args[i].type;
  out += ")";
  for (size_t i = 0; i < f.returns.size(); ++i) out += (i ? ", " : ": ") + f.returns[i].type;
  return out;
}

std::string DocLine(const std::string& doc) { return doc.empty() ? "" : "---" + doc + "\n"; }

void StubFunction(std::ostringstream& o, const std::string& owner, const Function& f) {
  std::string doc = f.doc;
  if (f.writes) doc += " Writing hooks only.";
  for (const std::string& e : f.errors) doc += (e == f.errors.front() ? " Errors: " : "; ") + e;
  o << "\n" << DocLine(doc);
  for (const Arg& a : f.args) {
    o << "---@param " << a.name << (a.optional ? "?" : "") << " " << a.type;
    if (!a.doc.empty()) o << " " << a.doc;
    o << "\n";
  }
  for (const Arg& r : f.returns) {
    o << "---@return " << r.type;
    if (!r.name.empty()) o << " " << (r.name == "..." ? "..." : r.name);
    if (!r.doc.empty()) o << " # " << r.doc;
    o << "\n";
  }
  std::string params;
  for (size_t i = 0; i < f.args.size(); ++i) params += (i ? ", " : "") + f.args[i].name;
  o << "function " << owner << f.call << f.name << "(" << params << ") end\n";
}

}  // namespace

std::string RenderStubs(const Spec& spec) {
  std::ostringstream o;
  o << "---@meta plateau\n"
    << "-- Plateau's Lua API (API version " << spec.api_version << ") for the Lua language server (LuaLS): types\n"
    << "-- and docs of ctx, state, the handles, the game table's hooks and the scenario-test globals.\n"
    << "-- Generated from scripting/api/lua_api.json by plateau-api-gen: do not edit. A game's\n"
    << "-- .luarc.json lists this folder in workspace.library; annotate the game table with\n"
    << "-- ---@type plateau.game and the hooks' arguments are typed.\n";
  for (const Alias& a : spec.aliases) o << "\n" << DocLine(a.doc) << "---@alias " << a.name << " " << a.type << "\n";
  for (const Class& c : spec.classes) {
    if (c.kind == "globals") {
      o << "\n-- " << c.doc << "\n";
      for (const Function& f : c.functions) StubFunction(o, "", f);
      continue;
    }
    if (c.kind == "hooks")  // moves.<type>: an alias, so the function type does not sit inside table<...>
      for (const Function& f : c.functions)
        if (f.name.find('.') != std::string::npos)
          o << "\n" << DocLine(f.doc) << "---@alias plateau." << f.name.substr(0, f.name.find('.')) << "_hook "
            << FunType(f) << "\n";
    o << "\n" << DocLine(c.doc) << "---@class plateau." << c.name;
    std::string key, value;
    const bool indexed = !c.lua_type.empty() && IndexType(c.lua_type, &key, &value);
    if (!c.lua_type.empty() && !indexed) o << ": " << c.lua_type;
    o << "\n";
    for (const Field& f : c.fields) o << "---@field " << f.name << (f.optional ? "? " : " ") << f.type << " " << f.doc << "\n";
    if (c.kind == "hooks") {
      for (const Function& f : c.functions) {
        const size_t dot = f.name.find('.');
        if (dot == std::string::npos)
          o << "---@field " << f.name << (f.optional ? "? " : " ") << FunType(f) << " " << f.doc << "\n";
        else  // moves.<type>: a table of hooks by move type (card id for on_place)
          o << "---@field " << f.name.substr(0, dot) << (f.optional ? "? " : " ") << "table<string, plateau."
            << f.name.substr(0, dot) << "_hook> " << f.doc << "\n";
      }
      continue;
    }
    if (indexed) o << "---@field [" << key << "] " << value << "\n";
    if (c.functions.empty()) continue;
    o << "local " << c.name << " = {}\n";
    for (const Function& f : c.functions) StubFunction(o, c.name, f);
  }
  return o.str();
}

// ---- luacheck --------------------------------------------------------------------------------

std::string RenderLuacheck(const Spec& spec) {
  std::ostringstream o;
  o << "-- luacheck's view of Plateau's sandbox and API, for plateau lint (luacheck --config).\n"
    << "-- Generated from scripting/api/lua_api.json by plateau-api-gen: do not edit.\n"
    << "-- plateau: the standard library the sandbox keeps (rules, modules, tests); plateau_tests: the\n"
    << "-- scenario-test globals, added for files under tests/ and test helpers (test*.lua).\n"
    << "stds.plateau = {\n  read_globals = {\n";
  for (const auto& [name, fields] : spec.sandbox) {
    if (!fields) {
      o << "    \"" << name << "\",\n";
      continue;
    }
    o << "    " << name << " = { fields = {";
    for (size_t i = 0; i < fields->size(); ++i) o << (i ? ", " : " ") << "\"" << (*fields)[i] << "\"";
    o << " } },\n";
  }
  o << "  },\n}\nstds.plateau_tests = {\n  read_globals = {\n";
  for (const Class& c : spec.classes)
    if (c.kind == "globals")
      for (const Function& f : c.functions) o << "    \"" << f.name << "\",\n";
  o << "  },\n}\n"
    << "std = \"plateau\"\n"
    << "-- Hooks have fixed arguments a rule may not need; line length and whitespace are style.\n"
    << "unused_args = false\n"
    << "max_line_length = false\n"
    << "ignore = { \"6\" }\n";
  return o.str();
}

}  // namespace plateau::api

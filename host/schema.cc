// valijson-backed schema validation (see schema.h). The only file that includes valijson.
#include "host/schema.h"
#include "host/text.h"

#include <dirent.h>

#include <cctype>
#include <map>
#include <set>
#include <mutex>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "host/home.h"
#include "host/json_io.h"

namespace plateau {

struct SchemaSet::Impl {
  std::map<std::string, std::unique_ptr<valijson::Schema>> schemas;
  std::map<std::string, Json> raw;  // the schema documents, to word errors with what they expect
};

SchemaSet::SchemaSet() : impl_(std::make_unique<Impl>()) {}
SchemaSet::~SchemaSet() = default;
SchemaSet::SchemaSet(SchemaSet&&) noexcept = default;

bool SchemaSet::Load(const std::string& dir, std::string* error) {
  DIR* d = opendir(dir.c_str());
  if (!d) {
    *error = "cannot open schema folder " + dir;
    return false;
  }
  std::vector<std::string> files;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    const std::string suffix = ".schema.json";
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) files.push_back(n);
  }
  closedir(d);
  for (const auto& f : files) {
    Json doc;
    if (!ReadJsonFile(dir + "/" + f, "schemas/" + f, &doc, error)) return false;
    auto schema = std::make_unique<valijson::Schema>();
    try {
      valijson::SchemaParser parser;
      valijson::adapters::NlohmannJsonAdapter adapter(doc);
      parser.populateSchema(adapter, *schema);
    } catch (const std::exception& e) {
      *error = "schemas/" + f + ": bad schema: " + e.what();
      return false;
    }
    const std::string name = f.substr(0, f.size() - std::string(".schema.json").size());
    impl_->schemas[name] = std::move(schema);
    impl_->raw[name] = std::move(doc);
  }
  return true;
}

bool SchemaSet::Has(const std::string& name) const { return impl_->schemas.count(name) > 0; }

// The JSON Pointer of a valijson error context (["<root>", "[\"cards\"]", "[3]", ...]), as
// its segments.
static std::vector<std::string> PointerParts(const std::vector<std::string>& context) {
  std::vector<std::string> parts;
  for (const auto& c : context) {
    if (c == "<root>") continue;
    std::string part = c;
    if (part.size() >= 2 && part.front() == '[' && part.back() == ']') part = part.substr(1, part.size() - 2);
    if (part.size() >= 2 && part.front() == '"' && part.back() == '"') part = part.substr(1, part.size() - 2);
    parts.push_back(part);
  }
  return parts;
}

static std::string Pointer(const std::vector<std::string>& parts) {
  std::string p;
  for (const auto& part : parts) p += "/" + part;
  return p.empty() ? "/" : p;
}

// A JSON value's type as JSON Schema names it.
static std::string TypeName(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return "integer";
    case Json::value_t::number_float: return "number";
    case Json::value_t::string: return "string";
    case Json::value_t::array: return "array";
    case Json::value_t::object: return "object";
    default: return "value";
  }
}

// The value at `parts` in `doc`, or null when the path leaves it.
static const Json* ValueAt(const Json& doc, const std::vector<std::string>& parts, size_t n) {
  const Json* node = &doc;
  for (size_t i = 0; i < n && i < parts.size(); ++i) {
    if (node->is_object()) {
      auto it = node->find(parts[i]);
      if (it == node->end()) return nullptr;
      node = &*it;
    } else if (node->is_array()) {
      if (parts[i].empty() || parts[i].find_first_not_of("0123456789") != std::string::npos || parts[i].size() > 9)
        return nullptr;
      int64_t k = 0;
      std::string ignored;
      if (!ParseInt(parts[i], 0, INT64_MAX, "", &k, &ignored)) return nullptr;
      if (static_cast<size_t>(k) >= node->size()) return nullptr;
      node = &(*node)[k];
    } else {
      return nullptr;
    }
  }
  return node;
}

// The schema node that describes the value at `parts`, following properties, items,
// additionalProperties and local $refs; null when the path is not described so simply.
static const Json* SchemaAt(const Json& root, const std::vector<std::string>& parts) {
  const Json* node = &root;
  auto deref = [&](const Json* n) -> const Json* {
    for (int hops = 0; n && n->is_object() && n->contains("$ref") && hops < 8; ++hops) {
      const std::string ref = (*n)["$ref"].is_string() ? (*n)["$ref"].get<std::string>() : "";
      if (ref.rfind("#/", 0) != 0) return nullptr;
      try {
        n = &root.at(Json::json_pointer(ref.substr(1)));
      } catch (const std::exception&) {
        return nullptr;
      }
    }
    return n;
  };
  node = deref(node);
  for (const auto& part : parts) {
    if (!node || !node->is_object()) return nullptr;
    if (node->contains("properties") && (*node)["properties"].contains(part)) node = &(*node)["properties"][part];
    else if (node->contains("items") && (*node)["items"].is_object()) node = &(*node)["items"];
    else if (node->contains("additionalProperties") && (*node)["additionalProperties"].is_object())
      node = &(*node)["additionalProperties"];
    else return nullptr;
    node = deref(node);
  }
  return node;
}

// "integer", "integer or string": what a schema node's "type" allows.
static std::string Expected(const Json* schema) {
  if (!schema || !schema->is_object() || !schema->contains("type")) return "";
  const Json& t = (*schema)["type"];
  if (t.is_string()) return t.get<std::string>();
  std::string out;
  if (t.is_array())
    for (size_t i = 0; i < t.size(); ++i)
      if (t[i].is_string()) out += (i == 0 ? "" : i + 1 == t.size() ? " or " : ", ") + t[i].get<std::string>();
  return out;
}

// A number as a person writes it (valijson prints bounds as 0.000000).
static std::string Number(const Json& v) {
  if (v.is_number_float() && v.get<double>() == static_cast<double>(static_cast<long long>(v.get<double>())))
    return std::to_string(static_cast<long long>(v.get<double>()));
  return v.dump();
}

// One problem worded for a person: what the schema expects and what the file has.
static std::string Worded(const std::string& description, const Json* value, const Json* schema) {
  const std::string got = value ? TypeName(*value) : "nothing";
  if (description.find("'type' constraint") != std::string::npos) {
    const std::string want = Expected(schema);
    return (want.empty() ? std::string("wrong type") : "expected " + want) + ", got " + got +
           (value && !value->is_object() && !value->is_array() ? " " + value->dump() : "");
  }
  if (value && schema && schema->is_object()) {
    if (description.find("greater than or equal") != std::string::npos && schema->contains("minimum"))
      return "expected at least " + Number((*schema)["minimum"]) + ", got " + value->dump();
    if (description.find("less than or equal") != std::string::npos && schema->contains("maximum"))
      return "expected at most " + Number((*schema)["maximum"]) + ", got " + value->dump();
    if (description.find("'pattern'") != std::string::npos && schema->contains("pattern"))
      return value->dump() + " does not match the pattern " + (*schema)["pattern"].dump();
    if (description.find("'enum'") != std::string::npos && schema->contains("enum"))
      return "expected one of " + (*schema)["enum"].dump() + ", got " + value->dump();
  }
  std::string d = description;
  if (!d.empty() && d.back() == '.') d.pop_back();
  if (!d.empty()) d[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(d[0])));
  return d;
}

// " (card 'bee')": the id of the list element a pointer is inside, when it has one, so a
// person finds the value without counting elements.
static std::string Inside(const Json& doc, const std::vector<std::string>& parts) {
  std::string found;
  for (size_t n = 2; n <= parts.size(); ++n) {
    const Json* parent = ValueAt(doc, parts, n - 1);
    const Json* e = ValueAt(doc, parts, n);
    if (parent && parent->is_array() && e && e->is_object() && e->contains("id") && (*e)["id"].is_string()) {
      const std::string list = parts[n - 2];
      const std::string what = list == "cards" ? "card" : list == "tiles" ? "tile" : "id";
      found = " (" + what + " '" + (*e)["id"].get<std::string>() + "')";
    }
  }
  return found;
}

bool SchemaSet::Validate(const std::string& name, const Json& doc, const std::string& file,
                         std::vector<std::string>* errors) const {
  auto it = impl_->schemas.find(name);
  if (it == impl_->schemas.end()) {
    errors->push_back(file + ": no schema named '" + name + "'");
    return false;
  }
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter adapter(doc);
  if (validator.validate(*it->second, adapter, &results)) return true;
  const Json& raw = impl_->raw.at(name);
  valijson::ValidationResults::Error err;
  std::vector<std::pair<size_t, std::string>> found, wrappers;  // pointer length, message
  std::set<std::string> seen;
  while (results.popError(err)) {
    // valijson reports the chain of failing schemas ("Failed to validate item #0 in array"
    // above the real problem); only the problems themselves are shown, one line each.
    const std::vector<std::string> parts = PointerParts(err.context);
    const std::string pointer = Pointer(parts);
    const bool wrapper = err.description.rfind("Failed to validate", 0) == 0;
    const std::string line = file + ": at " + pointer + Inside(doc, parts) + ": " +
                             Worded(err.description, ValueAt(doc, parts, parts.size()), SchemaAt(raw, parts));
    if (!seen.insert(line).second) continue;
    (wrapper ? wrappers : found).emplace_back(pointer == "/" ? 0 : pointer.size(), line);
  }
  if (found.empty()) found = std::move(wrappers);
  // The most specific errors first (longest pointers), otherwise in the document's order.
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (auto& f : found) errors->push_back(std::move(f.second));
  return false;
}

const SchemaSet& Schemas(std::string* error) {
  static std::once_flag once;
  static SchemaSet* set = nullptr;
  static std::string load_error;
  std::call_once(once, [] {
    set = new SchemaSet();
    if (!set->Load(PlateauHome() + "/schemas", &load_error)) {}
  });
  if (!load_error.empty() && error) *error = load_error;
  return *set;
}

}  // namespace plateau

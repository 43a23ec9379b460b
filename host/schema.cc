// valijson-backed schema validation (see schema.h). The only file that includes valijson.
#include "host/schema.h"

#include <dirent.h>

#include <map>
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
    impl_->schemas[f.substr(0, f.size() - std::string(".schema.json").size())] = std::move(schema);
  }
  return true;
}

bool SchemaSet::Has(const std::string& name) const { return impl_->schemas.count(name) > 0; }

static std::string Pointer(const std::vector<std::string>& context) {
  std::string p;
  for (const auto& c : context) {
    if (c == "<root>") continue;
    std::string part = c;
    if (part.size() >= 2 && part.front() == '[' && part.back() == ']') part = part.substr(1, part.size() - 2);
    if (part.size() >= 2 && part.front() == '"' && part.back() == '"') part = part.substr(1, part.size() - 2);
    p += "/" + part;
  }
  return p.empty() ? "/" : p;
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
  valijson::ValidationResults::Error err;
  std::string last;
  std::vector<std::pair<size_t, std::string>> found;  // pointer length, message
  while (results.popError(err)) {
    // valijson reports the chain of failing schemas; the deepest entry is the useful one.
    const std::string pointer = Pointer(err.context);
    std::string line = file + ": at " + pointer + ": " + err.description;
    if (line == last) continue;
    last = line;
    found.emplace_back(pointer == "/" ? 0 : pointer.size(), std::move(line));
  }
  // Keep the most specific errors first (longest pointers, not longest messages).
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

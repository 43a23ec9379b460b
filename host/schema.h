// JSON Schema (draft-07) validation of manifests and game data through valijson.
// valijson's headers stay inside schema.cc; callers see plain strings.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "host/state.h"

namespace plateau {

class SchemaSet {
 public:
  // Loads every schemas/*.schema.json under `dir`; the name is the file stem ("game").
  bool Load(const std::string& dir, std::string* error);
  bool Has(const std::string& name) const;
  // Validates `doc` against schema `name`. Each error reads "<file>: at <json pointer>: <why>".
  bool Validate(const std::string& name, const Json& doc, const std::string& file,
                std::vector<std::string>* errors) const;
  SchemaSet();
  ~SchemaSet();
  SchemaSet(SchemaSet&&) noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The schemas of the Plateau install, loaded once per process (thread-safe).
const SchemaSet& Schemas(std::string* error);

}  // namespace plateau

// Mutation testing (see mutate.h).
#include "designer/mutate.h"

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "designer/playthrough.h"
#include "host/json_io.h"
#include "scripting/lua_rules.h"
#include "scripting/test_runner.h"

namespace plateau {
namespace {

namespace fs = std::filesystem;

struct Mutant {
  std::string file;   // relative to the game folder
  int line;           // 1-based
  std::string before, after, what;
};

bool CodeLine(const std::string& line) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos) return false;
  return line.compare(i, 2, "--") != 0;
}

// The part of a line before a trailing comment, with string literals blanked so mutations
// never touch text inside quotes.
std::string CodeOnly(const std::string& line) {
  std::string out = line;
  char quote = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (quote) {
      if (out[i] == '\\') { out[i] = ' '; if (i + 1 < out.size()) out[++i] = ' '; continue; }
      if (out[i] == quote) quote = 0;
      else out[i] = ' ';
      continue;
    }
    if (out[i] == '"' || out[i] == '\'') quote = out[i];
    else if (out.compare(i, 2, "--") == 0) { out.resize(i); break; }
  }
  return out;
}

void Candidates(const std::string& file, const std::vector<std::string>& lines, std::vector<Mutant>* out) {
  static const std::pair<const char*, const char*> kCompare[] = {
      {"<=", "<"}, {">=", ">"}, {"==", "~="}, {"~=", "=="}};
  for (size_t n = 0; n < lines.size(); ++n) {
    const std::string& line = lines[n];
    if (!CodeLine(line)) continue;
    const std::string code = CodeOnly(line);
    const int ln = static_cast<int>(n + 1);
    // Numbers: each integer literal nudged by one.
    for (size_t i = 0; i < code.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(code[i])) || (i > 0 && (std::isalnum(static_cast<unsigned char>(code[i - 1])) || code[i - 1] == '_' || code[i - 1] == '.')))
        continue;
      size_t j = i;
      while (j < code.size() && std::isdigit(static_cast<unsigned char>(code[j]))) ++j;
      if (j < code.size() && (code[j] == '.' || std::isalpha(static_cast<unsigned char>(code[j])))) { i = j; continue; }
      const long v = std::stol(code.substr(i, j - i));
      std::string m = line;
      m.replace(i, j - i, std::to_string(v + 1));
      out->push_back({file, ln, line, m, "number " + std::to_string(v) + " -> " + std::to_string(v + 1)});
      i = j;
    }
    // Comparisons.
    for (const auto& [from, to] : kCompare) {
      size_t at = code.find(from);
      if (at != std::string::npos) {
        std::string m = line;
        m.replace(at, std::string(from).size(), to);
        out->push_back({file, ln, line, m, std::string("'") + from + "' -> '" + to + "'"});
      }
    }
    for (const char* op : {"<", ">"}) {
      for (size_t at = code.find(op); at != std::string::npos; at = code.find(op, at + 1)) {
        if ((at + 1 < code.size() && code[at + 1] == '=') || (at > 0 && (code[at - 1] == '<' || code[at - 1] == '>'))) continue;
        std::string m = line;
        m.replace(at, 1, std::string(op) + "=");
        out->push_back({file, ln, line, m, std::string("'") + op + "' -> '" + op + "='"});
        break;
      }
    }
    // Boolean operators.
    std::smatch match;
    static const std::regex kAnd("\\band\\b"), kOr("\\bor\\b");
    if (std::regex_search(code, match, kAnd)) {
      std::string m = line;
      m.replace(static_cast<size_t>(match.position(0)), 3, "or");
      out->push_back({file, ln, line, m, "'and' -> 'or'"});
    }
    if (std::regex_search(code, match, kOr)) {
      std::string m = line;
      m.replace(static_cast<size_t>(match.position(0)), 2, "and");
      out->push_back({file, ln, line, m, "'or' -> 'and'"});
    }
    // Dropped statements: assignments and calls that stand alone on their line.
    static const std::regex kStatement("^\\s*([A-Za-z_][A-Za-z0-9_.:\\[\\]]*\\s*(=[^=]|\\()|local\\s+[A-Za-z_].*=).*$");
    static const std::regex kBlock("\\b(function|then|do|end|else|elseif|repeat|until|return)\\b|[{(]\\s*$");
    if (std::regex_match(code, kStatement) && !std::regex_search(code, kBlock)) {
      out->push_back({file, ln, line, "", "statement dropped"});
    }
  }
}

std::vector<std::string> ReadLines(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

void WriteLines(const fs::path& p, const std::vector<std::string>& lines) {
  std::ofstream out(p, std::ios::trunc);
  for (const auto& l : lines) out << l << "\n";
}

// Whether the game's own tests fail on the rules in `folder` (tests read from `tests_folder`).
// Returns -1 when the mutant does not even load (a stillborn mutant).
int Killed(const std::string& folder, const std::string& tests_folder) {
  scripting::Limits limits;
  limits.call_instructions = 5'000'000;
  limits.load_instructions = 5'000'000;
  std::unique_ptr<scripting::LuaRules> rules;
  if (!scripting::LuaRules::Load(folder, limits, &rules).ok()) return -1;
  for (const auto& file : scripting::ScenarioFiles(tests_folder)) {
    std::vector<scripting::TestResult> results;
    if (!scripting::RunScenarioFile(*rules, file, &results).ok()) return 1;
    for (const auto& r : results)
      if (!r.passed) return 1;
  }
  for (const auto& path : PlaythroughFiles(tests_folder)) {
    std::string diff;
    if (!CheckPlaythrough(*rules, path, &diff).ok() || !diff.empty()) return 1;
  }
  return 0;
}

}  // namespace

int RunMutation(const MutateOptions& o) {
  std::unique_ptr<scripting::LuaRules> original;
  Status st = scripting::LuaRules::Load(o.game, {}, &original);
  if (!st.ok()) {
    std::fprintf(stderr, "plateau: %s\n", st.ToString().c_str());
    return st.script_failure() ? 1 : 2;
  }
  const fs::path folder = original->info().folder;
  const std::string display = original->files().roots.front().display;
  if (Killed(folder.string(), folder.string()) != 0) {
    std::fprintf(stderr, "plateau: %s's own tests fail before any mutation; fix them first\n", display.c_str());
    return 1;
  }
  // Candidate mutants over the game's own Lua files.
  std::vector<Mutant> all;
  std::vector<std::string> lua_files;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".lua") continue;
    const std::string rel = fs::relative(entry.path(), folder).string();
    if (rel.rfind("tests/", 0) == 0) continue;
    lua_files.push_back(rel);
  }
  std::sort(lua_files.begin(), lua_files.end());
  for (const auto& rel : lua_files) Candidates(rel, ReadLines(folder / rel), &all);
  std::vector<Mutant> chosen;
  if (static_cast<int>(all.size()) <= o.max_mutants) chosen = all;
  else
    for (int k = 0; k < o.max_mutants; ++k) chosen.push_back(all[static_cast<size_t>(k) * all.size() / static_cast<size_t>(o.max_mutants)]);

  char tmpl[] = "/tmp/plateau-mutate-XXXXXX";
  const fs::path work = mkdtemp(tmpl);
  const fs::path copy = work / folder.filename();
  fs::copy(folder, copy, fs::copy_options::recursive);
  int killed = 0, stillborn = 0, total = 0;
  std::vector<const Mutant*> survivors;
  for (const Mutant& m : chosen) {
    std::vector<std::string> lines = ReadLines(folder / m.file);
    std::vector<std::string> mutated = lines;
    mutated[static_cast<size_t>(m.line - 1)] = m.after;
    WriteLines(copy / m.file, mutated);
    const int k = Killed(copy.string(), folder.string());
    WriteLines(copy / m.file, lines);
    if (k < 0) {
      ++stillborn;
      continue;
    }
    ++total;
    if (k) ++killed;
    else survivors.push_back(&m);
    if (o.verbose) std::fprintf(stderr, "%s %s:%d: %s\n", k ? "killed  " : "SURVIVED", m.file.c_str(), m.line, m.what.c_str());
  }
  fs::remove_all(work);
  for (const Mutant* m : survivors)
    std::printf("survived: %s/%s:%d: %s\n    %s\n", display.c_str(), m->file.c_str(), m->line, m->what.c_str(),
                m->after.empty() ? ("(dropped) " + m->before).c_str() : m->after.c_str());
  std::printf("%d candidate mutants, %zu run, %d did not load (not counted)\n", static_cast<int>(all.size()),
              chosen.size(), stillborn);
  std::printf("mutation score: %d/%d killed (%.0f%%)\n", killed, total, total ? 100.0 * killed / total : 0.0);
  return 0;
}

}  // namespace plateau

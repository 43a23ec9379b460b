// Mutation testing (see mutate.h).
#include "designer/cli/mutate.h"

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "designer/cli/cli_common.h"
#include "designer/cli/playthrough.h"
#include "host/files.h"
#include "host/text.h"
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

bool IdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Where `word` stands as a whole word in `code`, or npos. (Plain scans: a line is input of any
// length, and std::regex recurses per character.)
size_t FindWord(const std::string& code, const std::string& word, size_t from = 0) {
  for (size_t at = code.find(word, from); at != std::string::npos; at = code.find(word, at + 1))
    if ((at == 0 || !IdentChar(code[at - 1])) && (at + word.size() >= code.size() || !IdentChar(code[at + word.size()])))
      return at;
  return std::string::npos;
}

// An assignment or a call standing alone on its line, opening no block: `x.y[i] = v`,
// `f(a)`, `local n = 3` (what a mutant may drop).
bool StandaloneStatement(const std::string& code) {
  for (const char* kw : {"function", "then", "do", "end", "else", "elseif", "repeat", "until", "return"})
    if (FindWord(code, kw) != std::string::npos) return false;
  size_t last = code.find_last_not_of(" \t");
  if (last != std::string::npos && (code[last] == '{' || code[last] == '(')) return false;
  size_t i = code.find_first_not_of(" \t");
  if (i == std::string::npos || !(std::isalpha(static_cast<unsigned char>(code[i])) || code[i] == '_')) return false;
  if (FindWord(code, "local") == i) {
    i += 5;
    const size_t name = code.find_first_not_of(" \t", i);
    if (name == i || name == std::string::npos || !(std::isalpha(static_cast<unsigned char>(code[name])) || code[name] == '_'))
      return false;
    return code.find('=', name) != std::string::npos;
  }
  while (i < code.size() && (IdentChar(code[i]) || code[i] == '.' || code[i] == ':' || code[i] == '[' || code[i] == ']')) ++i;
  while (i < code.size() && (code[i] == ' ' || code[i] == '\t')) ++i;
  if (i >= code.size()) return false;
  if (code[i] == '(') return true;
  return code[i] == '=' && i + 1 < code.size() && code[i + 1] != '=';
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
      int64_t v = 0;
      std::string ignored;
      // A literal too long for a number the rules could mean is left alone (never a crash).
      if (!ParseInt(code.substr(i, j - i), 0, INT64_MAX - 1, "", &v, &ignored)) {
        i = j;
        continue;
      }
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
    if (const size_t at = FindWord(code, "and"); at != std::string::npos) {
      std::string m = line;
      m.replace(at, 3, "or");
      out->push_back({file, ln, line, m, "'and' -> 'or'"});
    }
    if (const size_t at = FindWord(code, "or"); at != std::string::npos) {
      std::string m = line;
      m.replace(at, 2, "and");
      out->push_back({file, ln, line, m, "'or' -> 'and'"});
    }
    // Dropped statements: assignments and calls that stand alone on their line.
    if (StandaloneStatement(code)) out->push_back({file, ln, line, "", "statement dropped"});
  }
}

// A script of the game's, as lines, read as the loader reads it.
Status ReadLines(const std::string& folder, const std::string& display, const std::string& rel, std::vector<std::string>* lines) {
  std::string text, error;
  if (!ReadGameFile(folder, display, rel, scripting::Runtime::kMaxScriptBytes, &text, &error)) return Status::Input(error);
  lines->clear();
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines->push_back(line);
  return Status::Ok();
}

// A mutant (or the original lines again) into the scratch copy, which this run made itself.
Status WriteLines(const std::string& copy, const std::string& rel, const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  OutputFile out;
  out.path = rel;
  out.inside = copy;
  out.kind = OutputKind::kAny;
  return WriteOutputFile(out, text);
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
  if (!st.ok()) return Fail(st);
  const fs::path folder = original->info().folder;
  const std::string display = original->files().roots.front().display;
  if (Killed(folder.string(), folder.string()) != 0) {
    std::fprintf(stderr, "plateau: %s's own tests fail before any mutation; fix them first\n", display.c_str());
    return 1;
  }
  // Candidate mutants over the game's own Lua files, listed and read as the loader reads them.
  std::vector<Mutant> all;
  std::vector<FolderEntry> entries;
  st = ListGameFiles(folder.string(), display, ListOptions{}, &entries);
  if (!st.ok()) return Fail(st);
  for (const auto& e : entries) {
    const std::string& rel = e.rel;
    if (rel.size() < 5 || rel.compare(rel.size() - 4, 4, ".lua") != 0 || rel.rfind("tests/", 0) == 0) continue;
    if (!e.regular) return Fail(Status::Input(display + "/" + rel + ": refused: " + e.refused + " (mutation testing reads regular files only)"));
    std::vector<std::string> lines;
    st = ReadLines(folder.string(), display, rel, &lines);
    if (!st.ok()) return Fail(st);
    Candidates(rel, lines, &all);
  }
  std::vector<Mutant> chosen;
  if (static_cast<int>(all.size()) <= o.max_mutants) chosen = all;
  else
    for (int k = 0; k < o.max_mutants; ++k) chosen.push_back(all[static_cast<size_t>(k) * all.size() / static_cast<size_t>(o.max_mutants)]);

  // The mutants live in a copy of the folder in a scratch folder of this run's own, removed at
  // the end; the copy holds regular files only (host/files.h), so no write can leave it.
  ScratchFolder work;
  st = work.Create("plateau-mutate");
  if (!st.ok()) return Fail(st);
  const std::string copy = work.path() + "/" + folder.filename().string();
  st = CopyGameFolder(folder.string(), display, "", copy);
  if (!st.ok()) return Fail(st);
  int killed = 0, stillborn = 0, total = 0;
  std::vector<const Mutant*> survivors;
  for (const Mutant& m : chosen) {
    std::vector<std::string> lines;
    st = ReadLines(folder.string(), display, m.file, &lines);
    if (!st.ok()) return Fail(st);
    std::vector<std::string> mutated = lines;
    if (m.line < 1 || static_cast<size_t>(m.line) > mutated.size()) continue;  // the file changed meanwhile
    mutated[static_cast<size_t>(m.line - 1)] = m.after;
    st = WriteLines(copy, m.file, mutated);
    if (!st.ok()) return Fail(st);
    const int k = Killed(copy, folder.string());
    st = WriteLines(copy, m.file, lines);
    if (!st.ok()) return Fail(st);
    if (k < 0) {
      ++stillborn;
      continue;
    }
    ++total;
    if (k) ++killed;
    else survivors.push_back(&m);
    if (o.verbose) std::fprintf(stderr, "%s %s:%d: %s\n", k ? "killed  " : "SURVIVED", m.file.c_str(), m.line, m.what.c_str());
  }
  for (const Mutant* m : survivors)
    std::printf("survived: %s/%s:%d: %s\n    %s\n", display.c_str(), m->file.c_str(), m->line, m->what.c_str(),
                m->after.empty() ? ("(dropped) " + m->before).c_str() : m->after.c_str());
  std::printf("%d candidate mutants, %zu run, %d did not load (not counted)\n", static_cast<int>(all.size()),
              chosen.size(), stillborn);
  std::printf("mutation score: %d/%d killed (%.0f%%)\n", killed, total, total ? 100.0 * killed / total : 0.0);
  return 0;
}

}  // namespace plateau

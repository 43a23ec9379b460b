// Golden playthroughs (see playthrough.h).
#include "designer/playthrough.h"

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "host/json_io.h"
#include "host/render.h"

namespace plateau {
namespace {

void AddBlock(std::vector<std::string>* lines, const std::string& prefix, const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines->push_back(prefix + line);
}

}  // namespace

Status RecordPlaythrough(scripting::LuaRules& rules, const PlaythroughSpec& spec, std::vector<std::string>* lines) {
  lines->clear();
  lines->push_back("# plateau playthrough, format 1 (regenerate with: plateau playthrough " + rules.info().id +
                   " --players " + std::to_string(spec.players) + " --seed " + std::to_string(spec.seed) + " --regen)");
  lines->push_back("game: " + rules.info().id);
  lines->push_back("players: " + std::to_string(spec.players));
  lines->push_back("seed: " + std::to_string(spec.seed));
  lines->push_back("params: " + spec.params.dump());
  State s;
  Status st = rules.NewGame(spec.params, spec.players, spec.seed, &s);
  if (!st.ok()) return st;
  Rng bot(spec.seed * 31 + 7);
  std::vector<int> seats;
  std::vector<Move> legal;
  size_t logged = 0;
  auto events = [&]() {
    for (; logged < s.log.size(); ++logged) {
      const LogEntry& e = s.log[logged];
      if (e.kind == "move") continue;
      lines->push_back("event: " + e.kind + " " + DumpJson(e.detail));
    }
  };
  events();
  for (int move = 1;; ++move) {
    st = rules.ToMove(s, &seats);
    if (!st.ok()) return st;
    if (seats.empty()) break;
    lines->push_back("");
    lines->push_back("state " + std::to_string(move) + ": " + s.Hash());
    for (int v = 0; v < s.player_count; ++v)
      AddBlock(lines, "view " + s.seats[static_cast<size_t>(v)].name + "| ", RenderState(s, v));
    const int seat = seats.front();
    st = rules.LegalMoves(s, seat, &legal);
    if (!st.ok()) return st;
    std::string list;
    for (const Move& m : legal) list += " " + MoveToString(m, *s.cards);
    lines->push_back("legal " + s.seats[static_cast<size_t>(seat)].name + " (" + std::to_string(legal.size()) + "):" + list);
    if (legal.empty()) return Status::Illegal("seat " + std::to_string(seat + 1) + " has no legal move");
    const Move m = legal[bot.Below(static_cast<uint32_t>(legal.size()))];
    lines->push_back("move " + s.seats[static_cast<size_t>(seat)].name + ": " + MoveToString(m, *s.cards));
    st = rules.Apply(&s, seat, m);
    if (!st.ok()) return st;
    events();
    if (move > 100000) return Status::Input("the game does not end");
  }
  ScoreTable scores;
  st = rules.Score(s, &scores);
  if (!st.ok()) return st;
  lines->push_back("");
  lines->push_back("final state: " + s.Hash());
  AddBlock(lines, "score| ", RenderScores(scores));
  return Status::Ok();
}

Status ReadPlaythroughSpec(const std::vector<std::string>& lines, PlaythroughSpec* spec) {
  bool p = false, s = false;
  for (const auto& line : lines) {
    if (line.rfind("players: ", 0) == 0) { spec->players = std::stoi(line.substr(9)); p = true; }
    else if (line.rfind("seed: ", 0) == 0) { spec->seed = std::stoull(line.substr(6)); s = true; }
    else if (line.rfind("params: ", 0) == 0) {
      std::string error;
      if (!ParseJsonLimited(line.substr(8), "params", &spec->params, &error)) return Status::Input(error);
    }
    if (line.rfind("state ", 0) == 0) break;
  }
  if (!p || !s) return Status::Input("playthrough header needs 'players:' and 'seed:' lines");
  return Status::Ok();
}

Status CheckPlaythrough(scripting::LuaRules& rules, const std::string& path, std::string* diff) {
  std::string text, error;
  if (!ReadTextFile(path, 64u << 20, &text, &error)) return Status::Input(error);
  std::vector<std::string> expected;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) expected.push_back(line);
  PlaythroughSpec spec;
  Status st = ReadPlaythroughSpec(expected, &spec);
  if (!st.ok()) return Status::Input(path + ": " + st.message);
  Json resolved;
  st = ResolveParams(rules.info(), spec.params, &resolved);
  if (!st.ok()) return Status::Input(path + ": " + st.message);
  spec.params = resolved;
  std::vector<std::string> actual;
  st = RecordPlaythrough(rules, spec, &actual);
  if (!st.ok()) return st;
  diff->clear();
  for (size_t i = 0; i < std::max(expected.size(), actual.size()); ++i) {
    if (i == 0) continue;  // the comment line
    const std::string e = i < expected.size() ? expected[i] : "(end of file)";
    const std::string a = i < actual.size() ? actual[i] : "(end of game)";
    if (e != a) {
      *diff = path + ":" + std::to_string(i + 1) + ": expected\n    " + e + "\n  got\n    " + a;
      break;
    }
  }
  return Status::Ok();
}

std::vector<std::string> PlaythroughFiles(const std::string& game_folder) {
  std::vector<std::string> files;
  const std::string dir = game_folder + "/tests/playthroughs";
  DIR* d = opendir(dir.c_str());
  if (!d) return files;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.size() > 4 && n.compare(n.size() - 4, 4, ".txt") == 0) files.push_back(dir + "/" + n);
  }
  closedir(d);
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace plateau

// Golden playthroughs (see playthrough.h).
#include "designer/cli/playthrough.h"

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>

#include "designer/cli/cli_common.h"
#include "host/files.h"
#include "host/json_io.h"
#include "host/loader.h"
#include "host/limits.h"
#include "host/render.h"
#include "host/text.h"

namespace plateau {
namespace {

void AddBlock(std::vector<std::string>* lines, const std::string& prefix, const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines->push_back(prefix + line);
}

// Where two data values differ, as `--set` paths (list elements by id when they have one).
void DataDiff(const Json& a, const Json& b, const std::string& path, std::vector<std::string>* out) {
  if (a == b) return;
  if (a.is_object() && b.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it)
      DataDiff(it.value(), b.contains(it.key()) ? b.at(it.key()) : Json(), path + "." + it.key(), out);
    for (auto it = b.begin(); it != b.end(); ++it)
      if (!a.contains(it.key())) out->push_back(path + "." + it.key());
    return;
  }
  if (a.is_array() && b.is_array() && a.size() == b.size()) {
    for (size_t i = 0; i < a.size(); ++i) {
      const Json& e = a[i];
      const bool named = e.is_object() && e.contains("id") && e["id"].is_string();
      DataDiff(e, b[i], path + "." + (named ? e["id"].get<std::string>() : std::to_string(i)), out);
    }
    return;
  }
  out->push_back(path);
}

}  // namespace

Json PlaythroughData(const scripting::LuaRules& rules) {
  Json out = Json::object();
  for (const auto& [name, doc] : rules.files().data) {
    Json d = doc;
    if (d.is_object())
      for (auto it = d.begin(); it != d.end();) it = it.key().rfind('$', 0) == 0 ? d.erase(it) : std::next(it);
    out[name] = d;
  }
  return out;
}

Status RecordPlaythrough(scripting::LuaRules& rules, const PlaythroughSpec& spec, std::vector<std::string>* lines) {
  lines->clear();
  lines->push_back("# plateau playthrough, format 1 (regenerate with: plateau playthrough " + rules.info().id +
                   " --players " + std::to_string(spec.players) + " --seed " + std::to_string(spec.seed) + " --regen)");
  lines->push_back("game: " + rules.info().id);
  lines->push_back("players: " + std::to_string(spec.players));
  lines->push_back("seed: " + std::to_string(spec.seed));
  lines->push_back("params: " + spec.params.dump());
  if (spec.record_data) lines->push_back("data: " + DumpJson(PlaythroughData(rules)));
  State s;
  Status st = rules.NewGame(spec.params, spec.players, spec.seed, &s);
  if (!st.ok()) return st;
  // The data line says what the game was played with; a replay with the recorded data as
  // overrides must hash its states as the recording did.
  s.data_overrides = Json();
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
  spec->record_data = false;
  for (const auto& line : lines) {
    std::string error;
    if (line.rfind("players: ", 0) == 0) {
      int64_t n = 0;
      if (!ParseInt(line.substr(9), 1, limits::kSeats, "players", &n, &error)) return Status::Input(error);
      spec->players = static_cast<int>(n);
      p = true;
    } else if (line.rfind("seed: ", 0) == 0) {
      uint64_t seed = 0;
      if (!ParseUint64(line.substr(6), "seed", &seed, &error)) return Status::Input(error);
      spec->seed = seed;
      s = true;
    }
    else if (line.rfind("params: ", 0) == 0) {
      std::string error;
      if (!ParseJsonLimited(line.substr(8), "params", &spec->params, &error)) return Status::Input(error);
    } else if (line.rfind("data: ", 0) == 0) {
      std::string error;
      if (!ParseJsonLimited(line.substr(6), "data", &spec->data, &error)) return Status::Input(error);
      if (!spec->data.is_object()) return Status::Input("the 'data:' line must hold an object: {data file: document}");
      spec->record_data = true;
    }
    if (line.rfind("state ", 0) == 0) break;
  }
  if (!p || !s) return Status::Input("playthrough header needs 'players:' and 'seed:' lines");
  return Status::Ok();
}

Status CheckPlaythrough(scripting::LuaRules& rules, const std::string& path, std::string* diff, std::string* note) {
  if (note) note->clear();
  std::string text, error;
  if (!ReadFileOfGame(rules, path, 64u << 20, &text, &error)) return Status::Input(error);
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
  // Data edited since the recording: replay with the recorded data, each top-level field that
  // differs overridden as `--set <data>.<field>=<recorded value>` would.
  scripting::LuaRules* play = &rules;
  std::unique_ptr<scripting::LuaRules> recorded;
  if (spec.record_data) {
    const Json current = PlaythroughData(rules);
    if (current != spec.data) {
      const std::string regen = " (regenerate it: plateau playthrough " + rules.info().id + " --players " +
                                std::to_string(spec.players) + " --seed " + std::to_string(spec.seed) + " --regen)";
      std::vector<DataOverride> sets = rules.data_overrides();
      for (auto it = current.begin(); it != current.end(); ++it)
        if (!spec.data.contains(it.key()))
          return Status::Input(path + ": recorded without the data file '" + it.key() + "'" + regen);
      for (auto it = spec.data.begin(); it != spec.data.end(); ++it) {
        if (!current.contains(it.key()))
          return Status::Input(path + ": recorded with a data file '" + it.key() + "' the game no longer has" + regen);
        const Json& now = current.at(it.key());
        if (!now.is_object() || !it.value().is_object()) {
          if (now != it.value()) return Status::Input(path + ": data file '" + it.key() + "' changed shape" + regen);
          continue;
        }
        for (auto f = now.begin(); f != now.end(); ++f)
          if (!it.value().contains(f.key()))
            return Status::Input(path + ": data " + it.key() + "." + f.key() + " is new since the recording" + regen);
        for (auto f = it.value().begin(); f != it.value().end(); ++f)
          if (!now.contains(f.key()) || now.at(f.key()) != f.value()) sets.push_back({it.key() + "." + f.key(), f.value()});
      }
      st = scripting::LuaRules::Load(rules.files().roots.front().folder, rules.runtime().limits(), sets, &recorded);
      if (!st.ok()) {
        st.message = path + ": the data it was recorded with no longer load" + regen + ": " + st.message;
        return st;
      }
      play = recorded.get();
      if (note) {
        std::vector<std::string> where;
        for (auto it = spec.data.begin(); it != spec.data.end(); ++it)
          DataDiff(it.value(), current.at(it.key()), it.key(), &where);
        std::string list;
        for (size_t i = 0; i < where.size() && i < 5; ++i) list += (i ? ", " : "") + where[i];
        if (where.size() > 5) list += " and " + std::to_string(where.size() - 5) + " more";
        *note = "replayed with the data it was recorded with: the game's data differ at " + list;
      }
    }
  }
  std::vector<std::string> actual;
  st = RecordPlaythrough(*play, spec, &actual);
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
  return GameSubfolderFiles(game_folder, "tests/playthroughs", ".txt");
}

}  // namespace plateau

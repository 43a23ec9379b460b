// The `plateau` command line: list, validate, play (play.cc), replay and score games, simulate and sweep
// them (report.cc), merge a simulation run in slices (merge.cc), scaffold a variant
// (new_game.cc), record golden playthroughs, watch a game while its rules are edited (watch.cc)
// and run the tests (scenarios, conformance, playthroughs, mutation: mutate.cc).
// Exit codes: 0 ok, 1 a rule script failed, 2 bad input (files, moves, arguments).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <iostream>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <thread>

#include "host/bots.h"
#include "host/conformance.h"
#include "host/files.h"
#include "host/json_io.h"
#include "host/render.h"
#include "host/replay.h"
#include "host/schema.h"
#include "host/simulate.h"
#include "host/text.h"
#include "scripting/lua_rules.h"
#include "scripting/test_runner.h"
#include "designer/cli/watch.h"
#include "designer/studio/server.h"
#include "designer/cli/playthrough.h"
#include "designer/cli/mutate.h"
#include "designer/cli/cli_common.h"
#include "designer/cli/report.h"
#include "designer/cli/merge.h"
#include "designer/cli/tune.h"
#include "designer/cli/new_game.h"
#include "designer/cli/lint.h"
#include "designer/cli/play.h"
#include "designer/cli/test_report.h"
#include "designer/cli/print.h"
#include "scripting/reload.h"

namespace plateau {
namespace {

using scripting::LuaRules;

int CmdList() {
  for (const auto& id : ListGames()) {
    GameFiles files;
    Status st = LoadGameFiles(id, &files);
    if (!st.ok()) {
      std::printf("%-22s (invalid: %s)\n", id.c_str(), st.message.substr(0, 80).c_str());
      continue;
    }
    if (files.info.abstract) {
      // Listed so modders find the bases they can extend; it is not a game to play.
      std::printf("%-22s %s, abstract base for other games (not playable)\n", id.c_str(), files.info.name.c_str());
      continue;
    }
    std::printf("%-22s %s, %d-%d players%s\n", id.c_str(), files.info.name.c_str(), files.info.min_players,
                files.info.max_players, files.info.extends.empty() ? "" : (", extends " + files.info.extends).c_str());
  }
  return 0;
}

// Coverage games of plateau validate: seeded games with every bot kind at every player count
// until every card has been placed and every score row has scored (or the cap is reached).
// A rule that errs only on some tables (a Lua error behind a short-circuited `and`) is then
// found by validate, not by the modder's players. Deterministic: a count of games, never a time.
constexpr int kCoverageMaxGames = 36;

struct Coverage {
  int games = 0;
  std::vector<bool> placed;           // by card id
  std::map<std::string, bool> rows;   // score row -> scored non-zero in some game
  bool has_grids = false;
};

void NoteCoverage(const State& s, const ScoreTable& scores, Coverage* c) {
  for (const auto& [key, grid] : s.grids) {
    c->has_grids = true;
    std::vector<Coord> cells;
    grid.OccupiedCells(&cells);
    for (const auto& at : cells) {
      const Cell* cell = grid.Get(at.row, at.col);
      if (cell && !cell->empty() && cell->item >= 0 && static_cast<size_t>(cell->item) < c->placed.size())
        c->placed[static_cast<size_t>(cell->item)] = true;
    }
  }
  for (const ScoreLine& line : scores.lines)
    for (const auto& [row, points] : line.breakdown) {
      bool& seen = c->rows[row];
      seen = seen || points != 0;
    }
}

bool Covered(const Coverage& c) {
  if (c.has_grids)
    for (bool p : c.placed)
      if (!p) return false;
  for (const auto& [row, seen] : c.rows)
    if (!seen) return false;
  return true;
}

// "a, b, c" of the names not reached, at most 8.
std::string Missing(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < 8; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > 8) out += ", ... (" + std::to_string(names.size()) + " in all)";
  return out;
}

int CmdValidate(const std::string& game) {
  std::unique_ptr<LuaRules> rules;
  Status st = LoadRules(game, &rules);
  if (!st.ok()) return Fail(st);
  Json params;
  st = ResolveParams(rules->info(), Json::object(), &params);
  if (!st.ok()) return Fail(st);
  // Every player count the manifest allows must be dealt: a deck too small for 6 players is
  // refused here, not at the first 6-player table.
  for (int n = rules->info().min_players; n <= rules->info().max_players; ++n) {
    State probe;
    st = rules->NewGame(params, n, 1, &probe);
    if (!st.ok()) {
      // The draft names the card data and the counts; the context says why validate tried it.
      st.context += std::string(st.context.empty() ? "" : "; ") + "validate starts a game at every player count the manifest allows (" +
                    std::to_string(rules->info().min_players) + " to " + std::to_string(rules->info().max_players) + ")";
      return Fail(st);
    }
  }
  // Every game below is the one `plateau play` plays with the same seed, players and bots (the
  // bots seeded as play seeds them), so the command a failure names replays it exactly.
  const auto replay = [&game](int players, int seed, const std::string& kind) {
    return "plateau play " + game + " --players " + std::to_string(players) + " --seed " + std::to_string(seed) +
           " --bots " + kind;
  };
  const auto seat_seed = [](int seed, int seat) { return static_cast<uint64_t>(seed) * 31 + static_cast<uint64_t>(seat); };
  // A quick smoke game: defaults, two players if possible, random moves to the end.
  const int players = std::max(rules->info().min_players, std::min(2, rules->info().max_players));
  State state;
  const bool loaded = st.ok();
  if (st.ok()) st = rules->NewGame(params, players, 1, &state);
  std::vector<std::unique_ptr<Bot>> owned;
  std::vector<Bot*> bots;
  std::string error;
  for (int i = 0; i < players; ++i) {
    owned.push_back(MakeBot("random", seat_seed(1, i), &error));
    bots.push_back(owned.back().get());
  }
  PlayResult result;
  if (st.ok()) st = PlayOut(*rules, &state, bots, &result);
  if (!st.ok()) {
    if (loaded)
      st.context += std::string(st.context.empty() ? "" : "; ") + "validate's first game: " + std::to_string(players) +
                    " players, random bots, seed 1 (" + replay(players, 1, "random") + ")";
    return Fail(st);
  }
  // Said once every seeded game below has run too: "valid" printed before a later game fails
  // read as a pass followed by a contradiction.
  char first_game[256];
  std::snprintf(first_game, sizeof first_game, "%s: manifest, data and rules are valid; a %d-player random game ran %d moves to the end\n",
                rules->info().id.c_str(), players, result.moves);
  // Coverage: game k has seed k, the bot kind k mod 4 and the player count min + k mod span.
  const std::vector<std::string> kinds = {"random", "greedy", "heuristic", "mcts:iters=4:depth=10"};
  const int lo = rules->info().min_players, span = rules->info().max_players - lo + 1;
  Coverage cov;
  cov.placed.assign(rules->files().cards ? rules->files().cards->size() : 0, false);
  NoteCoverage(state, result.scores, &cov);
  const int at_least = std::max<int>(static_cast<int>(kinds.size()), span);
  for (int k = 1; k <= kCoverageMaxGames && (k <= at_least || !Covered(cov)); ++k) {
    const int n = lo + (k - 1) % span;
    const std::string& kind = kinds[static_cast<size_t>(k - 1) % kinds.size()];
    State s;
    st = rules->NewGame(params, n, static_cast<uint64_t>(k), &s);
    std::vector<std::unique_ptr<Bot>> own;
    std::vector<Bot*> seat_bots;
    for (int i = 0; i < n && st.ok(); ++i) {
      own.push_back(MakeBot(kind, seat_seed(k, i), &error, &rules->info()));
      if (!own.back()) st = Status::Input("bot " + kind + ": " + error);
      else seat_bots.push_back(own.back().get());
    }
    PlayResult r;
    if (st.ok()) st = PlayOut(*rules, &s, seat_bots, &r);
    if (!st.ok()) {
      st.context += std::string(st.context.empty() ? "" : "; ") + "validate's coverage game " + std::to_string(k) + ": " +
                    std::to_string(n) + " players, " + kind + " bots, seed " + std::to_string(k) +
                    " (" + replay(n, k, kind) + ")";
      return Fail(st);
    }
    NoteCoverage(s, r.scores, &cov);
    cov.games = k;
  }
  std::vector<std::string> unplaced, unscored;
  int placed = 0, scored = 0;
  for (size_t c = 0; c < cov.placed.size(); ++c) {
    if (cov.placed[c]) ++placed;
    else unplaced.push_back(rules->files().cards->Name(static_cast<CardId>(c)));
  }
  for (const auto& [row, seen] : cov.rows) {
    if (seen) ++scored;
    else unscored.push_back(row);
  }
  std::fputs(first_game, stdout);
  std::printf("coverage: %d seeded games (the game above, then seeds 1-%d by turns with random, greedy, heuristic and "
              "mcts bots at %d to %d players):",
              cov.games + 1, cov.games, lo, rules->info().max_players);
  if (cov.has_grids && !cov.placed.empty()) std::printf(" %d of %zu cards placed,", placed, cov.placed.size());
  std::printf(" %d of %zu score rows scored\n", scored, cov.rows.size());
  if (cov.has_grids && !unplaced.empty())
    std::fprintf(stderr, "warning: never placed in %d games: %s\n", cov.games + 1, Missing(unplaced).c_str());
  if (!unscored.empty())
    std::fprintf(stderr,
                 "warning: never scored in %d games: %s (a row no rule fills, or a rule that scores only on rare "
                 "tables: write a scenario test that reaches it)\n",
                 cov.games + 1, Missing(unscored).c_str());
  // Lint findings are warnings here, where luacheck is installed: plateau lint is the command
  // that fails on them.
  // A lint that cannot finish in 20 s is reported, not waited for.
  const std::string luacheck = FindLuacheck();
  std::vector<std::string> findings;
  int files = 0;
  const Status lint = luacheck.empty() ? Status::Ok() : LintGame(luacheck, game, &findings, &files, 20);
  if (!lint.ok()) std::fprintf(stderr, "warning: lint: %s\n", lint.message.c_str());
  if (!findings.empty()) {
    for (const std::string& f : findings) std::fprintf(stderr, "warning: %s\n", f.c_str());
    std::fprintf(stderr, "warning: %zu lint finding%s (plateau lint %s)\n", findings.size(), findings.size() == 1 ? "" : "s",
                 game.c_str());
  }
  return 0;
}

// Why a replay may not reach a save: its log says the rules were hot-reloaded during the game
// (a replay runs every move under today's rules), or the files changed since it was saved.
std::string RulesChangeNote(const State& saved, const std::string& saved_rules, const LuaRules& rules) {
  // A save is input: a field of the wrong type reads as missing.
  auto text = [](const Json& o, const char* key) {
    return o.is_object() && o.contains(key) && o[key].is_string() ? o[key].get<std::string>() : std::string("?");
  };
  std::string note;
  for (const LogEntry& e : saved.log)
    if (e.kind == "reload" && e.detail.is_object())
      note += "  the rules were reloaded at move " + (e.detail.contains("move") ? DumpJson(e.detail["move"]) : "?") +
              " (rules " + text(e.detail, "from") + " -> " + text(e.detail, "to") + ")\n";
  if (!note.empty())
    return note + "  a replay plays every move under the rules as they are now (" + rules.fingerprint() +
           "), so the moves before a reload ran under rules it no longer has\n";
  if (saved_rules.empty() || saved_rules == rules.fingerprint()) return "";
  return "  the game's rules or data changed since it was saved (rules " + saved_rules + " then, " + rules.fingerprint() +
         " now)\n";
}

// plateau replay <game> <save.json>: rebuilds the game from its seed and move log and checks
// it reaches the saved state exactly.
int CmdReplay(const std::string& game, const std::string& path) {
  std::unique_ptr<LuaRules> rules;
  State saved, replayed;
  std::string saved_rules;
  Status st = LoadRulesAndSave(game, path, &rules, &saved, &saved_rules, /*rebuild=*/false);
  if (!st.ok()) return Fail(st);
  std::vector<LoggedMove> moves;
  st = MovesOfLog(saved, &moves);
  if (st.ok()) st = Replay(*rules, saved, moves, &replayed);
  if (!st.ok()) {
    st.message = path + ": " + st.message;
    return Fail(st);
  }
  if (replayed.Hash() != saved.Hash()) {
    std::fprintf(stderr, "plateau: %s: replay of %zu moves reached state %s, but the save holds %s\n%s", path.c_str(), moves.size(),
                 replayed.Hash().c_str(), saved.Hash().c_str(), RulesChangeNote(saved, saved_rules, *rules).c_str());
    return 1;
  }
  std::printf("replay ok: %zu moves from seed %llu reach state %s\n", moves.size(),
              static_cast<unsigned long long>(saved.seed), saved.Hash().c_str());
  return 0;
}

// A Lua string literal for `text` (card ids and names in a generated test).
// A Lua string literal holding exactly `text` (host/text.h's one way into generated code).
std::string LuaQuote(const std::string& text) { return "\"" + LuaStringBody(text) + "\""; }

// A table key: `name` when it is a Lua name, else ["..."].
std::string LuaKey(const std::string& key) {
  static const std::set<std::string> kReserved = {"and", "break", "do", "else", "elseif", "end", "false", "for",
                                                  "function", "goto", "if", "in", "local", "nil", "not", "or",
                                                  "repeat", "return", "then", "true", "until", "while"};
  bool name = !key.empty() && !std::isdigit(static_cast<unsigned char>(key[0])) && !kReserved.count(key);
  for (unsigned char c : key) name = name && (std::isalnum(c) || c == '_');
  return name ? key : "[" + LuaQuote(key) + "]";
}

// `plateau score --as-test`: the board as a scenario test (board{} and one expect_score per
// player) holding what the rules score now, with the game's explanation of each row as
// comments, for the modder to check against the cards' texts before keeping it.
void PrintScoreAsTest(const std::string& game, const std::string& board_path, const Json& board,
                      const ScoreTable& scores, const State& state, const Json* why) {
  const std::string file = std::filesystem::path(board_path).filename().string();
  std::printf("-- A scenario test of %s from %s, written by `plateau score --as-test`. The numbers are\n"
              "-- what the rules score now: check each one against the cards' texts (the comments say what\n"
              "-- each rule counted) before keeping the test in the game's tests/ folder (a file ending\n"
              "-- _test.lua; `plateau test %s` runs it).\n",
              game.c_str(), file.c_str(), game.c_str());
  std::printf("test(%s, function()\n  local g = board{\n", LuaQuote(file + ": each player's score").c_str());
  for (const auto& p : board["players"]) {
    std::printf("    { name = %s, grid = {\n", LuaQuote(p.value("name", std::string("?"))).c_str());
    for (const auto& row : p["grid"]) {
      std::string cells;
      for (const auto& c : row) cells += (cells.empty() ? "" : ", ") + (c.is_string() ? LuaQuote(c.get<std::string>()) : "nil");
      std::printf("      { %s },\n", cells.c_str());
    }
    std::printf("    } },\n");
  }
  if (board.contains("neutral") && board["neutral"].is_object() && !board["neutral"].empty()) {
    std::string cards;
    for (auto it = board["neutral"].begin(); it != board["neutral"].end(); ++it)
      cards += (cards.empty() ? "" : ", ") + LuaKey(it.key()) + " = " + it->dump();
    std::printf("    neutral = { %s },\n", cards.c_str());
  }
  std::printf("  }\n");
  for (const auto& line : scores.lines) {
    if (state.seats[static_cast<size_t>(line.seat)].kind != "player") continue;
    // The seat's part of the explanation: from its "<name>: N points" line to the next seat's.
    if (why) {
      std::printf("  -- %s: how each row was scored\n", TerminalText(line.name).c_str());
      bool mine = false;
      for (const auto& l : *why) {
        if (!l.is_string()) continue;
        const std::string text = l.get<std::string>();
        if (!text.empty() && text[0] != ' ') mine = text.rfind(line.name + ": ", 0) == 0;
        // One comment line each: a script's newline shown as \n can end no comment.
        else if (mine) std::printf("  --%s\n", TerminalText(text).c_str());
      }
    }
    std::string rows;
    for (const auto& [k, v] : line.breakdown) rows += (rows.empty() ? "" : ", ") + LuaKey(k) + " = " + std::to_string(v);
    std::printf("  expect_score(g, %s, %lld, { %s })\n", LuaQuote(line.name).c_str(), static_cast<long long>(line.total),
                rows.c_str());
  }
  std::printf("end)\n");
}

// A board file (`plateau score`'s, and the files of a game's tests/boards/ that `plateau test`
// scores) read into a state of `rules`: the schema, the game it names, the player count, then
// the grids or the map. `full`: a grid board must fill the frame. Errors name the file.
Status ReadBoard(LuaRules& rules, const std::string& game, const std::string& board_path,
                 const std::vector<std::string>& sets, bool full, Json* board_out, State* state, bool* position_out) {
  Json& board = *board_out;
  std::string text, error;
  if (!ReadFileOfGame(rules, board_path, JsonLimits{}.max_bytes, &text, &error) ||
      !ParseJsonLimited(text, board_path, &board, &error))
    return Status::Input(error);
  std::vector<std::string> errors;
  const bool position = rules.files().tiles != nullptr || rules.files().regions != nullptr;
  *position_out = position;
  if (!Schemas(&error).Validate(position ? "position" : "board", board, board_path, &errors))
    return Status::Input(errors.front());
  if (board.contains("game") && board["game"] != rules.info().id && board["game"] != game)
    return Status::Input(board_path + ": at /game: board is for '" + board["game"].get<std::string>() + "', not '" +
                         rules.info().id + "'");
  const int board_players = static_cast<int>(board["players"].size());
  if (board_players < rules.info().min_players || board_players > rules.info().max_players)
    return Status::Input(board_path + ": at /players: " + std::to_string(board_players) + " players, but " +
                         rules.info().id + " is for " + std::to_string(rules.info().min_players) + " to " +
                         std::to_string(rules.info().max_players));
  std::vector<std::string> names;
  std::vector<std::vector<std::vector<std::string>>> grids;
  for (size_t i = 0; i < board["players"].size(); ++i) {
    const Json& p = board["players"][i];
    names.push_back(p.value("name", "P" + std::to_string(i + 1)));
    if (!position) grids.push_back(p["grid"].get<std::vector<std::vector<std::string>>>());
  }
  Json given;
  Status st = ParseSets(sets, &given);
  if (!st.ok()) return st;
  if (position) st = rules.PositionState(board, board_path, given, state);
  else st = rules.BoardState(names, grids, board.value("neutral", Json::object()), state, given, full);
  if (!st.ok() && st.message.rfind(board_path, 0) != 0) st.message = board_path + ": " + st.message;
  return st;
}

int CmdScore(const std::string& game, const std::string& board_path, const std::string& format,
             const std::vector<std::string>& sets, bool explain, bool as_test) {
  if (format != "text" && format != "json") return Fail(Status::Input("--format must be text or json"));
  if (as_test && format != "text") return Fail(Status::Input("--as-test prints a Lua test: it takes no --format json"));
  std::unique_ptr<LuaRules> rules;
  Status st = LoadRules(game, &rules);
  if (!st.ok()) return Fail(st);
  Json board;
  State state;
  bool position = false;
  // --explain and --as-test also take a board smaller than the frame, as a test's board{} is.
  st = ReadBoard(*rules, game, board_path, sets, /*full=*/!(explain || as_test), &board, &state, &position);
  if (!st.ok()) return Fail(st);
  if (as_test && position)
    return Fail(Status::Input("--as-test writes a test of a finished grid board (board{}); " + rules->info().id +
                              " is played on a map: write its tests with new_game and moves"));
  ScoreTable scores;
  rules->SetExplain(explain || as_test);
  st = rules->Score(state, &scores);
  if (!st.ok()) return Fail(st);
  const Json* why = scores.extra.contains("explain") && scores.extra["explain"].is_array() ? &scores.extra["explain"] : nullptr;
  if (as_test) {
    PrintScoreAsTest(game, board_path, board, scores, state, why);
    return 0;
  }
  if (explain && !why)
    std::fprintf(stderr, "plateau: %s's score gives no explanation (its score hook puts none in extra.explain when "
                 "ctx.explain is set)\n", rules->info().id.c_str());
  if (format == "json") {
    nlohmann::ordered_json out;
    out["players"] = nlohmann::ordered_json::array();
    for (const auto& line : scores.lines) {
      if (state.seats[static_cast<size_t>(line.seat)].kind != "player") continue;
      nlohmann::ordered_json b = nlohmann::ordered_json::object();
      for (const auto& [k, v] : line.breakdown) b[k] = v;
      out["players"].push_back({{"name", line.name}, {"total", line.total}, {"breakdown", b}});
    }
    if (!scores.extra.empty()) out["extra"] = nlohmann::ordered_json::parse(scores.extra.dump());
    std::printf("%s\n", out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace).c_str());
  } else {
    std::printf("%s", RenderScores(scores).c_str());
    // Lists of records in `extra` (Safari's final_features) read better one per line.
    for (auto it = scores.extra.begin(); it != scores.extra.end(); ++it) {
      if (!it->is_array() || it->empty() || !it->front().is_object()) continue;
      std::printf("%s:\n", TerminalText(it.key()).c_str());
      for (const auto& rec : *it) {
        std::string line;
        for (auto f = rec.begin(); f != rec.end(); ++f)
          line += (line.empty() ? "" : "; ") + f.key() + " " + (f->is_string() ? f->get<std::string>() : f->dump());
        std::printf("  %s\n", TerminalText(line).c_str());  // the rules' own text
      }
    }
    if (why) {
      std::printf("\nhow each row was scored:\n");
      for (const auto& line : *why)  // the rules' own text: no escape sequence reaches the terminal
        if (line.is_string()) std::printf("%s\n", TerminalText(line.get<std::string>()).c_str());
    }
  }
  return 0;
}

// plateau playthrough <game> --seed S [--players N] [--regen]: records a golden playthrough.
int CmdPlaythrough(const std::string& game, int players, uint64_t seed, bool regen, const std::vector<std::string>& sets) {
  // A golden playthrough replays against the game's own files: it records parameters, not data.
  if (!g_data_sets.empty())
    return Fail(Status::Input("--set " + g_data_sets.front().path +
                              ": a golden playthrough is recorded with the game's own data (parameters may be set)"));
  std::unique_ptr<LuaRules> rules;
  Status st = LoadRules(game, &rules);
  if (!st.ok()) return Fail(st);
  PlaythroughSpec spec;
  spec.players = players ? players : std::max(rules->info().min_players, std::min(2, rules->info().max_players));
  spec.seed = seed;
  Json given;
  st = ParseSets(sets, &given);
  if (st.ok()) st = ResolveParams(rules->info(), given, &spec.params);
  if (!st.ok()) return Fail(st);
  std::vector<std::string> lines;
  st = RecordPlaythrough(*rules, spec, &lines);
  if (!st.ok()) return Fail(st);
  // Written inside the game's own folder, as its files are read: no link below it is followed.
  const std::string rel = "tests/playthroughs/seed-" + std::to_string(seed) + "-" + std::to_string(spec.players) + "p.txt";
  const std::string& folder = rules->files().roots.front().folder;
  const std::string& display = rules->files().roots.front().display;
  const std::string path = display + "/" + rel;
  std::string existing, error;
  ReadFailure failure = ReadFailure::kNone;
  if (!regen && ReadGameFile(folder, display, rel, 64u << 20, &existing, &error, &failure))
    return Fail(Status::Input(path + " exists; use --regen to replace it"));
  if (failure == ReadFailure::kRefused) return Fail(Status::Input(error));
  st = MakeOutputFolder("tests/playthroughs", "", folder, display);
  if (!st.ok()) return Fail(st);
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  OutputFile out;
  out.path = rel;
  out.inside = folder;
  out.inside_display = display;
  out.kind = OutputKind::kTranscript;
  out.force = g_force;
  st = WriteOutputFile(out, text);
  if (!st.ok()) return Fail(st);
  std::printf("wrote %s (%zu lines)\n", path.c_str(), lines.size());
  return 0;
}

// plateau test [<game>...] [--scenario FILE]: loads each game (schema validation and the
// rules' shape), then runs the conformance checks, its scenario tests and its golden
// playthroughs. Every case is also kept in a TestLog: `--junit FILE` writes it as JUnit XML,
// `--format json` prints it as JSON instead of the text lines.
int CmdTest(std::vector<std::string> games, const std::vector<std::string>& scenarios, int conformance_games,
            bool scenarios_only, bool conformance_only, bool after_reload, bool keep_going, const std::string& junit,
            const std::string& format, int test_threads) {
  if (format != "text" && format != "json") return Fail(Status::Input("--format: text or json, not '" + format + "'"));
  // A report that cannot be written is refused before any test runs (nothing is written).
  if (!junit.empty()) {
    Status st = CheckOutputFile(UserOutput(junit, OutputKind::kJUnit, "--junit"));
    if (!st.ok()) return Fail(st);
  }
  const bool text = format == "text";
  const bool all_games = games.empty();
  if (all_games) games = ListGames();
  int passed = 0, failed = 0, worst = 0;
  TestLog log;
  std::string current;  // the game being tested, for the log
  auto clock = std::chrono::steady_clock::now();
  // Seconds since the last case ended: each case's time.
  auto lap = [&] {
    const auto now = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(now - clock).count();
    clock = now;
    return s;
  };
  // `seconds` < 0: the time since the last case.
  int skipped = 0;
  auto pass = [&](const std::string& kind, const std::string& name, const std::string& file, const std::string& line,
                  double seconds = -1) {
    if (text) std::printf("PASS %s\n", line.c_str());
    std::fflush(stdout);  // each case is seen as it ends, also through a pipe
    log.Add({current, kind, name, file, true, false, "", seconds < 0 ? lap() : seconds});
    ++passed;
  };
  // One failure line (and its detail) per failed check; the exit code keeps the worst kind.
  auto fail_case = [&](const std::string& kind, const std::string& name, const std::string& file, const std::string& what,
                       const std::string& detail, int code, double seconds = -1) {
    if (text) std::printf("FAIL %s\n  %s\n%s", what.c_str(), detail.c_str(), FolderNote(what + " " + detail).c_str());
    std::fflush(stdout);
    log.Add({current, kind, name, file, false, false, detail, seconds < 0 ? lap() : seconds});
    ++failed;
    worst = std::max(worst, code);
  };
  // A case that needed a hook already known to run past the wall-clock backstop: not run again
  // (the failure that found it is reported once, where it happened).
  auto skip_case = [&](const std::string& kind, const std::string& name, const std::string& file, const std::string& what,
                       const std::string& why, double seconds = -1) {
    if (text) std::printf("SKIP %s\n  %s\n", what.c_str(), why.c_str());
    std::fflush(stdout);
    log.Add({current, kind, name, file, false, true, why, seconds < 0 ? lap() : seconds});
    ++skipped;
  };
  for (const auto& game : games) {
    current = game;
    lap();
    // An abstract base cannot be played: the games that extend it test its modules.
    GameFiles game_files;
    if (LoadGameFiles(game, &game_files).ok() && game_files.info.abstract) {
      if (!all_games && text) std::printf("SKIP %s: an abstract base game is tested through the games that extend it\n", game.c_str());
      continue;
    }
    std::unique_ptr<LuaRules> rules;
    Status st = LoadRules(game, &rules);
    if (!st.ok()) {
      fail_case("load", "manifest, data and rules load", "", game + ": does not load", st.ToString(), ExitCode(st));
      continue;
    }
    current = rules->info().id;
    rules->set_skip_after_backstop(true);
    if (text) std::printf("== %s: manifest, data and rules load\n", rules->info().id.c_str());
    if (after_reload) {
      // The same suites, on rules hot-reloaded from the same files over a game in progress.
      Json params;
      State table;
      st = ResolveParams(rules->info(), Json::object(), &params);
      const int players = std::max(rules->info().min_players, std::min(2, rules->info().max_players));
      if (st.ok()) st = rules->NewGame(params, players, 1, &table);
      if (st.ok()) {
        scripting::ReloadResult r = scripting::ReloadRules(game, scripting::Limits{}, &table, &rules);
        if (!r.ok) st = r.error;
      }
      if (!st.ok()) {
        fail_case("load", "hot reload of the same files", "", game + ": hot reload of the same files failed",
                  st.ToString(), ExitCode(st));
        continue;
      }
      if (text) std::printf("== %s: rules hot-reloaded from the same files; running the suites on them\n", rules->info().id.c_str());
    }
    if (!scenarios_only && conformance_games > 0) {
      ConformanceSpec spec;
      spec.games = conformance_games;
      spec.max_failures = keep_going ? 10 : 1;
      // The games run on every core, each thread on rules loaded from the same files (after a
      // hot reload, on the reloaded rules alone: that is what the suite tests then).
      spec.threads = after_reload ? 1 : test_threads;
      ConformanceReport report;
      st = RunConformance(*rules, game, spec, &report, [&](std::unique_ptr<Rules>* out) {
        std::unique_ptr<LuaRules> more;
        Status made = LoadRules(game, &more);
        if (made.ok()) more->set_skip_after_backstop(true);
        *out = std::move(more);
        return made;
      });
      if (!st.ok()) return Fail(st);
      if (report.failures.empty()) {
        char line[256];
        std::snprintf(line, sizeof line, "%s: conformance over %d seeded random games (%d moves)",
                      rules->info().id.c_str(), report.games, report.moves);
        pass("conformance", "conformance over " + std::to_string(report.games) + " seeded random games", "", line);
      } else {
        // Identical failures (the same check, the same first line: --keep-going finds the same
        // bug in game after game) are printed once, with how many games and their seeds. One
        // case per distinct failure; the run counts as one failure, as before.
        struct Group {
          const ConformanceFailure* first;
          std::vector<std::string> seeds;
        };
        std::vector<std::pair<std::string, Group>> groups;
        for (const auto& f : report.failures) {
          const std::string key = f.check + "\n" + f.message.substr(0, f.message.find('\n'));
          auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& e) { return e.first == key; });
          if (g == groups.end()) g = groups.insert(groups.end(), {key, Group{&f, {}}});
          // The reproducer is "plateau test ... --seed <digits>".
          const size_t at = f.reproducer.find("--seed ");
          if (at != std::string::npos) {
            const size_t from = at + 7, end = f.reproducer.find_first_not_of("0123456789", from);
            if (end != from) g->second.seeds.push_back(f.reproducer.substr(from, end == std::string::npos ? end : end - from));
          }
        }
        for (const auto& [key, g] : groups) {
          const ConformanceFailure& f = *g.first;
          std::string times;
          if (g.seeds.size() > 1) {
            times = " (" + std::to_string(g.seeds.size()) + " games, seeds ";
            for (size_t i = 0; i < g.seeds.size(); ++i) times += (i ? ", " : "") + g.seeds[i];
            times += ")";
          }
          if (f.message.find("already ran past the wall-clock backstop") != std::string::npos) {
            skip_case("conformance", "conformance: " + f.check + times, "", rules->info().id + ": conformance: " + f.check + times,
                      f.message);
            continue;
          }
          if (text)
            std::printf("FAIL %s: conformance: %s%s\n  %s\n  reproduce: %s\n%s", rules->info().id.c_str(),
                        f.check.c_str(), times.c_str(), f.message.c_str(), f.reproducer.c_str(),
                        FolderNote(f.message).c_str());
          log.Add({current, "conformance", "conformance: " + f.check + times, "", false, false,
                   f.message + "\n  reproduce: " + f.reproducer, lap()});
        }
        ++failed;
        worst = std::max(worst, 1);
      }
    }
    if (!scenarios_only) {
      for (const auto& path : PlaythroughFiles(rules->info().folder)) {
        std::string diff, note;
        st = CheckPlaythrough(*rules, path, &diff, &note);
        const std::string name = std::filesystem::path(path).filename().string();
        if (st.skipped) {
          skip_case("playthrough", name, path, path + ": golden playthrough", st.message);
        } else if (!st.ok() || !diff.empty()) {
          fail_case("playthrough", name, path, path + ": golden playthrough differs" + (note.empty() ? "" : " (" + note + ")"),
                    st.ok() ? diff : st.ToString(), 1);
        } else {
          pass("playthrough", name, path,
               path + ": golden playthrough replays identically" + (note.empty() ? "" : " (" + note + ")"));
        }
      }
    }
    // The board files a modder keeps for plateau score (tests/boards/*.json): each must still be
    // a board of the game as its cards and rules are now (a renamed card is found here, not the
    // next time someone scores the file).
    if (scenarios.empty() && !conformance_only) {
      for (const auto& path : GameSubfolderFiles(rules->info().folder, "tests/boards", ".json")) {
        const std::string name = std::filesystem::path(path).filename().string();
        Json board;
        State state;
        bool position = false;
        st = ReadBoard(*rules, game, path, {}, /*full=*/false, &board, &state, &position);
        ScoreTable scores;
        if (st.ok()) st = rules->Score(state, &scores);
        if (!st.ok()) fail_case("board", name, path, path + ": scores as plateau score scores it", st.ToString(), ExitCode(st));
        else pass("board", name, path, path + ": scores as plateau score scores it");
      }
    }
    std::vector<std::string> files = scenarios;
    if (files.empty() && !conformance_only) files = scripting::ScenarioFiles(rules->info().folder);
    for (const auto& file : files) {
      std::vector<scripting::TestResult> results;
      st = scripting::RunScenarioFile(*rules, file, &results);
      if (!st.ok()) {
        fail_case("scenario", "the file runs", file, file, st.ToString(), ExitCode(st));
        continue;
      }
      // The file's time is shared among its tests (they run in one VM, timed together).
      const double each = lap() / static_cast<double>(std::max<size_t>(1, results.size()));
      for (const auto& r : results) {
        if (r.passed) pass("scenario", r.name, r.file, r.file + ": " + r.name, each);
        else if (r.skipped) skip_case("scenario", r.name, r.file, r.file + ": " + r.name, r.message, each);
        else fail_case("scenario", r.name, r.file, r.file + ": " + r.name, r.message, 1, each);
      }
    }
  }
  if (text)
    std::printf("%d passed, %d failed%s\n", passed, failed,
                skipped ? (", " + std::to_string(skipped) + " skipped (a hook they needed had run past the wall-clock backstop)").c_str() : "");
  else std::printf("%s\n", DumpJson(log.ToJson(), 1).c_str());
  if (!junit.empty()) {
    Status st = WriteOutputFile(UserOutput(junit, OutputKind::kJUnit, "--junit"), log.JUnitXml());
    if (!st.ok()) return Fail(st);
  }
  return failed ? std::max(worst, 1) : 0;
}

}  // namespace
}  // namespace plateau

// Seeds are whole numbers 0..2^64-1 written in digits: "-1" or "1e23" are refused by name
// instead of being read as 2^64-1.
const CLI::Validator kSeedCheck(
    [](std::string& text) -> std::string {
      if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos)
        return "expected a whole number from 0 to 2^64-1, got '" + text + "'";
      if (text.size() == 20 && text > "18446744073709551615")
        return text + " is over 2^64-1";
      return "";
    },
    "SEED");

static int Main(int argc, char** argv) {
  using namespace plateau;
  CLI::App app{"plateau: a rules-description interpreter for tabletop games"};
  app.set_version_flag("--version", [] {
    const Json e = EngineInfo();
    return "plateau " + e["plateau"].get<std::string>() + " (" + e["lua"].get<std::string>() + ", nlohmann-json " +
           e["nlohmann_json"].get<std::string>() + ")";
  });
  app.require_subcommand(1);
  std::string log_level = "warn";
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error or off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));

  auto* list = app.add_subcommand("list", "list the games found under games/");
  std::string game, board;
  auto* validate = app.add_subcommand("validate", "check a game's manifest, data and scripts, then play seeded games with every bot kind until every card and score row was reached (exit 2 on anything wrong)");
  validate->add_option("game", game, "game id or path to a game folder")->required();

  int players = 0, n = 100, threads = 0;  // threads 0: one per core
  uint64_t seed = 1;
  std::string bots, format = "text";
  std::vector<std::string> sets;
  // --set-file: an overlay of values (plateau tune --write), applied before the --set arguments.
  std::string set_file;
  const char* set_file_help =
      "apply a data overlay (JSON {\"values\": {name or data.path: value}}, as plateau tune --write makes) before "
      "the --set arguments";
  auto* play = app.add_subcommand("play", "play in the terminal (seats: human or a bot name)");
  play->add_option("game", game, "game id or path to a game folder")->required();
  play->add_option("--players", players, "number of players")->check(CLI::Range(1, 16));
  play->add_option("--seed", seed, "random seed")->check(kSeedCheck);
  play->add_option("--bots", bots, "comma-separated, one per seat (the last repeats): human, random, greedy, heuristic[:samples=N], "
                  "mcts[:iters=N][:ms=N][:depth=N][:c=X]");
  play->add_option("--set", sets, "override a parameter (name=value) or a data value (<data>.<path>=value)");
  play->add_option("--set-file", set_file, set_file_help);
  std::string load_path, save_path;
  play->add_option("--load", load_path, "continue a saved game");
  play->add_option("--save", save_path, "write the final state (with its move log) to this file");
  std::string replay_file;
  auto* replay = app.add_subcommand("replay", "rebuild a saved game from its seed and move log and check it matches");
  replay->add_option("game", game, "game id or path to a game folder")->required();
  replay->add_option("save", replay_file, "saved game (from play --save)")->required();

  auto* score = app.add_subcommand("score", "score finished boards");
  score->add_option("game", game, "game id or path to a game folder")->required();
  score->add_option("board", board, "board.json")->required();
  score->add_option("--format", format, "text or json");
  score->add_option("--set", sets, "override a parameter (name=value) or a data value (<data>.<path>=value)");
  score->add_option("--set-file", set_file, set_file_help);
  bool explain = false;
  score->add_flag("--explain", explain,
                  "say how each row was scored: each rule's line in the rules, what it counted cell by cell, the majorities' "
                  "counts (the Écosystème base's score sheets); to check a scenario test's numbers");
  bool as_test = false;
  score->add_flag("--as-test", as_test,
                  "print the board as a scenario test (board{} and one expect_score per player) holding what the rules "
                  "score now, each row's explanation as comments: check the numbers against the cards' texts, then "
                  "keep it in tests/");

  // The options every run of many games shares (simulate, sweep, compare-readings, tune): one
  // name, check and meaning each. `kingmaking_note` ends --kingmaking's help (its default there).
  int max_rounds = 500;
  bool rotate_seats = false;
  int kingmaking = 20;
  const char* kingmaking_help =
      "look for kingmaking in the run's first N games, by replaying each decision of a player who did not win from "
      "other moves (0: not; it costs up to 60 replays of the end of a game per game; README \"How the game feels\")";
  const auto run_options = [&](CLI::App* cmd, const std::string& n_help, const std::string& seed_help,
                               const std::string& kingmaking_note) {
    cmd->add_option("game", game, "game id or path to a game folder")->required();
    cmd->add_option("-n", n, n_help)->check(CLI::Range(1, 100000000));
    cmd->add_option("--seed", seed, seed_help)->check(kSeedCheck);
    cmd->add_option("--bots", bots, "comma-separated bot names, one per seat");
    cmd->add_option("--threads", threads, "worker threads (default: one per core; the report is the same for any number)")
        ->check(CLI::Range(1, 64));
    cmd->add_option("--players", players, "number of players")->check(CLI::Range(1, 16));
    cmd->add_option("--max-rounds", max_rounds, "stop a game past this round and report it as a finding (0: no limit)")
        ->check(CLI::Range(0, 1000000));
    cmd->add_flag("--rotate-seats", rotate_seats,
                  "game k shifts the bots k seats, so that each bot plays each seat as often and its win rate does not "
                  "depend on where it sat");
    cmd->add_option("--kingmaking", kingmaking, kingmaking_help + kingmaking_note)->check(CLI::Range(0, 100000000));
  };

  auto* simulate = app.add_subcommand("simulate", "run many bot games and print statistics");
  run_options(simulate, "number of games", "seed of the first game (game k uses seed+k)", "");
  simulate->add_option("--format", format, "text or json");
  simulate->add_option("--set", sets, "override a parameter (name=value) or a data value (<data>.<path>=value)");
  simulate->add_option("--set-file", set_file, set_file_help);
  bool profile = false;
  simulate->add_flag("--profile", profile,
                     "also print the time spent in each of the rules' calls (hooks), slowest first: where the "
                     "simulation's time goes");
  bool keep_going = false;
  const char* keep_going_help =
      "go on after a game whose rules fail (up to 10 failed games, counted in the report) instead of stopping at the "
      "first with its seed";
  simulate->add_flag("--keep-going", keep_going, keep_going_help);
  std::string compare_path;
  bool fail_on_change = false;
  simulate->add_option("--compare", compare_path,
                       "a report this command wrote with --format json (before an edit of the rules or the data): "
                       "print what changed against it, beyond the games' own randomness");
  simulate->add_flag("--fail-on-change", fail_on_change, "with --compare: exit 1 when a measure changed (for tests)");
  // --shard K/N and plateau merge: one run spread over machines (docs/scale.md).
  std::string shard;
  simulate->add_option("--shard", shard,
                       "K/N: play only the K-th of N slices of the seeds (1/4 .. 4/4); plateau merge turns the "
                       "slices' --format json reports into the run's report");
  std::vector<std::string> merge_files;
  auto* merge = app.add_subcommand("merge", "merge the reports of simulate --shard K/N into the report of the whole run");
  merge->add_option("reports", merge_files, "every slice's report (simulate --shard K/N --format json)")->required();
  merge->add_option("--format", format, "text or json");

  std::string csv_path;
  auto* sweep = app.add_subcommand("sweep", "run the simulation report once per value of a parameter or data value");
  run_options(sweep, "games per value", "seed of the first game of each run", "; 0 by default here");
  sweep->add_option("--format", format, "text, csv or json");
  sweep->add_option("--set", sets, "the swept value as <name or data.path>=<from>..<to>[:<step>] or =a,b,c; other --set are fixed")
      ->required();
  sweep->add_option("--set-file", set_file, set_file_help);
  sweep->add_option("--csv", csv_path, "also write the table, with every measurement, as CSV to this file");
  sweep->add_flag("--keep-going", keep_going, keep_going_help);

  auto* readings = app.add_subcommand(
      "compare-readings",
      "play the same seeds with the same bots under two values of one setting and compare them game by game: how often "
      "the winner changes, and by how much the winner's margin does");
  run_options(readings, "games per reading (the same seeds for both)", "seed of the first game (game k uses seed+k)",
              "; 0 by default here");
  readings->add_option("--set", sets,
                       "the setting to compare, given twice (--set a=x --set a=y: a parameter or <data>.<path>); other "
                       "--set hold for both runs")
      ->required();
  readings->add_option("--set-file", set_file, set_file_help);
  readings->add_option("--format", format, "text or json");

  NewGameOptions new_options;
  auto* make = app.add_subcommand("new", "scaffold a new variant of a base game (from the base's template/ folder)");
  make->add_option("base", new_options.base, "the base game, e.g. ecosysteme")->required();
  make->add_option("id", new_options.id, "the new game's id, e.g. ecosysteme-jungle")->required();
  make->add_option("--name", new_options.name, "display name (default: the id)");
  make->add_flag("--example", new_options.example,
                 "start from the base's worked example (Écosystème: docs/modding.md's first variant, five cards of the "
                 "common shapes, a bonus row and their tests) instead of the bare template");
  make->add_option("--dir", new_options.folder, "create it in this folder instead of ./<id>");

  bool regen = false;
  auto* playthrough = app.add_subcommand("playthrough", "record a golden playthrough of a seeded game");
  playthrough->add_option("game", game, "game id or path to a game folder")->required();
  playthrough->add_option("--players", players, "number of players")->check(CLI::Range(1, 16));
  playthrough->add_option("--seed", seed, "random seed")->check(kSeedCheck);
  playthrough->add_option("--set", sets, "override a parameter: name=value");
  playthrough->add_option("--set-file", set_file, set_file_help);
  playthrough->add_flag("--regen", regen, "replace an existing transcript");

  WatchOptions watch_options;
  auto* watch = app.add_subcommand("watch", "hold a game on the table and reload its rules when their files change");
  watch->add_option("game", watch_options.game, "game id or path to a game folder")->required();
  watch->add_option("--players", watch_options.players, "number of players")->check(CLI::Range(1, 16));
  watch->add_option("--seed", watch_options.seed, "random seed")->check(kSeedCheck);
  watch->add_option("--bots", watch_options.bots, "bots that play the first --moves moves");
  watch->add_option("--moves", watch_options.moves, "moves played by the bots before holding the table")
      ->check(CLI::Range(0, 1000000));
  watch->add_option("--load", watch_options.load_path, "start from a saved game");
  watch->add_option("--set", watch_options.sets, "override a parameter (name=value) or a data value (<data>.<path>=value)");
  watch->add_option("--set-file", set_file, set_file_help);
  watch->add_option("--format", watch_options.format, "text or json (one JSON object per line)")
      ->check(CLI::IsMember({"text", "json"}));
  watch->add_option("--reloads", watch_options.max_reloads, "stop after this many reloads")->check(CLI::NonNegativeNumber);
  watch->add_option("--timeout", watch_options.timeout_s, "stop after this many seconds (even during a reload)")
      ->check(CLI::Range(0, 100000000));
  watch->add_option("--recovery", watch_options.recovery_path,
                    "where the table is saved when watch is stopped by a signal (default: <game>-recovery.json here)");
  watch->add_option("--settle-ms", watch_options.settle_ms, "a burst of saves is loaded once it has been quiet this long")
      ->check(CLI::Range(1, 10000));

  StudioOptions studio_options;
  auto* studio = app.add_subcommand("studio", "serve the designer's web page on 127.0.0.1 (table, play, live reload, plots)");
  studio->add_option("game", studio_options.game, "game id or path to a game folder (default: the first game listed)");
  studio->add_option("--port", studio_options.port, "port (default: any free one)")->check(CLI::Range(0, 65535));
  studio->add_option("--players", studio_options.players, "number of players")->check(CLI::Range(1, 16));
  studio->add_option("--seed", studio_options.seed, "random seed")->check(kSeedCheck);
  studio->add_option("--bots", studio_options.bots, "one per seat: human or a bot (default human,greedy)");
  studio->add_option("--set", studio_options.sets, "override a parameter (name=value) or a data value (<data>.<path>=value)");
  studio->add_option("--set-file", set_file, set_file_help);
  studio->add_flag("--dev", studio_options.dev,
                   "serve the page's files from designer/studio/ under the Plateau tree, read on each request (to edit the page), "
                   "not the copy built into plateau");

  TuneOptions tune_options;
  auto* tune = app.add_subcommand("tune", "search the values of parameters or data that meet targets on the simulation report");
  run_options(tune, "games per candidate, 200 by default (the same seeds for every candidate)",
              "seed of the first game of each candidate", "; by default 20 when a target measures kingmaking, else 0");
  tune->add_option("--vary", tune_options.vary, "a knob: <name or data.path>=<lo>..<hi>[:<step>] (integers stay integers)")
      ->required();
  tune->add_option("--target", tune_options.targets,
                   "a target: <measure><op><value> (op <= >= < > =) or <measure>=<lo>..<hi>; measures: rounds, top_score, "
                   "spread, stopped, win_spread, win_rate:<seat or bot>, score:<seat>, seat_edge:<seat or bot>, ending:<name>, "
                   "count:<name>, player:<name>, per_game:<name>, happened:<name>, win_when:<name>, tag:<name>, "
                   "category:<name>, card_points:<card>, pick_rate:<card>, lead_changes, lead_for_good, drama, "
                   "score_gap:<25|50|75|100>, dead_turns, kingmaking")
      ->required();
  tune->add_option("--budget", tune_options.budget, "candidates to search (40) or a time (90s, 5m)");
  tune->add_option("--confirm", tune_options.confirm_games, "games of the confirmation run on other seeds (default 4 x -n)")
      ->check(CLI::Range(1, 100000000));
  tune->add_option("--set", sets, "a fixed override for every candidate (name=value or <data>.<path>=value)");
  tune->add_option("--set-file", set_file, set_file_help);
  tune->add_option("--shards", tune_options.shards,
                   "run each candidate's games as N slices (simulate --shard k/N), each by --runner, and merge them")
      ->check(CLI::Range(1, 4096));
  tune->add_option("--runner", tune_options.runner,
                   "with --shards: the command that runs one slice (started without a shell), {cmd} standing for its "
                   "plateau command's words, {shell_cmd} for that command quoted for a remote shell, {k} and {n} for its "
                   "number (default '{cmd}': here; e.g. 'srun -N1 {cmd}', 'ssh host{k} {shell_cmd}')");
  tune->add_option("--write", tune_options.write_path, "write the best values as an overlay for --set-file");
  tune->add_option("--format", format, "text or json (the whole search)");

  std::vector<std::string> lint_games;
  auto* lint = app.add_subcommand("lint", "run luacheck on games' Lua with the API's globals: unused variables, undefined "
                                          "globals, shadowing (all games by default)");
  lint->add_option("games", lint_games, "game ids or folders");

  std::vector<std::string> test_games, scenarios;
  auto* test = app.add_subcommand("test", "validate games and run their scenario tests (all games by default)");
  test->add_option("games", test_games, "game ids or folders");
  test->add_option("--scenario", scenarios, "run only this scenario file");
  test->add_option("--set-file", set_file, "test the game with a data overlay applied (its data values; one game only)");
  int conformance_games = 100;
  bool scenarios_only = false, conformance_only = false;
  test->add_option("--games", conformance_games, "seeded random games for the conformance checks (0: none)")
      ->check(CLI::Range(0, 100000));
  test->add_flag("--scenarios-only", scenarios_only, "skip the conformance checks");
  test->add_option("--threads", threads, "threads for the conformance games (default: one per core; the results are the same)")
      ->check(CLI::Range(1, 64));
  test->add_flag("--conformance-only", conformance_only, "skip the scenario tests");
  bool mutate = false, mutate_verbose = false;
  int max_mutants = 300;
  test->add_flag("--mutate", mutate, "mutation testing: how many small changes to the rules the game's tests catch");
  test->add_option("--mutants", max_mutants, "at most this many mutants (spread over all candidates)")
      ->check(CLI::Range(1, 100000));
  test->add_flag("--mutate-verbose", mutate_verbose, "print each mutant's fate");
  bool after_reload = false;
  test->add_flag("--after-reload", after_reload, "run the suites on rules hot-reloaded from the same files");
  std::string junit;
  test->add_option("--junit", junit, "also write the results as JUnit XML to FILE (one case per test, check, playthrough)");
  test->add_option("--format", format, "text, or json: the results as one JSON object");
  test->add_flag("--keep-going", keep_going,
                 "conformance: go on after a failed game (up to 10) instead of stopping at the first with its seed");

  PrintOptions print_options;
  auto* print = app.add_subcommand("print", "print-and-play PDF of a game's cards, tiles and sheets, drawn from its look, each stamped "
                                            "with the game's id, version and rules fingerprint");
  print->add_option("game", print_options.game, "game id or path to a game folder")->required();
  print->add_option("--out", print_options.out, "the PDF to write (default: ./<game id>-print.pdf)");
  print->add_option("--paper", print_options.paper, "a4 (default) or letter");
  print->add_option("--only-changed-since", print_options.since,
                    "print only the parts whose data or look changed since this fingerprint file (--write-fingerprints) or git "
                    "revision, after a cover page that lists them");
  print->add_option("--write-fingerprints", print_options.write_fingerprints,
                    "also write each part's fingerprint to FILE, for a later --only-changed-since FILE");
  print->add_option("--set", sets, "override a data value for the print: <data>.<path>=value");
  ExportTtsOptions tts_options;
  auto* export_cmd = app.add_subcommand("export", "export a game for another program");
  export_cmd->require_subcommand(1);
  auto* tts = export_cmd->add_subcommand("tts", "a Tabletop Simulator saved object: each deck a custom deck (PNG sheets of at most "
                                                "10x7 cards with their back), tiles and sheets as custom tiles in bags");
  tts->add_option("game", tts_options.game, "game id or path to a game folder")->required();
  tts->add_option("--out", tts_options.out, "the folder to make (must not exist)")->required();
  tts->add_option("--image-url", tts_options.image_url,
                  "the web address the folder's images will be uploaded to (default: file:// addresses of the folder, for "
                  "Tabletop Simulator on this machine)");
  tts->add_option("--px-per-mm", tts_options.px_per_mm, "the images' resolution in pixels per millimetre (default 5: a card 315 pixels wide)")
      ->check(CLI::Range(1.0, 12.0));
  tts->add_option("--set", sets, "override a data value: <data>.<path>=value");

  // Every subcommand that writes a file the user names takes --force: without it, an output
  // replaces only a file of its own kind (a save a save), never a game's rules or data.
  const char* force_help = "let an output replace an existing file of another kind (without it, a save replaces only a "
                           "save, a CSV only a CSV...)";
  for (CLI::App* sub : {play, sweep, watch, tune, test, playthrough, studio, print}) sub->add_flag("--force", g_force, force_help);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  spdlog::set_level(spdlog::level::from_str(log_level));
  spdlog::set_default_logger(spdlog::stderr_color_mt("plateau"));
  spdlog::set_level(spdlog::level::from_str(log_level));
  if (!set_file.empty()) {
    const std::string& for_game = *watch    ? watch_options.game
                                  : *studio ? studio_options.game
                                  : *test   ? (test_games.size() == 1 ? test_games.front() : std::string())
                                            : game;
    if (*test && test_games.size() != 1) return Fail(Status::Input("--set-file: give exactly one game to test with it"));
    std::vector<std::string> file_sets;
    Status st = ReadSetFile(set_file, for_game, &file_sets);
    if (!st.ok()) return Fail(st);
    if (*test) {
      Json params;
      st = ParseSets(file_sets, &params);
      if (st.ok() && !params.empty())
        return Fail(Status::Input("--set-file: " + set_file + ": plateau test applies data values only; '" +
                                  params.begin().key() + "' is a parameter (test it with plateau simulate --set-file)"));
    }
    std::vector<std::string>* into = *watch ? &watch_options.sets : *studio ? &studio_options.sets : &sets;
    into->insert(into->begin(), file_sets.begin(), file_sets.end());
    if (*studio) {
      studio_options.set_file = set_file;
      studio_options.set_file_count = file_sets.size();
    }
  }
  if (!*sweep) {
    Status st = ParseDataSets(sets, &g_data_sets);
    if (!st.ok()) return Fail(st);
  }
  if (*list) return CmdList();
  if (*make) return RunNewGame(new_options);
  if (*print) return RunPrint(print_options);
  if (*tts) return RunExportTts(tts_options);
  // validate judges a game folder: whatever it finds wrong, a script that fails in one of its
  // games included, is a refusal of that input (exit 2, README "Exit codes").
  if (*validate) {
    const int rc = CmdValidate(game);
    return rc == 1 ? 2 : rc;
  }
  if (*lint) return RunLint(lint_games);
  if (*play) return CmdPlay(game, players, seed, bots, sets, load_path, save_path);
  if (*replay) return CmdReplay(game, replay_file);
  if (*score) return CmdScore(game, board, format, sets, explain, as_test);
  if (*watch) return RunWatch(watch_options);
  if (*studio) return RunStudio(studio_options);
  if (*playthrough) return CmdPlaythrough(game, players, seed, regen, sets);
  if (*test && mutate) {
    if (test_games.size() != 1) {
      std::fprintf(stderr, "plateau: --mutate takes exactly one game\n");
      return 2;
    }
    return RunMutation({test_games.front(), max_mutants, mutate_verbose});
  }
  if (*test)
    return CmdTest(test_games, scenarios, conformance_games, scenarios_only || !scenarios.empty(), conformance_only,
                   after_reload, keep_going, junit, format,
                   threads > 0 ? threads : static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 64u)));
  if (*merge) return RunMerge(merge_files, format);
  if (*simulate || *sweep || *tune || *readings) {
    ReportOptions o;
    o.game = game;
    o.games = n;
    o.seed = seed;
    o.bots = bots.empty() ? "random" : bots;
    // Each game has its own seed and the parts are merged in game order, so the count only
    // changes how long the designer waits.
    o.threads = threads > 0 ? threads : static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 64u));
    o.players = players;
    o.format = format;
    o.sets = sets;
    o.max_rounds = max_rounds;
    o.profile = profile;
    o.rotate_seats = rotate_seats;
    o.keep_going = keep_going;
    o.compare_path = compare_path;
    o.fail_on_change = fail_on_change;
    o.csv_path = csv_path;
    o.shard = shard;
    o.kingmaking = kingmaking;
    if (*sweep && !sweep->count("--kingmaking")) o.kingmaking = 0;
    if (*readings && !readings->count("--kingmaking")) o.kingmaking = 0;
    if (*readings) return RunCompareReadings(o);
    if (*tune && !tune->count("--kingmaking")) {
      o.kingmaking = 0;
      for (const auto& t : tune_options.targets)
        if (t.rfind("kingmaking", 0) == 0) o.kingmaking = 20;
    }
    if (*tune) {
      // A candidate is one report: its games use the threads, and its failures stop the search.
      n = tune->count("-n") ? n : 200;
      o.games = n;
      o.profile = false;
      o.keep_going = false;
      tune_options.run = o;
      tune_options.format = format;
      return RunTune(tune_options);
    }
    return *simulate ? RunSimulate(o) : RunSweep(o);
  }
  return 2;
}

// The last line of defence (docs/security.md): an exception that escaped a command is bad input
// reported as such, never an abort. Each mechanism refuses its input where it enters; this only
// turns a refusal somebody forgot to catch into a message and exit code 2.
int main(int argc, char** argv) {
  try {
    return Main(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "plateau: bad input: out of memory (a host limit is missing for this input; please report it)\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "plateau: bad input: %s\n", plateau::TerminalText(e.what()).c_str());
  }
  return 2;
}

// plateau play: a game at the terminal. People choose their moves from menus; bots play the
// other seats and their moves are told in the game's words. A person's first view is the whole
// table, then what changed since their last move. A choice among many moves is made in steps:
// the moves are grouped (by the groups the game's describe hook gives, else by move type and
// then card or cell) and the person picks a group, then a move in it; a move the rules refuse
// sends them back to the first step with the reason. A move's picture (describe's third value,
// or its text's lines after the first) shows under it in short menus. The end names the winner.
#include "designer/cli/play.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <spdlog/spdlog.h>

#include "designer/cli/cli_common.h"
#include "host/bots.h"
#include "host/render.h"
#include "host/text.h"
#include "scripting/lua_rules.h"

namespace plateau {
namespace {

using scripting::LuaRules;

// Menus up to this many moves, and this many lines with the moves' pictures, are one list
// whatever the groups.
constexpr size_t kFlat = 12;
constexpr size_t kFlatLines = 24;
// A move's text may hold more lines under its first (a picture: a tile's rotation; a region's
// neighbours): shown in menus of up to this many lines, never in the line telling a bot's move.
constexpr size_t kPictureLines = 40;

size_t LineCount(const std::string& text) { return 1 + static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

// The columns a line of UTF-8 takes (its characters; "–" is three bytes and one column).
size_t Columns(const std::string& text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// A move as a player reads it when the game has no describe hook:
// "evolve  caterpillar 3, to moult_1, cost 1 water + 1 leaf".
std::string MoveLabel(const Move& m, const CardSet& cards) {
  std::string out = m.type;
  std::string rest;
  auto add = [&](const std::string& part) { rest += (rest.empty() ? "" : ", ") + part; };
  if (m.card != kNoCard) add(cards.Name(m.card));
  if (m.has_cell) add("at (" + std::to_string(m.cell.row) + ", " + std::to_string(m.cell.col) + ")");
  if (m.has_to) add("to (" + std::to_string(m.to.row) + ", " + std::to_string(m.to.col) + ")");
  // Scripts put their fields in an `args` table: its entries read as the move's own.
  std::function<void(const Json&)> fields = [&](const Json& j) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.key() == "args" && it->is_object()) fields(*it);
      else add(it.key() + " " + (it->is_string() ? it->get<std::string>() : it->dump()));
    }
  };
  if (m.args->is_object()) fields(*m.args);
  return rest.empty() ? out : out + "  " + rest;
}

std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string Wrap(const std::string& line, const std::string& indent);

// One legal move as a person chooses it: its words (with its picture on the lines after the
// first) and the groups it sits in, outermost first.
struct Option {
  Move move;
  std::string text;
  std::vector<std::string> group;
};

// The groups of moves for a game that gives none: by type, then by card or cell, so that a
// game with many moves still asks in steps ("place", then "wolf", then the cell).
std::vector<std::string> DefaultGroup(const Move& m, const CardSet& cards) {
  std::string type = m.type;
  std::replace(type.begin(), type.end(), '_', ' ');
  std::vector<std::string> g{type};
  const Json* args = m.args->is_object() ? &*m.args : nullptr;
  if (m.card != kNoCard) {
    g.push_back(type + " " + cards.Name(m.card));
  } else if (m.has_cell) {
    g.push_back(type + " at (" + std::to_string(m.cell.row) + ", " + std::to_string(m.cell.col) + ")");
  } else if (args && args->contains("cell") && (*args)["cell"].is_array()) {
    g.push_back(type + " at " + (*args)["cell"].dump());
  }
  return g;
}

// What one menu line stands for: a group of moves (a step further) or one move.
struct Entry {
  std::string label;            // the group's label, or the move's text
  std::vector<size_t> options;  // indices into the options
  bool group = false;
};

// The entries under a path of chosen groups: the options whose groups start with `path`, each
// an entry of its own or gathered under its next group. A group holding one move is that move.
std::vector<Entry> EntriesAt(const std::vector<Option>& options, const std::vector<size_t>& within, size_t depth) {
  std::vector<Entry> out;
  std::map<std::string, size_t> by_label;
  for (size_t i : within) {
    const Option& o = options[i];
    if (o.group.size() <= depth) {
      out.push_back({o.text, {i}, false});
      continue;
    }
    const std::string& label = o.group[depth];
    auto it = by_label.find(label);
    if (it == by_label.end()) {
      by_label[label] = out.size();
      out.push_back({label, {i}, true});
    } else {
      out[it->second].options.push_back(i);
    }
  }
  for (Entry& e : out)
    if (e.group && e.options.size() == 1) {
      e.label = options[e.options.front()].text;
      e.group = false;
    }
  return out;
}

// Prints a menu: short labels in columns (down, then across), others one a line with their
// pictures when the menu is short.
void PrintMenu(const std::vector<Entry>& entries, const std::vector<Option>& options) {
  auto head = [&](const Entry& e) {
    std::string line = FirstLine(e.label);
    if (e.group) line += "  (" + std::to_string(e.options.size()) + " choices)";
    return line;
  };
  size_t widest = 0, lines = 0;
  for (const Entry& e : entries) {
    widest = std::max(widest, Columns(head(e)));
    lines += e.group ? 1 : LineCount(options[e.options.front()].text);
  }
  const size_t cell = widest + 7;  // "  123. " before each label
  const size_t columns = entries.size() > kFlat && cell <= 58 ? std::min<size_t>(3, 118 / cell) : 1;
  if (columns > 1) {
    const size_t rows = (entries.size() + columns - 1) / columns;
    for (size_t r = 0; r < rows; ++r) {
      std::string line;
      for (size_t c = 0; c < columns; ++c) {
        const size_t i = c * rows + r;
        if (i >= entries.size()) break;
        char num[32];
        std::snprintf(num, sizeof num, "  %3zu. ", i + 1);
        std::string item = num + head(entries[i]);
        if (c + 1 < columns && (c + 1) * rows + r < entries.size()) item += std::string(cell - std::min(cell, Columns(item)), ' ');
        line += item;
      }
      std::printf("%s\n", line.c_str());
    }
    return;
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    char num[32];
    std::snprintf(num, sizeof num, "  %3zu. ", i + 1);
    std::printf("%s", Wrap(num + head(entries[i]), "         ").c_str());
    if (lines > kPictureLines || entries[i].group) continue;
    const std::string& text = options[entries[i].options.front()].text;
    for (size_t at = text.find('\n'); at != std::string::npos;) {
      const size_t end = text.find('\n', at + 1);
      std::printf("%s", Wrap("       " + text.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1),
                             "         ").c_str());
      at = end;
    }
  }
}

// What a person typed at a menu.
struct Answer {
  enum Kind { kPick, kTable, kBack, kEnd } kind = kEnd;
  size_t index = 0;
};

Answer Ask(size_t count, bool can_go_back) {
  for (;;) {
    std::printf("your choice (1-%zu, 0 shows the whole table%s): ", count, can_go_back ? ", b goes back" : "");
    std::fflush(stdout);
    std::string line;
    if (!std::getline(std::cin, line)) return {Answer::kEnd, 0};
    line.erase(0, line.find_first_not_of(" \t"));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (can_go_back && (line == "b" || line == "back")) return {Answer::kBack, 0};
    int64_t v = 0;
    std::string ignored;
    if (ParseInt(line, 0, static_cast<int64_t>(count), "", &v, &ignored))
      return v == 0 ? Answer{Answer::kTable, 0} : Answer{Answer::kPick, static_cast<size_t>(v - 1)};
    std::printf("there is no choice '%s' here: type a number from 1 to %zu%s\n", TerminalText(line).c_str(), count,
                can_go_back ? ", or b to go back" : "");
  }
}

// A person's move, chosen in steps. Returns false when the input ends.
bool ChooseMove(const std::vector<Option>& options, const std::function<void()>& show_table, size_t* picked) {
  std::vector<size_t> all(options.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  // The steps taken: at each, the options still in play and how deep their groups are read.
  struct Step {
    std::vector<size_t> within;
    size_t depth;
    std::string title;  // the groups chosen to get here: "start a watering hole > on the tile at [0, 2]"
  };
  std::vector<Step> path{{all, 0, ""}};
  for (;;) {
    Step& at = path.back();
    std::vector<Entry> entries;
    size_t lines = 0;
    for (size_t i : at.within) lines += LineCount(options[i].text);
    if (at.within.size() <= kFlat && lines <= kFlatLines) {
      for (size_t i : at.within) entries.push_back({options[i].text, {i}, false});
    } else {
      entries = EntriesAt(options, at.within, at.depth);
      // A step with one group only is no choice: read the next level of groups.
      while (entries.size() == 1 && entries.front().group) {
        at.depth += 1;
        entries = EntriesAt(options, at.within, at.depth);
      }
    }
    PrintMenu(entries, options);
    const Answer a = Ask(entries.size(), path.size() > 1);
    if (a.kind == Answer::kEnd) return false;
    if (a.kind == Answer::kTable) {
      show_table();
      continue;
    }
    if (a.kind == Answer::kBack) {
      path.pop_back();
      std::printf("\n%s\n", path.size() > 1 ? (path.back().title + ":").c_str() : "back to the first step:");
      continue;
    }
    const Entry& e = entries[a.index];
    if (!e.group) {
      *picked = e.options.front();
      return true;
    }
    const std::string title = (at.title.empty() ? "" : at.title + " > ") + FirstLine(e.label);
    std::printf("\n%s:\n", title.c_str());
    path.push_back({e.options, at.depth + 1, title});
  }
}

// The winner in words, from the score's `winners` (seats from 1) or else the best total.
std::string WinnerLine(const State& state, const ScoreTable& scores) {
  std::vector<int> winners;
  const Json& w = scores.extra.contains("winners") ? scores.extra["winners"] : Json();
  if (w.is_array())
    for (const auto& x : w)
      if (x.is_number_integer() && x.get<int64_t>() >= 1 && x.get<int64_t>() <= state.player_count)
        winners.push_back(static_cast<int>(x.get<int64_t>()) - 1);
  int64_t best = INT64_MIN;
  for (const auto& line : scores.lines)
    if (line.seat >= 0 && state.seats[static_cast<size_t>(line.seat)].kind == "player") best = std::max(best, line.total);
  if (winners.empty())
    for (const auto& line : scores.lines)
      if (line.seat >= 0 && state.seats[static_cast<size_t>(line.seat)].kind == "player" && line.total == best)
        winners.push_back(line.seat);
  if (winners.empty()) return "";
  std::string names;
  for (size_t i = 0; i < winners.size(); ++i)
    names += (i == 0 ? "" : i + 1 == winners.size() ? " and " : ", ") + TerminalText(state.seats[static_cast<size_t>(winners[i])].name);
  int64_t total = 0;
  for (const auto& line : scores.lines)
    if (line.seat == winners.front()) total = line.total;
  return winners.size() == 1 ? names + " wins with " + std::to_string(total) + " points."
                             : names + " share the win with " + std::to_string(total) + " points each.";
}

// A line cut at spaces to fit 120 columns, the rest indented under it.
std::string Wrap(const std::string& line, const std::string& indent) {
  constexpr size_t kWidth = 120;
  std::string out, rest = line;
  while (rest.size() > kWidth) {
    // After a comma or semicolon when one is far enough along ("North Atlantic Ocean" stays
    // whole), else at the last space.
    size_t cut = std::string::npos;
    for (const char* sep : {", ", "; "}) {
      const size_t at = rest.rfind(sep, kWidth - 1);
      if (at != std::string::npos && at > kWidth / 2 && (cut == std::string::npos || at > cut)) cut = at + 1;
    }
    if (cut == std::string::npos) cut = rest.rfind(' ', kWidth);
    if (cut == std::string::npos || cut <= indent.size()) break;
    out += rest.substr(0, cut) + "\n";
    rest = indent + rest.substr(cut + 1);
  }
  return out + rest + "\n";
}

// The score's extra results a person reads: "tiles left: 0", and lists of records one a line;
// the game's words made inert for the terminal (host/text.h).
std::string ExtraLines(const Json& extra) {
  auto value = [](const Json& v) { return TerminalText(v.is_string() ? v.get<std::string>() : v.dump()); };
  std::string out;
  for (auto it = extra.begin(); it != extra.end(); ++it) {
    if (it.key() == "winners") continue;
    std::string key = TerminalText(it.key());
    std::replace(key.begin(), key.end(), '_', ' ');
    if (it->is_array() && !it->empty() && it->front().is_object()) {
      out += key + ":\n";
      for (const auto& rec : *it) {
        std::string line;
        for (auto f = rec.begin(); f != rec.end(); ++f) line += (line.empty() ? "" : "; ") + TerminalText(f.key()) + " " + value(*f);
        out += Wrap("  " + line, "      ");
      }
    } else if (!it->is_array() || !it->empty()) {
      out += Wrap(key + ": " + value(*it), "    ");
    }
  }
  return out;
}

}  // namespace

std::string ChangedLines(const std::string& before, const std::string& now) {
  std::multiset<std::string> seen;
  for (size_t at = 0; at < before.size();) {
    const size_t end = before.find('\n', at);
    seen.insert(before.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  // Blocks: a line that is not indented and the indented lines under it (a player and their
  // caterpillars, the map under its title with its row and column labels). A block with any
  // changed line is shown whole; the others are left out.
  std::string out, block;
  bool changed = false;
  auto flush = [&] {
    if (changed) out += block;
    block.clear();
    changed = false;
  };
  for (size_t at = 0; at < now.size();) {
    const size_t end = now.find('\n', at);
    const std::string line = now.substr(at, end == std::string::npos ? std::string::npos : end - at);
    const bool indented = !line.empty() && (line[0] == ' ' || line[0] == '\t');
    if (!indented) flush();
    const auto it = seen.find(line);
    if (it != seen.end()) seen.erase(it);
    else if (!line.empty()) changed = true;
    if (!line.empty()) block += line + "\n";
    if (end == std::string::npos) break;
    at = end + 1;
  }
  flush();
  return out;
}

int CmdPlay(const std::string& game, int players, uint64_t seed, const std::string& bots_arg,
            const std::vector<std::string>& sets, const std::string& load_path, const std::string& save_path) {
  std::unique_ptr<LuaRules> rules;
  State state;
  Status st = load_path.empty() ? LoadRules(game, &rules) : LoadRulesAndSave(game, load_path, &rules, &state);
  if (!st.ok()) return Fail(st);
  if (!load_path.empty()) {
    // A saved game keeps its seats and parameters; silently ignoring others would mislead.
    Json given_params;
    st = ParseSets(sets, &given_params);
    if (!st.ok()) return Fail(st);
    if (players != 0 && players != state.player_count)
      return Fail(Status::Input("--players " + std::to_string(players) + ": " + load_path + " is a " +
                                std::to_string(state.player_count) + "-player game"));
    for (auto it = given_params.begin(); it != given_params.end(); ++it)
      if (!state.params.contains(it.key()) || state.params[it.key()] != *it)
        return Fail(Status::Input("--set " + it.key() + ": " + load_path + " was played with " + it.key() + "=" +
                                  (state.params.contains(it.key()) ? state.params[it.key()].dump() : "(none)") +
                                  "; a saved game keeps its parameters"));
    players = state.player_count;
  }
  if (players == 0) players = std::max(rules->info().min_players, std::min(4, rules->info().max_players));
  Json given, params;
  st = ParseSets(sets, &given);
  if (st.ok()) st = ResolveParams(rules->info(), given, &params);
  if (!st.ok()) return Fail(st);
  std::vector<std::string> names = Split(bots_arg);
  if (names.empty()) {
    names.push_back(isatty(0) ? "human" : "random");
    names.push_back("greedy");
  }
  std::vector<std::unique_ptr<Bot>> owned(static_cast<size_t>(players));
  std::vector<bool> human(static_cast<size_t>(players), false);
  for (int i = 0; i < players; ++i) {
    const std::string& n = names[std::min(static_cast<size_t>(i), names.size() - 1)];
    if (n == "human") {
      human[static_cast<size_t>(i)] = true;
      continue;
    }
    std::string error;
    owned[static_cast<size_t>(i)] = MakeBot(n, seed * 31 + static_cast<uint64_t>(i), &error, &rules->info());
    if (!owned[static_cast<size_t>(i)]) return Fail(Status::Input("--bots: " + error + " (or 'human')"));
  }
  // A save that could not be written would lose the whole game at its end: refused now.
  if (!save_path.empty()) {
    st = CheckOutputFile(UserOutput(save_path, OutputKind::kSave, "--save"));
    if (!st.ok()) return Fail(st);
  }
  if (load_path.empty()) {
    st = rules->NewGame(params, players, seed, &state);
    if (!st.ok()) return Fail(st);
  }
  std::printf("%s: %d player(s), seed %llu%s\n", rules->info().name.c_str(), state.player_count,
              static_cast<unsigned long long>(state.seed), load_path.empty() ? "" : (", loaded from " + load_path).c_str());
  // The game's log lines (ctx.log) tell the players what happened: events, hazards, powers.
  // Only the real moves speak: bots previewing candidate moves run the same hooks.
  bool speaking = false;
  rules->runtime().set_log([&speaking](const std::string& line) {
    if (speaking) std::printf("  %s\n", line.c_str());
    else spdlog::debug("[lua] {}", line);
  });
  std::vector<int> seats;
  std::vector<Move> moves;
  // What each human seat was last shown: from their second move on, only the lines that changed.
  std::map<int, std::string> shown;
  // A seat whose move was just refused: asked again from the first step, the table unchanged.
  std::set<int> refused;
  for (;;) {
    st = rules->ToMove(state, &seats);
    if (!st.ok()) return Fail(st);
    if (seats.empty()) break;
    for (int seat : seats) {
      Move m;
      if (human[static_cast<size_t>(seat)]) {
        const std::string view = rules->View(state, seat);
        const auto last = shown.find(seat);
        if (refused.erase(seat)) {
          std::printf("back to the first step (0 shows the whole table):\n");
        } else if (last == shown.end()) {
          std::printf("\n%s", view.c_str());
        } else {
          const std::string changed = ChangedLines(last->second, view);
          std::printf("\nchanged since your last move (0 shows the whole table):\n%s",
                      changed.empty() ? "  (nothing)\n" : changed.c_str());
        }
        shown[seat] = view;
        st = rules->LegalMoves(state, seat, &moves);
        if (!st.ok()) return Fail(st);
        std::vector<Option> options(moves.size());
        bool grouped = false;
        for (size_t i = 0; i < moves.size(); ++i) {
          options[i].move = moves[i];
          std::string picture;
          st = rules->Describe(state, seat, moves[i], &options[i].text, &options[i].group, &picture);
          if (!st.ok()) return Fail(st);
          if (options[i].text.empty()) options[i].text = MoveLabel(moves[i], *state.cards);
          if (!picture.empty()) options[i].text += "\n" + picture;
          grouped = grouped || !options[i].group.empty();
        }
        // Without groups from the game, the moves are grouped by type and then card or cell.
        if (!grouped)
          for (Option& o : options) o.group = DefaultGroup(o.move, *state.cards);
        std::printf("\n%s to move:\n", state.seats[static_cast<size_t>(seat)].name.c_str());
        size_t pick = 0;
        if (!ChooseMove(options, [&] { std::printf("\n%s\n", view.c_str()); }, &pick))
          return Fail(Status::Input("input ended before the game did"));
        m = options[pick].move;
      } else {
        st = owned[static_cast<size_t>(seat)]->Choose(*rules, state, seat, &m);
        if (!st.ok()) return Fail(st);
      }
      const size_t logged = state.log.size();
      // A bot's move is told in the game's own words (its describe hook) before it is played,
      // with a human at the table or in a game of bots watched from the terminal alike.
      if (!human[static_cast<size_t>(seat)]) {
        std::string label;
        st = rules->Describe(state, seat, m, &label);
        if (!st.ok()) return Fail(st);
        std::printf("%s", Wrap(state.seats[static_cast<size_t>(seat)].name + " plays " +
                                     (label.empty() ? MoveLabel(m, *state.cards) : FirstLine(label)),
                                 "    ").c_str());
      }
      speaking = true;
      st = rules->Apply(&state, seat, m);
      speaking = false;
      if (!st.ok()) {
        // A human's refused move: the reason, then the first step again; the table is unchanged.
        if (human[static_cast<size_t>(seat)] && st.kind == ErrorKind::kIllegal) {
          std::printf("refused: %s\n", st.message.c_str());
          refused.insert(seat);
          continue;
        }
        return Fail(st);
      }
      spdlog::debug("{} plays {}", state.seats[static_cast<size_t>(seat)].name, MoveToString(m, *state.cards));
      // Every roll is shown, with what it was for coming from the game's own log lines.
      for (size_t i = logged; i < state.log.size(); ++i) {
        const LogEntry& e = state.log[i];
        if (e.kind != "roll") continue;
        std::string faces;
        for (const auto& f : e.detail.value("faces", Json::array())) faces += (faces.empty() ? "" : "+") + f.dump();
        std::printf("  rolled %s: %s%s\n", e.detail.value("dice", std::string("?")).c_str(), e.detail["total"].dump().c_str(),
                    e.detail.value("faces", Json::array()).size() > 1 ? (" (" + faces + ")").c_str() : "");
      }
    }
  }
  ScoreTable scores;
  st = rules->Score(state, &scores);
  if (!st.ok()) return Fail(st);
  if (!save_path.empty()) {
    st = WriteSave(state, *rules, save_path);
    if (!st.ok()) return Fail(st);
  }
  ScoreTable table = scores;
  table.extra = Json::object();
  const std::string winner = WinnerLine(state, scores);
  std::printf("\nFinal table after %d moves:\n%s\nScores:\n%s%s%s%s", state.move_count, rules->View(state, -1).c_str(),
              RenderScores(table).c_str(), ExtraLines(scores.extra).c_str(), winner.empty() ? "" : "\n",
              winner.empty() ? "" : (winner + "\n").c_str());
  return 0;
}

}  // namespace plateau

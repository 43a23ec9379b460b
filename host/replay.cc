// Replaying move logs (see replay.h).
#include "host/replay.h"

namespace plateau {

Status MovesOfLog(const State& state, std::vector<LoggedMove>* out) {
  out->clear();
  for (size_t i = 0; i < state.log.size(); ++i) {
    const LogEntry& e = state.log[i];
    if (e.kind != "move") continue;
    LoggedMove m{e.seat, {}, static_cast<int>(i)};
    std::string error;
    if (!MoveFromJson(e.detail, *state.cards, &m.move, &error))
      return Status::Input("at /log/" + std::to_string(i) + ": " + error);
    out->push_back(std::move(m));
  }
  return Status::Ok();
}

Status Replay(Rules& rules, const State& original, const std::vector<LoggedMove>& moves, State* out,
              std::vector<std::string>* hashes, size_t* failed) {
  State s;
  Status st = rules.NewGame(original.params, original.player_count, original.seed, &s);
  if (!st.ok()) return st;
  for (size_t i = 0; i < moves.size(); ++i) {
    st = rules.Apply(&s, moves[i].seat, moves[i].move);
    if (!st.ok()) {
      st.message = "replay of move " + std::to_string(i + 1) + " (" + MoveToString(moves[i].move, *s.cards) + " by seat " +
                   std::to_string(moves[i].seat + 1) + ") failed: " + st.message;
      if (failed) *failed = i;
      return st;
    }
    if (hashes) hashes->push_back(s.Hash());
  }
  *out = std::move(s);
  return Status::Ok();
}

std::string SavedFingerprint(const Json& save) {
  if (!save.is_object() || !save.contains("rules") || !save["rules"].is_object()) return "";
  const Json& f = save["rules"].contains("fingerprint") ? save["rules"]["fingerprint"] : Json();
  return f.is_string() ? f.get<std::string>() : "";
}

bool SaveRebuildable(const Json& save, const State& loaded, const std::string& fingerprint) {
  const std::string then = SavedFingerprint(save);
  if (then.empty() || then != fingerprint) return false;
  for (const auto& e : loaded.log)
    if (e.kind == "reload") return false;
  return true;
}

Status CompareSetup(const State& fresh, const State& saved) {
  if (fresh.seats.size() != saved.seats.size())
    return Status::Input("at /seats: " + std::to_string(saved.seats.size()) + " seats, but a " + std::to_string(saved.player_count) +
                         "-player game of these rules has " + std::to_string(fresh.seats.size()));
  for (size_t i = 0; i < fresh.seats.size(); ++i)
    if (fresh.seats[i].kind != saved.seats[i].kind)
      return Status::Input("at /seats/" + std::to_string(i) + "/kind: '" + saved.seats[i].kind + "', but these rules make a '" +
                           fresh.seats[i].kind + "' seat there");
  for (const auto& [key, g] : fresh.grids) {
    const Grid* other = saved.FindGrid(key);
    if (other && !(other->rules() == g.rules()))
      return Status::Input("at /grids: grid '" + key + "' has another frame than these rules give it (" +
                           std::to_string(g.rules().max_rows) + " x " + std::to_string(g.rules().max_cols) + ")");
  }
  for (const auto& [key, m] : fresh.tile_maps) {
    const auto it = saved.tile_maps.find(key);
    if (it != saved.tile_maps.end() && it->second.closing_ends() != m.closing_ends())
      return Status::Input("at /tile_maps/" + key + "/closing_ends: not the closing ends these rules give the map");
  }
  for (const auto& [key, t] : fresh.tracks) {
    const auto it = saved.tracks.find(key);
    if (it != saved.tracks.end() && (it->second.length != t.length || it->second.circular != t.circular))
      return Status::Input("at /tracks/" + key + ": not the length and shape these rules give the track");
  }
  for (const auto& [key, c] : fresh.counters) {
    const auto it = saved.counters.find(key);
    if (it != saved.counters.end() && (it->second.min != c.min || it->second.max != c.max))
      return Status::Input("at /counters/" + key + ": not the bounds these rules give the counter");
  }
  for (const Zone& z : fresh.zones) {
    const Zone* other = saved.FindZone(z.name, z.owner);
    if (other && other->visibility != z.visibility)
      return Status::Input("at /zones: zone '" + z.name + "' is " + VisibilityName(other->visibility) + ", but these rules make it " +
                           VisibilityName(z.visibility));
  }
  return Status::Ok();
}

Status CheckSave(Rules& rules, const State& saved, bool rebuild) {
  const GameInfo& info = rules.info();
  if (saved.player_count < info.min_players || saved.player_count > info.max_players)
    return Status::Input("at /player_count: " + std::to_string(saved.player_count) + " players, but " + info.id + " is for " +
                         std::to_string(info.min_players) + " to " + std::to_string(info.max_players));
  Json resolved;
  Status st = ResolveParams(info, saved.params, &resolved);
  if (!st.ok()) {
    // "parameter 'limit' of game ...": the pointer names the parameter.
    std::string at = "/params";
    const size_t q = st.message.find('\'');
    if (q != std::string::npos && q < 20 && st.message.find('\'', q + 1) != std::string::npos)
      at += "/" + st.message.substr(q + 1, st.message.find('\'', q + 1) - q - 1);
    return Status::Input("at " + at + ": " + st.message);
  }
  // What these rules set up must be what the save says they set up: a map's closing ends, a
  // grid's frame, a track's length, a counter's bounds and a zone's visibility are the rules'
  // choice, not the save's (components made later in the game are not compared).
  State fresh;
  st = rules.NewGame(resolved, saved.player_count, saved.seed, &fresh);
  if (!st.ok()) return st;
  st = CompareSetup(fresh, saved);
  if (!st.ok()) return st;
  st = rules.CheckLoaded(saved);
  if (!st.ok()) return st;
  if (!rebuild) return Status::Ok();
  std::vector<LoggedMove> moves;
  st = MovesOfLog(saved, &moves);
  if (!st.ok()) return st;
  State rebuilt;
  size_t failed = moves.size();
  st = Replay(rules, saved, moves, &rebuilt, nullptr, &failed);
  if (!st.ok()) {
    const std::string at = failed < moves.size() && moves[failed].log_index >= 0 ? "/log/" + std::to_string(moves[failed].log_index) : "/log";
    st.message = "at " + at + ": its seed and move log do not replay: " + st.message;
    if (!st.script_failure()) st.kind = ErrorKind::kInput;
    return st;
  }
  if (rebuilt.Hash() == saved.Hash()) return Status::Ok();
  // Name the first part of the table that differs.
  Json a = rebuilt.ToJson(), b = saved.ToJson();
  std::string part = "the table";
  for (auto it = a.begin(); it != a.end(); ++it)
    if (it.key() != "log" && (!b.contains(it.key()) || b[it.key()] != *it)) {
      part = "/" + it.key();
      if (it->is_object() && b.contains(it.key()) && b[it.key()].is_object())
        for (auto in = it->begin(); in != it->end(); ++in)
          if (!b[it.key()].contains(in.key()) || b[it.key()][in.key()] != *in) {
            part += "/" + in.key();
            break;
          }
      break;
    }
  return Status::Input("at " + part + ": the saved state is not what its seed and " + std::to_string(moves.size()) +
                       " moves give (edited by hand?); nothing was loaded");
}

}  // namespace plateau

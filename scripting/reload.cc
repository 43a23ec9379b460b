// Hot reload (see reload.h).
#include "scripting/reload.h"

namespace plateau::scripting {
namespace {

// Card ids index the card set, so every card of the running game must keep its id.
Status CheckCards(const CardSet& old_cards, const CardSet& new_cards, const std::string& game) {
  for (size_t i = 0; i < old_cards.size(); ++i) {
    const std::string& name = old_cards.Name(static_cast<CardId>(i));
    if (i >= new_cards.size() || new_cards.Name(static_cast<CardId>(i)) != name) {
      const CardId now = new_cards.Find(name);
      return Status::Input("games/" + game + ": card '" + name + "' " +
                           (now == kNoCard ? "was removed" : "moved in the card files") +
                           " while a game is on the table; keep existing cards in place (add new ones at the end)");
    }
  }
  return Status::Ok();
}

std::string ScoreChanges(const ScoreTable& before, const ScoreTable& after) {
  std::string out;
  for (const auto& b : before.lines) {
    for (const auto& a : after.lines) {
      if (a.seat != b.seat) continue;
      for (const auto& [cat, v_after] : a.breakdown) {
        int64_t v_before = 0;
        bool had = false;
        for (const auto& [c, v] : b.breakdown)
          if (c == cat) { v_before = v; had = true; }
        if (!had || v_before != v_after)
          out += cat + ": " + (had ? std::to_string(v_before) : "-") + " -> " + std::to_string(v_after) + " for " + a.name + "\n";
      }
      if (a.total != b.total)
        out += "total: " + std::to_string(b.total) + " -> " + std::to_string(a.total) + " for " + a.name + "\n";
    }
  }
  return out;
}

}  // namespace

ReloadResult ReloadRules(const std::string& game, const Limits& limits, State* state,
                         std::unique_ptr<LuaRules>* rules) {
  ReloadResult r;
  std::unique_ptr<LuaRules> fresh;
  // The game on the table was made with these numbers: the new files get the same overrides.
  Status st = LuaRules::Load(game, limits, (*rules)->data_overrides(), &fresh, /*defer_look=*/true);
  if (!st.ok()) {
    r.error = st;
    return r;
  }
  if (fresh->info().id != (*rules)->info().id) {
    r.error = Status::Input("the folder now holds game '" + fresh->info().id + "', not '" + (*rules)->info().id + "'");
    return r;
  }
  st = CheckCards(*state->cards, *fresh->files().cards, fresh->info().id);
  if (!st.ok()) {
    r.error = st;
    return r;
  }
  // Dry run on a copy that sees the new card set; a new version migrates the copy first.
  State probe = *state;
  probe.cards = fresh->files().cards;
  // Tile maps are placed again from the new tile set, so its tiles' new facts count and a
  // placed tile the new data no longer has (or that no longer fits) refuses the reload.
  probe.tiles = fresh->files().tiles;
  probe.regions = fresh->files().regions;
  for (auto& [name, map] : probe.region_maps) {
    RegionMap rebuilt;
    std::string why;
    if (!RegionMap::FromJson(map.ToJson(), probe.regions, &rebuilt, &why)) {
      r.error = Status::Input("region map '" + name + "' no longer fits the regions data: " + why);
      return r;
    }
    map = std::move(rebuilt);
  }
  for (auto& [name, map] : probe.tile_maps) {
    TileMap rebuilt;
    std::string why;
    if (!TileMap::FromJson(map.ToJson(), probe.tiles, &rebuilt, &why)) {
      r.error = Status::Input("tile map '" + name + "' no longer fits the tiles data: " + why);
      return r;
    }
    map = std::move(rebuilt);
  }
  const int64_t old_version = (*rules)->version(), new_version = fresh->version();
  if (new_version != old_version) {
    st = fresh->Migrate(&probe, old_version);
    if (!st.ok()) {
      st.message = "migrate from version " + std::to_string(old_version) + " failed: " + st.message;
      r.error = st;
      return r;
    }
  }
  std::vector<int> seats;
  std::vector<Move> moves;
  ScoreTable after, before;
  st = fresh->ToMove(probe, &seats);
  for (size_t i = 0; st.ok() && i < seats.size(); ++i) st = fresh->LegalMoves(probe, seats[i], &moves);
  if (st.ok()) st = fresh->Score(probe, &after);
  if (!st.ok()) {
    if (new_version != old_version) st.message = "after migrate from version " + std::to_string(old_version) + ": " + st.message;
    r.error = st;
    return r;
  }
  // The look last: a save that breaks the data or the table is told as such first.
  if (!fresh->files().look_error.ok()) {
    r.error = fresh->files().look_error;
    return r;
  }
  if ((*rules)->Score(*state, &before).ok()) r.changes = ScoreChanges(before, after);
  // Commit: the (possibly migrated) state, seeing the new, compatible card set. The log says
  // where the rules changed and from what to what, so a replay of this game can tell that the
  // moves before this point were played under other rules.
  if (new_version != old_version) *state = std::move(probe);
  else {
    state->tile_maps = std::move(probe.tile_maps);
    state->region_maps = std::move(probe.region_maps);
  }
  state->cards = fresh->files().cards;
  state->tiles = fresh->files().tiles;
  state->regions = fresh->files().regions;
  state->Log(-1, "reload",
             {{"from", (*rules)->fingerprint()}, {"to", fresh->fingerprint()}, {"version_from", old_version},
              {"version_to", new_version}, {"move", state->move_count}});
  state->Touch();
  *rules = std::move(fresh);
  r.ok = true;
  return r;
}

}  // namespace plateau::scripting

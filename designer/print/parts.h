// What `plateau print` and `plateau export tts` draw, worked out from a game's data and look with
// no drawing library: the sections (a deck of cards, the tiles, the start tile, a game's sheets),
// each with its part size and its parts (one design each, with the count the data gives), and a
// fingerprint per part so a print can hold only the parts whose data or look changed. The
// drawing is render.h's (the one file that includes Cairo and Pango).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "host/game.h"

namespace plateau::print {

enum class PartKind { kCard, kTile, kTileGroup, kSheet };

struct Part {
  std::string key;  // unique in the game: "<section>#<id>" ("cards/cards#lion", "tiles#CS1")
  std::string id;
  std::string title, cost, text, icon;
  std::string lower;   // a card's second half below a fold (Fauna's answer, hidden in the box)
  std::string colour;  // "#rgb" / "#rrggbb", or "" for the default paper colour
  int count = 1;
  Json tile;                      // kTile: the tile's definition; kTileGroup: [{def, row, col}]
  int group_rows = 1, group_cols = 1;
  std::vector<std::string> rows;  // kSheet: one line per row
  std::string hash;               // 16 hex digits over what draws it (entry, look spec, size)
};

struct Section {
  std::string name;   // "cards/cards", "tiles", "start tile", "scales/scales"
  std::string label;  // what its backs say ("events", "tiles")
  PartKind kind = PartKind::kCard;
  double width_mm = 63, height_mm = 88;
  std::vector<Part> parts;
  int Total() const {
    int n = 0;
    for (const auto& p : parts) n += p.count;
    return n;
  }
};

// How tiles are drawn: the colour of each edge kind, the ground colour, icons per segment
// animal and per tile property (the look's "tiles").
struct TileLook {
  std::map<std::string, std::string> kinds;
  std::string ground = "#c9dd8b";
  std::string ground_kind;  // the edge kind that is the ground (no feature)
  std::map<std::string, std::string> segment_icons, properties;
  std::set<std::string> paths;  // kinds drawn as a band from the edge in (trails), not a wedge
};

struct PrintSet {
  std::string game_id, game_name, version, fingerprint;
  bool has_look = false;
  std::string back_colour = "#2f4858";
  std::vector<Section> sections;
  TileLook tiles;
  std::string Stamp() const { return game_id + " v" + version + " · rules " + fingerprint; }
};

// The files a print is drawn from: the manifest, the data by name, the look (null: none). The
// current files of a loaded game, or those of a saved git revision.
struct PrintSource {
  Json manifest;
  std::map<std::string, Json> data;  // by data name, as in the manifest
  Json look;
};

// The sections and parts of a game. Refuses (naming the look file) a print section that names
// data that is not there.
Status BuildPrintSet(const PrintSource& source, const std::string& look_file, PrintSet* out);

// A value in words, as the studio page says it: a name object in English, a list joined, an
// object as "key value, ..."; and a look template with {field} (a.b, list.length) filled from
// the entry.
std::string Words(const Json& v);
// A small whole number from the data (a cell, a rotation, a tally), clamped to ±100000, or
// `fallback` when it is not a number: drawing never throws or narrows on the data.
int SmallInt(const Json& v, int fallback);
std::string Fill(const std::string& tpl, const Json& entry);

}  // namespace plateau::print

// plateau print (print-and-play PDF sheets of a game's cards, tiles and sheets, drawn from its
// look and stamped with its rules fingerprint; only the parts changed since a fingerprint file
// or a git revision on request) and plateau export tts (a Tabletop Simulator saved object with
// the card sheets and tiles as PNG). The drawing is designer/print's.
#pragma once

#include <string>
#include <vector>

#include "host/loader.h"

namespace plateau {

// The whole print of a game as PDF bytes (the studio's download): its files with `data_sets`
// applied, on `paper` ("a4", "letter"). *summary says what it holds.
Status PrintPdf(const std::string& game, const std::vector<DataOverride>& data_sets, const std::string& paper, std::string* pdf,
                std::string* summary);

struct PrintOptions {
  std::string game;
  std::string out;                 // default: ./<game id>-print.pdf
  std::string paper = "a4";
  std::string since;               // --only-changed-since: a fingerprint file or a git revision
  std::string write_fingerprints;  // --write-fingerprints FILE
};
int RunPrint(const PrintOptions& options);

struct ExportTtsOptions {
  std::string game;
  std::string out;        // a folder that must not exist yet
  std::string image_url;  // where the images will be served from; default: file:// URLs of `out`
  double px_per_mm = 5;   // the images' resolution (a 63 mm card: 315 pixels wide)
};
int RunExportTts(const ExportTtsOptions& options);

}  // namespace plateau

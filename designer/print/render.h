// Drawing a game's print (parts.h) with Cairo and Pango: PDF sheets for print and play (faces
// on their pages, backs on the next page mirrored for duplex, cut marks, each part stamped with
// the game's id, version and rules fingerprint) and PNG images (Tabletop Simulator's card sheets
// and tiles). The only code of Plateau that includes Cairo or Pango (render.cc).
#pragma once

#include <string>
#include <vector>

#include "designer/print/parts.h"

namespace plateau::print {

struct Paper {
  std::string name;
  double width_mm = 210, height_mm = 297;
};
// "a4" or "letter"; false for anything else.
bool PaperByName(const std::string& name, Paper* out);

struct PdfSummary {
  int pages = 0;
  int faces = 0;        // parts printed, counting copies
  int face_pages = 0;
  int back_pages = 0;
};

// The whole print as PDF bytes. `cover`, when not empty, is a first page of lines (what changed).
std::string RenderPdf(const PrintSet& set, const Paper& paper, const std::vector<std::string>& cover, PdfSummary* summary);

// A PNG of parts of one section laid out in a grid of `cols` x `rows` cells (Tabletop
// Simulator's card sheet: the cells left over stay empty), at `px_per_mm`.
std::string RenderSheetPng(const PrintSet& set, const Section& section, const std::vector<const Part*>& parts, int cols,
                           int rows, double px_per_mm);
// A PNG of one section's back.
std::string RenderBackPng(const PrintSet& set, const Section& section, double px_per_mm);

}  // namespace plateau::print

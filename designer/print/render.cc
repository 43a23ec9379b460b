// Cairo and Pango drawing of a game's print (see render.h). Every length is in points (1/72
// inch) while drawing, so a PDF page and a PNG at any resolution share the code; sizes come in
// millimetres. Icons (emoji, in the looks) are drawn through an image surface: Noto Color Emoji
// is a bitmap font, which Cairo's PDF surface does not draw in colour.
#include "designer/print/render.h"

#include <cairo-pdf.h>
#include <cairo.h>
#include <pango/pangocairo.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>

namespace plateau::print {

bool PaperByName(const std::string& name, Paper* out) {
  if (name == "a4") *out = {"a4", 210, 297};
  else if (name == "letter") *out = {"letter", 215.9, 279.4};
  else return false;
  return true;
}

namespace {

constexpr double kPtPerMm = 72.0 / 25.4;
double Mm(double mm) { return mm * kPtPerMm; }

struct Rgb {
  double r = 1, g = 1, b = 1;
};
Rgb Colour(const std::string& text, Rgb fallback) {
  auto hex = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; };
  if (text.size() == 7 && text[0] == '#') {
    int v[6];
    for (int i = 0; i < 6; ++i)
      if ((v[i] = hex(text[1 + i])) < 0) return fallback;
    return {(v[0] * 16 + v[1]) / 255.0, (v[2] * 16 + v[3]) / 255.0, (v[4] * 16 + v[5]) / 255.0};
  }
  if (text.size() == 4 && text[0] == '#') {
    int v[3];
    for (int i = 0; i < 3; ++i)
      if ((v[i] = hex(text[1 + i])) < 0) return fallback;
    return {v[0] * 17 / 255.0, v[1] * 17 / 255.0, v[2] * 17 / 255.0};
  }
  return fallback;
}
void Source(cairo_t* cr, Rgb c, double alpha = 1) { cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha); }

void RoundRect(cairo_t* cr, double x, double y, double w, double h, double r) {
  cairo_new_sub_path(cr);
  cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
  cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
  cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
  cairo_arc(cr, x + r, y + r, r, M_PI, 1.5 * M_PI);
  cairo_close_path(cr);
}

struct LayoutDeleter {
  void operator()(PangoLayout* l) const { g_object_unref(l); }
};
using Layout = std::unique_ptr<PangoLayout, LayoutDeleter>;

// A Pango layout on `cr` whose sizes are points in the user space (resolution 72, no hinting
// of metrics, so text measures the same on a PDF and on any PNG).
Layout MakeLayout(cairo_t* cr, const std::string& family, double size_pt, bool bold) {
  Layout l(pango_cairo_create_layout(cr));
  PangoContext* ctx = pango_layout_get_context(l.get());
  pango_cairo_context_set_resolution(ctx, 72);
  cairo_font_options_t* fo = cairo_font_options_create();
  cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
  pango_cairo_context_set_font_options(ctx, fo);
  cairo_font_options_destroy(fo);
  pango_layout_context_changed(l.get());
  PangoFontDescription* d = pango_font_description_from_string(family.c_str());
  pango_font_description_set_size(d, static_cast<gint>(size_pt * PANGO_SCALE));
  if (bold) pango_font_description_set_weight(d, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description(l.get(), d);
  pango_font_description_free(d);
  return l;
}

enum class Align { kLeft, kCentre };

// Text in a box: wrapped to its width, shrunk from `size_pt` down to `min_pt` until it fits
// its height (then cut with an ellipsis), drawn from the top (or centred vertically). Returns
// the height it took.
double Text(cairo_t* cr, const std::string& text, double x, double y, double w, double h, double size_pt, double min_pt,
          bool bold, Rgb colour, Align align = Align::kLeft, bool middle = false) {
  if (text.empty() || w <= 0 || h <= 0) return 0;
  Layout l;
  double size = size_pt;
  PangoRectangle ink, logical;
  for (;;) {
    l = MakeLayout(cr, "DejaVu Sans", size, bold);
    pango_layout_set_width(l.get(), static_cast<int>(w * PANGO_SCALE));
    pango_layout_set_wrap(l.get(), PANGO_WRAP_WORD_CHAR);
    pango_layout_set_alignment(l.get(), align == Align::kCentre ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT);
    pango_layout_set_text(l.get(), text.c_str(), -1);
    pango_layout_get_extents(l.get(), &ink, &logical);
    if (logical.height / double(PANGO_SCALE) <= h || size <= min_pt) break;
    size = std::max(min_pt, size - 0.5);
  }
  if (logical.height / double(PANGO_SCALE) > h) {
    pango_layout_set_height(l.get(), static_cast<int>(h * PANGO_SCALE));
    pango_layout_set_ellipsize(l.get(), PANGO_ELLIPSIZE_END);
    pango_layout_get_extents(l.get(), &ink, &logical);
  }
  const double th = logical.height / double(PANGO_SCALE);
  cairo_save(cr);
  Source(cr, colour);
  cairo_move_to(cr, x, middle ? y + (h - th) / 2 : y);
  pango_cairo_show_layout(cr, l.get());
  cairo_new_path(cr);
  cairo_restore(cr);
  return th;
}

// An icon (an emoji or a few letters) centred at (cx, cy), `size` points high, drawn into an
// image first so a colour emoji keeps its colours in a PDF.
void Icon(cairo_t* cr, const std::string& icon, double cx, double cy, double size) {
  if (icon.empty() || size <= 0) return;
  const int px = 128;
  cairo_surface_t* img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, px * 4, px);
  cairo_t* ic = cairo_create(img);
  Layout l = MakeLayout(ic, "Noto Color Emoji,DejaVu Sans", px * 0.72, false);
  pango_layout_set_text(l.get(), icon.c_str(), -1);
  PangoRectangle ink, logical;
  pango_layout_get_extents(l.get(), &ink, &logical);
  const double lw = std::min<double>(logical.width / double(PANGO_SCALE), px * 4), lh = logical.height / double(PANGO_SCALE);
  cairo_set_source_rgb(ic, 0, 0, 0);
  cairo_move_to(ic, (px * 4 - lw) / 2, (px - lh) / 2);
  pango_cairo_show_layout(ic, l.get());
  cairo_destroy(ic);
  cairo_surface_flush(img);
  const double scale = size / px;
  cairo_save(cr);
  cairo_translate(cr, cx - px * 2 * scale, cy - size / 2);
  cairo_scale(cr, scale, scale);
  cairo_set_source_surface(cr, img, 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
  cairo_paint(cr);
  cairo_restore(cr);
  cairo_surface_destroy(img);
}

const Rgb kInk{0.13, 0.13, 0.13}, kGrey{0.45, 0.45, 0.45}, kPaper{0.985, 0.98, 0.965}, kWhite{1, 1, 1};

void Stamp(cairo_t* cr, const PrintSet& set, double x, double y, double w, double size = 4.5) {
  Text(cr, set.Stamp(), x, y, w, size * 1.6, size, size, false, kGrey, Align::kCentre);
}

void DrawCard(cairo_t* cr, const PrintSet& set, const Part& p, double x, double y, double w, double h) {
  const double pad = Mm(3), r = Mm(3);
  RoundRect(cr, x + 0.5, y + 0.5, w - 1, h - 1, r);
  Source(cr, Colour(p.colour, kPaper));
  cairo_fill_preserve(cr);
  cairo_set_line_width(cr, 0.6);
  Source(cr, kGrey);
  cairo_stroke(cr);
  const double icon = p.icon.empty() ? 0 : Mm(10);
  // The cost in a pill as wide as it needs (a number, or a word such as "permanent").
  double cost = 0;
  if (!p.cost.empty()) {
    Layout l = MakeLayout(cr, "DejaVu Sans", 7, true);
    pango_layout_set_text(l.get(), p.cost.c_str(), -1);
    PangoRectangle ink, logical;
    pango_layout_get_extents(l.get(), &ink, &logical);
    cost = std::clamp(logical.width / double(PANGO_SCALE) + Mm(3.5), Mm(9), w * 0.45);
  }
  const double head = Mm(11);
  if (icon > 0) Icon(cr, p.icon, x + pad + icon / 2, y + pad + head / 2, icon);
  Text(cr, p.title, x + pad + (icon > 0 ? icon + Mm(1.5) : 0), y + pad, w - 2 * pad - (icon > 0 ? icon + Mm(1.5) : 0) - cost, head,
       11, 6, true, kInk, Align::kLeft, true);
  if (cost > 0) {
    const double cx = x + w - pad - cost, cy = y + pad + head / 2 - Mm(4);
    cairo_new_path(cr);
    RoundRect(cr, cx, cy, cost, Mm(8), Mm(4));
    Source(cr, kWhite, 0.85);
    cairo_fill_preserve(cr);
    Source(cr, kGrey);
    cairo_set_line_width(cr, 0.5);
    cairo_stroke(cr);
    Text(cr, p.cost, cx + Mm(1), cy, cost - Mm(2), Mm(8), 7, 4, true, kInk, Align::kCentre, true);
  }
  const double top = y + pad + head + Mm(1.5);
  cairo_move_to(cr, x + pad, top - Mm(0.75));
  cairo_line_to(cr, x + w - pad, top - Mm(0.75));
  Source(cr, kGrey, 0.6);
  cairo_set_line_width(cr, 0.4);
  cairo_stroke(cr);
  const double stamp_h = Mm(3.5);
  const double bottom = y + h - pad - stamp_h;
  if (p.lower.empty()) {
    const double used = Text(cr, p.text, x + pad, top, w - 2 * pad, bottom - top, 9, 4.5, false, kInk);
    // The icon again, large, in the room the text leaves (where a card's picture would be).
    const double room = bottom - top - used - Mm(2);
    if (icon > 0 && room > Mm(12)) {
      const double big = std::min(Mm(26), room * 0.8);
      Icon(cr, p.icon, x + w / 2, top + used + Mm(1) + room / 2, big);
    }
  } else {
    // Two halves: the upper one shown, the lower one hidden until the reveal (Fauna's box).
    const double mid = y + h * 0.5;
    Text(cr, p.text, x + pad, top, w - 2 * pad, mid - top - Mm(1), 8, 4.5, false, kInk);
    const double dashes[] = {3, 2};
    cairo_set_dash(cr, dashes, 2, 0);
    cairo_move_to(cr, x + Mm(1), mid);
    cairo_line_to(cr, x + w - Mm(1), mid);
    Source(cr, kGrey);
    cairo_set_line_width(cr, 0.5);
    cairo_stroke(cr);
    cairo_set_dash(cr, nullptr, 0, 0);
    Text(cr, p.lower, x + pad, mid + Mm(1.5), w - 2 * pad, bottom - mid - Mm(1.5), 7, 3.5, false, kInk);
  }
  Stamp(cr, set, x + pad, y + h - pad - stamp_h + Mm(0.8), w - 2 * pad);
}

// One square tile of side s at (x, y), turned by `rotation` degrees clockwise: the ground, a
// triangle per feature edge in its kind's colour, a disc for a segment with no side, each
// segment's animals at its sides and an icon per property.
void DrawTile(cairo_t* cr, const PrintSet& set, const Json& def, int rotation, double x, double y, double s, bool label) {
  const TileLook& tl = set.tiles;
  Source(cr, Colour(tl.ground, {0.79, 0.87, 0.55}));
  cairo_rectangle(cr, x, y, s, s);
  cairo_fill(cr);
  const int turn = ((rotation / 90) % 4 + 4) % 4;
  const double h = s / 2;
  const double corners[4][2] = {{0, 0}, {s, 0}, {s, s}, {0, s}};
  const std::string sides = "NESW";
  auto kind_colour = [&](const std::string& k) {
    auto it = tl.kinds.find(k);
    return Colour(it == tl.kinds.end() ? "" : it->second, {0.6, 0.45, 0.3});
  };
  const Json edges = def.value("edges", Json::array());
  for (int side = 0; side < 4; ++side) {
    const int data_side = (side - turn + 4) % 4;
    if (data_side >= static_cast<int>(edges.size()) || !edges[data_side].is_string()) continue;
    const std::string kind = edges[data_side];
    if (kind == tl.ground_kind || tl.paths.count(kind)) continue;
    cairo_move_to(cr, x + corners[side][0], y + corners[side][1]);
    cairo_line_to(cr, x + corners[(side + 1) % 4][0], y + corners[(side + 1) % 4][1]);
    cairo_line_to(cr, x + h, y + h);
    cairo_close_path(cr);
    Source(cr, kind_colour(kind), 0.92);
    cairo_fill(cr);
  }
  const Json segs = def.value("segments", Json::array());
  const double at[4][2] = {{h, s * 0.2}, {s * 0.8, h}, {h, s * 0.8}, {s * 0.2, h}};
  // Paths (trails): a band from each of the segment's sides to the middle, curving between two
  // sides, a blob where a one-sided path stops.
  const double mid[4][2] = {{h, 0}, {s, h}, {h, s}, {0, h}};
  for (const auto& sg : segs) {
    if (!sg.is_object() || !tl.paths.count(sg.value("kind", std::string()))) continue;
    std::vector<int> shown;
    for (const auto& side : sg.value("sides", Json::array())) {
      const size_t i = sides.find(side.is_string() ? side.get<std::string>() : "?");
      if (i != std::string::npos) shown.push_back((static_cast<int>(i) + turn) % 4);
    }
    cairo_new_path(cr);
    cairo_set_line_width(cr, s * 0.2);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    Source(cr, kind_colour(sg.value("kind", std::string())));
    if (shown.size() == 2) {
      cairo_move_to(cr, x + mid[shown[0]][0], y + mid[shown[0]][1]);
      cairo_curve_to(cr, x + h, y + h, x + h, y + h, x + mid[shown[1]][0], y + mid[shown[1]][1]);
      cairo_stroke(cr);
    } else {
      for (int side : shown) {
        cairo_move_to(cr, x + mid[side][0], y + mid[side][1]);
        cairo_line_to(cr, x + h, y + h);
      }
      cairo_stroke(cr);
      cairo_arc(cr, x + h, y + h, s * 0.15, 0, 2 * M_PI);
      cairo_fill(cr);
    }
  }
  for (const auto& sg : segs) {
    const Json sd = sg.value("sides", Json::array());
    if (sd.empty()) {
      cairo_new_path(cr);
      cairo_arc(cr, x + h, y + h, s / 7, 0, 2 * M_PI);
      Source(cr, kind_colour(sg.value("kind", std::string())));
      cairo_fill(cr);
    }
  }
  for (const auto& sg : segs) {
    std::vector<std::string> icons;
    const Json tally = sg.value("tally", Json::object());
    for (const auto& [sp, n] : tally.items()) {
      auto it = tl.segment_icons.find(sp);
      const std::string icon = it != tl.segment_icons.end() ? it->second : std::string(1, static_cast<char>(std::toupper(sp[0])));
      for (int k = 0; k < std::min(SmallInt(n, 1), 4); ++k) icons.push_back(icon);
    }
    if (icons.empty()) continue;
    double cx = 0, cy = 0;
    const Json sd = sg.value("sides", Json::array());
    for (const auto& side : sd) {
      const size_t i = sides.find(side.is_string() ? side.get<std::string>() : "?");
      if (i == std::string::npos) continue;
      const int shown = (static_cast<int>(i) + turn) % 4;
      cx += at[shown][0], cy += at[shown][1];
    }
    if (sd.empty()) cx = cy = h;
    else cx /= sd.size(), cy /= sd.size();
    const double is = s * 0.17;
    for (size_t k = 0; k < icons.size(); ++k)
      Icon(cr, icons[k], x + cx + (k - (icons.size() - 1) / 2.0) * is * 0.95, y + cy, is);
  }
  int k = 0;
  for (const auto& [prop, icon] : tl.properties)
    if (def.contains("properties") && def["properties"].value(prop, false)) Icon(cr, icon, x + s * (0.2 + 0.22 * k++), y + s * 0.2, s * 0.22);
  if (label) {
    Text(cr, def.value("id", std::string()), x + Mm(1), y + s - Mm(4.2), s * 0.5, Mm(3), 5, 3, false, kInk);
  }
}

void DrawTilePart(cairo_t* cr, const PrintSet& set, const Section& section, const Part& p, double x, double y, double w, double h) {
  if (section.kind == PartKind::kTile) {
    DrawTile(cr, set, p.tile, 0, x, y, w, true);
  } else {
    const double s = std::min(w / p.group_cols, h / p.group_rows);
    for (const auto& g : p.tile)
      DrawTile(cr, set, g["def"], SmallInt(g["rotation"], 0), x + SmallInt(g["col"], 0) * s, y + SmallInt(g["row"], 0) * s, s, true);
  }
  cairo_rectangle(cr, x + 0.25, y + 0.25, w - 0.5, h - 0.5);
  Source(cr, kGrey);
  cairo_set_line_width(cr, 0.5);
  cairo_stroke(cr);
  Stamp(cr, set, x + Mm(1), y + h - Mm(2.6), w - Mm(2), 3.2);
}

void DrawSheet(cairo_t* cr, const PrintSet& set, const Part& p, double x, double y, double w, double h) {
  const double pad = Mm(5);
  cairo_rectangle(cr, x + 0.5, y + 0.5, w - 1, h - 1);
  Source(cr, kWhite);
  cairo_fill_preserve(cr);
  Source(cr, kGrey);
  cairo_set_line_width(cr, 0.7);
  cairo_stroke(cr);
  Text(cr, p.title, x + pad, y + pad, w - 2 * pad, Mm(8), 14, 8, true, kInk);
  double top = y + pad + Mm(9);
  if (!p.text.empty()) {
    Text(cr, p.text, x + pad, top, w - 2 * pad, Mm(9), 9, 6, false, kInk);
    top += Mm(10);
  }
  const double bottom = y + h - pad - Mm(4);
  if (!p.rows.empty()) {
    const double rh = std::min(Mm(7), (bottom - top) / p.rows.size());
    for (size_t i = 0; i < p.rows.size(); ++i) {
      const double ry = top + i * rh;
      if (i % 2 == 0) {
        cairo_rectangle(cr, x + pad, ry, w - 2 * pad, rh);
        Source(cr, {0.93, 0.94, 0.9});
        cairo_fill(cr);
      }
      Text(cr, p.rows[i], x + pad + Mm(1.5), ry, w - 2 * pad - Mm(3), rh, 9, 4, false, kInk, Align::kLeft, true);
    }
  }
  Stamp(cr, set, x + pad, y + h - pad - Mm(2.5), w - 2 * pad, 5);
}

void DrawPart(cairo_t* cr, const PrintSet& set, const Section& section, const Part& p, double x, double y, double w, double h) {
  switch (section.kind) {
    case PartKind::kCard: DrawCard(cr, set, p, x, y, w, h); break;
    case PartKind::kTile:
    case PartKind::kTileGroup: DrawTilePart(cr, set, section, p, x, y, w, h); break;
    case PartKind::kSheet: DrawSheet(cr, set, p, x, y, w, h); break;
  }
}

void DrawBack(cairo_t* cr, const PrintSet& set, const Section& section, double x, double y, double w, double h) {
  const bool card = section.kind == PartKind::kCard;
  if (card) RoundRect(cr, x + 0.5, y + 0.5, w - 1, h - 1, Mm(3));
  else cairo_rectangle(cr, x + 0.5, y + 0.5, w - 1, h - 1);
  Source(cr, Colour(set.back_colour, {0.18, 0.28, 0.35}));
  cairo_fill(cr);
  const double pad = std::min(w, h) * 0.08;
  Text(cr, set.game_name, x + pad, y + h * 0.3, w - 2 * pad, h * 0.22, card ? 15 : 10, 5, true, kWhite, Align::kCentre, true);
  Text(cr, section.label, x + pad, y + h * 0.55, w - 2 * pad, h * 0.15, card ? 10 : 7, 4, false, kWhite, Align::kCentre, true);
}

// The cut marks of a grid: short lines in the margins along every card edge.
void CutMarks(cairo_t* cr, double x0, double y0, double cw, double ch, int cols, int rows, double page_w, double page_h) {
  const double gap = Mm(1.5), len = Mm(6);
  Source(cr, {0, 0, 0});
  cairo_set_line_width(cr, 0.4);
  for (int i = 0; i <= cols; ++i) {
    const double x = x0 + i * cw;
    cairo_move_to(cr, x, std::max(0.0, y0 - gap - len));
    cairo_line_to(cr, x, y0 - gap);
    cairo_move_to(cr, x, y0 + rows * ch + gap);
    cairo_line_to(cr, x, std::min(page_h, y0 + rows * ch + gap + len));
  }
  for (int j = 0; j <= rows; ++j) {
    const double y = y0 + j * ch;
    cairo_move_to(cr, std::max(0.0, x0 - gap - len), y);
    cairo_line_to(cr, x0 - gap, y);
    cairo_move_to(cr, x0 + cols * cw + gap, y);
    cairo_line_to(cr, std::min(page_w, x0 + cols * cw + gap + len), y);
  }
  cairo_stroke(cr);
}

cairo_status_t Append(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

std::string RenderPdf(const PrintSet& set, const Paper& paper, const std::vector<std::string>& cover, PdfSummary* summary) {
  std::string bytes;
  // Parts fit inside 6 mm of each edge (what printers leave unprinted, about): three cards high
  // on Letter as on A4. Titles and covers keep 10 mm.
  const double pw = Mm(paper.width_mm), ph = Mm(paper.height_mm), margin = Mm(10), fit = Mm(6);
  cairo_surface_t* surface = cairo_pdf_surface_create_for_stream(Append, &bytes, pw, ph);
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, (set.game_name + " — print and play").c_str());
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "plateau print");
  cairo_t* cr = cairo_create(surface);
  PdfSummary sum;
  auto header = [&](const std::string& text) {
    Text(cr, text, margin, Mm(1.5), pw - 2 * margin, Mm(4), 6, 5, false, kGrey);
  };
  if (!cover.empty()) {
    // The cover: what changed, as many lines as fit (the rest counted).
    Text(cr, set.game_name + " — " + cover.front(), margin, margin, pw - 2 * margin, Mm(14), 16, 9, true, kInk);
    double y = margin + Mm(16);
    const double lh = Mm(5.2);
    size_t i = 1;
    for (; i < cover.size() && y + lh < ph - margin - lh; ++i, y += lh)
      Text(cr, cover[i], margin, y, pw - 2 * margin, lh, 10, 6, false, kInk);
    if (i < cover.size()) Text(cr, "... and " + std::to_string(cover.size() - i) + " more", margin, y, pw - 2 * margin, lh, 10, 6, false, kInk);
    Text(cr, set.Stamp(), margin, ph - margin, pw - 2 * margin, Mm(5), 7, 5, false, kGrey);
    cairo_show_page(cr);
    ++sum.pages;
  }
  for (const auto& section : set.sections) {
    double cw = Mm(section.width_mm), ch = Mm(section.height_mm);
    const double scale = std::min({1.0, (pw - 2 * fit) / cw, (ph - 2 * fit) / ch});
    cw *= scale, ch *= scale;
    const int cols = std::max(1, static_cast<int>((pw - 2 * fit) / cw + 1e-6));
    const int rows = std::max(1, static_cast<int>((ph - 2 * fit) / ch + 1e-6));
    const double x0 = (pw - cols * cw) / 2, y0 = (ph - rows * ch) / 2;
    std::vector<const Part*> slots;
    for (const auto& p : section.parts)
      for (int k = 0; k < p.count; ++k) slots.push_back(&p);
    const int per_page = cols * rows;
    const int pages = static_cast<int>((slots.size() + per_page - 1) / per_page);
    const bool backs = section.kind != PartKind::kSheet;
    for (int page = 0; page < pages; ++page) {
      const size_t first = static_cast<size_t>(page) * per_page, last = std::min(slots.size(), first + per_page);
      header(set.game_name + " — " + section.label + ": faces, sheet " + std::to_string(page + 1) + " of " + std::to_string(pages) +
             " (" + std::to_string(first + 1) + "–" + std::to_string(last) + " of " + std::to_string(slots.size()) + ")");
      for (size_t i = first; i < last; ++i) {
        const int k = static_cast<int>(i - first);
        DrawPart(cr, set, section, *slots[i], x0 + (k % cols) * cw, y0 + (k / cols) * ch, cw, ch);
      }
      // Cut marks along the rows and columns this sheet uses.
      const int used = static_cast<int>(last - first);
      const int used_cols = std::min(cols, used), used_rows = (used + cols - 1) / cols;
      CutMarks(cr, x0, y0, cw, ch, used_cols, used_rows, pw, ph);
      cairo_show_page(cr);
      ++sum.pages, ++sum.face_pages;
      sum.faces += static_cast<int>(last - first);
      if (!backs) continue;
      // The backs, mirrored left to right: printed on the reverse (flip on the long edge), each
      // back falls behind its face.
      header(set.game_name + " — " + section.label + ": backs of sheet " + std::to_string(page + 1) +
             " (print on the reverse, flip on the long edge)");
      for (size_t i = first; i < last; ++i) {
        const int k = static_cast<int>(i - first);
        DrawBack(cr, set, section, x0 + (cols - 1 - k % cols) * cw, y0 + (k / cols) * ch, cw, ch);
      }
      CutMarks(cr, x0 + (cols - used_cols) * cw, y0, cw, ch, used_cols, used_rows, pw, ph);
      cairo_show_page(cr);
      ++sum.pages, ++sum.back_pages;
    }
  }
  if (sum.pages == 0) {
    Text(cr, set.game_name + ": nothing to print", margin, margin, pw - 2 * margin, Mm(14), 14, 9, true, kInk);
    cairo_show_page(cr);
    ++sum.pages;
  }
  cairo_destroy(cr);
  cairo_surface_finish(surface);
  cairo_surface_destroy(surface);
  if (summary) *summary = sum;
  return bytes;
}

namespace {

std::string Png(cairo_surface_t* surface) {
  std::string bytes;
  cairo_surface_write_to_png_stream(surface, Append, &bytes);
  return bytes;
}

}  // namespace

std::string RenderSheetPng(const PrintSet& set, const Section& section, const std::vector<const Part*>& parts, int cols, int rows,
                           double px_per_mm) {
  const double cw = Mm(section.width_mm), ch = Mm(section.height_mm), px_per_pt = px_per_mm / kPtPerMm;
  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, static_cast<int>(std::ceil(cols * cw * px_per_pt)),
                                                        static_cast<int>(std::ceil(rows * ch * px_per_pt)));
  cairo_t* cr = cairo_create(surface);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  cairo_scale(cr, px_per_pt, px_per_pt);
  for (size_t k = 0; k < parts.size() && k < static_cast<size_t>(cols * rows); ++k)
    DrawPart(cr, set, section, *parts[k], (k % cols) * cw, (k / cols) * ch, cw, ch);
  cairo_destroy(cr);
  std::string png = Png(surface);
  cairo_surface_destroy(surface);
  return png;
}

std::string RenderBackPng(const PrintSet& set, const Section& section, double px_per_mm) {
  const double cw = Mm(section.width_mm), ch = Mm(section.height_mm), px_per_pt = px_per_mm / kPtPerMm;
  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, static_cast<int>(std::ceil(cw * px_per_pt)),
                                                        static_cast<int>(std::ceil(ch * px_per_pt)));
  cairo_t* cr = cairo_create(surface);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  cairo_scale(cr, px_per_pt, px_per_pt);
  DrawBack(cr, set, section, 0, 0, cw, ch);
  cairo_destroy(cr);
  std::string png = Png(surface);
  cairo_surface_destroy(surface);
  return png;
}

}  // namespace plateau::print

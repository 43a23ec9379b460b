// plateau print and plateau export tts (see print.h): loading the game's files, the saved
// fingerprints or a git revision to compare with, and writing the PDF, the fingerprint file and
// the Tabletop Simulator folder through host/files.h's writers.
#include "designer/cli/print.h"

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "designer/cli/cli_common.h"
#include "designer/cli/process.h"
#include "designer/print/parts.h"
#include "designer/print/render.h"
#include "host/json_io.h"
#include "host/text.h"

namespace plateau {
namespace {

using print::Part;
using print::PrintSet;
using print::PrintSource;
using print::Section;

constexpr long long kMaxPrintParts = 20000;

// The game's current files as a print source, and its print set stamped with its fingerprint.
Status LoadPrint(const std::string& game, GameFiles* files, PrintSource* source, PrintSet* set,
                 const std::vector<DataOverride>& data_sets = g_data_sets) {
  Status st = LoadGameFiles(game, files);
  if (st.ok() && !data_sets.empty()) st = ApplyDataOverrides(data_sets, files);
  if (!st.ok()) return st;
  if (!files->look_error.ok()) return files->look_error;
  source->manifest = files->manifest;
  source->data = files->data;
  source->look = files->look;
  st = print::BuildPrintSet(*source, files->look_file, set);
  if (!st.ok()) return st;
  set->fingerprint = RulesFingerprint(*files);
  if (set->game_id.empty()) set->game_id = files->info.id;
  // Bounded work: a deck of a million cards is a mistake in the data, not 100 000 pages.
  long long parts = 0;
  for (const auto& s : set->sections) parts += s.Total();
  if (parts > kMaxPrintParts)
    return Status::Input(files->roots.front().display + ": " + std::to_string(parts) + " parts to print, more than plateau print makes (" +
                         std::to_string(kMaxPrintParts) + "): check the counts in its data");
  return Status::Ok();
}

// Each part's hash by key: what a fingerprint file keeps.
Json Fingerprints(const PrintSet& set) {
  Json parts = Json::object();
  for (const auto& s : set.sections)
    for (const auto& p : s.parts) parts[p.key] = {{"hash", p.hash}, {"title", p.title}, {"count", p.count}};
  return {{"plateau_print_fingerprints", 1}, {"game", set.game_id}, {"version", set.version}, {"rules", set.fingerprint}, {"parts", parts}};
}

// A fingerprint file written by --write-fingerprints, or a refusal naming the option.
Status ReadFingerprintFile(const std::string& path, const std::string& game_id, std::map<std::string, std::string>* hashes,
                           std::map<std::string, std::string>* titles) {
  const std::string named = "--only-changed-since " + TerminalText(path);
  std::string text, error;
  if (!ReadTextFile(path, 16u << 20, &text, &error)) return Status::Input(named + ": " + error);
  Json j;
  if (!ParseJsonLimited(text, path, &j, &error) || !j.is_object() || !j.contains("plateau_print_fingerprints") || !j.contains("parts") ||
      !j["parts"].is_object())
    return Status::Input(named + ": not a fingerprint file of plateau print (write one with plateau print " + game_id +
                         " --write-fingerprints FILE)");
  if (j.value("game", std::string()) != game_id)
    return Status::Input(named + ": the fingerprints of game '" + j.value("game", std::string("?")) + "', not of '" + game_id + "'");
  for (const auto& [key, v] : j["parts"].items()) {
    if (!v.is_object() || !v.contains("hash") || !v["hash"].is_string())
      return Status::Input(named + ": at /parts/" + key + ": a part needs a \"hash\" string");
    (*hashes)[key] = v["hash"];
    (*titles)[key] = v.value("title", key);
  }
  return Status::Ok();
}

// A git revision as the user wrote it, checked before it goes on git's command line (never
// through a shell): no option, no path part, only the characters revisions are made of.
bool PlainRevision(const std::string& rev) {
  if (rev.empty() || rev.size() > 200 || rev[0] == '-') return false;
  for (char c : rev)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || std::string("._/@^~{}-").find(c) != std::string::npos)) return false;
  return rev.find("..") == std::string::npos;
}

// The print source of the game's files at a git revision of the repository holding its folder.
Status SourceAtRevision(const GameFiles& files, const std::string& rev, PrintSource* out, std::string* look_file) {
  const std::string named = "--only-changed-since " + TerminalText(rev);
  if (!PlainRevision(rev))
    return Status::Input(named + ": neither a file nor a git revision (a revision is letters, digits and ._/@^~{}-, not starting with '-')");
  const std::string folder = files.roots.front().folder;
  ProcessOptions po;
  po.timeout_s = 60;
  ProcessResult top = RunProcess({"git", "--no-pager", "-c", "core.fsmonitor=false", "-C", folder, "rev-parse", "--show-toplevel"}, po);
  if (!top.ok())
    return Status::Input(named + ": no such file, and " + GameFolderDisplay(folder) + " is not in a git repository (" +
                         TerminalText(top.err.empty() ? top.Describe() : top.err.substr(0, 200)) + ")");
  std::string toplevel = top.out;
  while (!toplevel.empty() && (toplevel.back() == '\n' || toplevel.back() == '\r')) toplevel.pop_back();
  ProcessResult verify = RunProcess({"git", "--no-pager", "-c", "core.fsmonitor=false", "-C", folder, "rev-parse", "--verify", "--quiet", rev + "^{commit}"}, po);
  if (!verify.ok()) return Status::Input(named + ": no such file, nor a revision of the git repository at " + TerminalText(toplevel));
  std::error_code ec;
  const auto top_path = std::filesystem::canonical(toplevel, ec);
  // A file of the game as the revision has it: "" when it did not exist there.
  auto show = [&](const std::string& root_folder, const std::string& rel, Json* doc) -> Status {
    std::error_code e;
    const auto abs = std::filesystem::canonical(root_folder, e);
    if (e) return Status::Input(named + ": cannot resolve " + TerminalText(root_folder));
    const std::string in_repo = (abs.lexically_relative(top_path) / rel).generic_string();
    ProcessResult r = RunProcess({"git", "--no-pager", "-c", "core.fsmonitor=false", "-C", folder, "show", rev + ":" + in_repo}, po);
    *doc = Json();
    if (!r.ok()) return Status::Ok();
    std::string error;
    if (!ParseJsonLimited(r.out, rev + ":" + in_repo, doc, &error)) *doc = Json();
    return Status::Ok();
  };
  out->manifest = files.manifest;
  Json manifest;
  Status st = show(folder, "game.json", &manifest);
  if (!st.ok()) return st;
  if (manifest.is_object()) {
    manifest["id"] = files.manifest.value("id", std::string());
    out->manifest = manifest;
  }
  // Each data file where the game's files found it (its own folder or a base's).
  auto root_of = [&](const std::string& display, std::string* rel) -> const GameFiles::Root* {
    for (const auto& r : files.roots)
      if (display.compare(0, r.display.size() + 1, r.display + "/") == 0) {
        *rel = display.substr(r.display.size() + 1);
        return &r;
      }
    return nullptr;
  };
  for (const auto& [name, display] : files.data_files) {
    std::string rel;
    const GameFiles::Root* r = root_of(display, &rel);
    Json doc;
    if (r) {
      st = show(r->folder, rel, &doc);
      if (!st.ok()) return st;
    }
    out->data[name] = doc.is_null() ? Json::object() : doc;
  }
  out->look = Json();
  *look_file = files.look_file;
  std::string rel;
  if (const GameFiles::Root* r = files.look_file.empty() ? nullptr : root_of(files.look_file, &rel)) {
    Json look;
    st = show(r->folder, rel, &look);
    if (!st.ok()) return st;
    if (look.is_object()) out->look = look;
  } else {
    for (const auto& r : files.roots) {
      Json look;
      st = show(r.folder, "data/look.json", &look);
      if (!st.ok()) return st;
      if (look.is_object()) {
        out->look = look;
        break;
      }
    }
  }
  return Status::Ok();
}

// Keeps the parts that changed since `old` (by key: a new hash, or new), and says what
// changed, was added or removed, for the cover page.
void KeepChanged(PrintSet* set, const std::map<std::string, std::string>& old, const std::map<std::string, std::string>& old_titles,
                 const std::string& since, std::vector<std::string>* cover) {
  std::vector<std::string> lines;
  std::set<std::string> seen;
  int kept = 0;
  for (auto& s : set->sections) {
    std::vector<Part> parts;
    for (auto& p : s.parts) {
      seen.insert(p.key);
      auto it = old.find(p.key);
      if (it != old.end() && it->second == p.hash) continue;
      lines.push_back(std::string(it == old.end() ? "new: " : "changed: ") + p.title + " (" + p.key + ", " + std::to_string(p.count) +
                      (p.count == 1 ? " copy)" : " copies)"));
      kept += p.count;
      parts.push_back(std::move(p));
    }
    s.parts = std::move(parts);
  }
  std::vector<Section> sections;
  for (auto& s : set->sections)
    if (!s.parts.empty()) sections.push_back(std::move(s));
  set->sections = std::move(sections);
  for (const auto& [key, hash] : old)
    if (!seen.count(key)) lines.push_back("removed: " + old_titles.at(key) + " (" + key + ")");
  cover->push_back("changed since " + since + ": " + std::to_string(kept) + " part(s) to print");
  cover->insert(cover->end(), lines.begin(), lines.end());
  if (lines.empty()) cover->push_back("nothing changed: no part to print");
}

// "132 cards (11 designs), ..." of a print set.
std::string Contents(const PrintSet& set) {
  std::string what;
  for (const auto& s : set.sections)
    what += (what.empty() ? "" : ", ") + std::to_string(s.Total()) + " " + s.label + " (" + std::to_string(s.parts.size()) + " designs)";
  return what.empty() ? "nothing" : what;
}

}  // namespace

Status PrintPdf(const std::string& game, const std::vector<DataOverride>& data_sets, const std::string& paper_name, std::string* pdf,
                std::string* summary) {
  print::Paper paper;
  if (!print::PaperByName(paper_name, &paper)) return Status::Input("paper " + TerminalText(paper_name) + ": unknown paper size (a4 or letter)");
  GameFiles files;
  PrintSource source;
  PrintSet set;
  Status st = LoadPrint(game, &files, &source, &set, data_sets);
  if (!st.ok()) return st;
  print::PdfSummary sum;
  *pdf = print::RenderPdf(set, paper, {}, &sum);
  *summary = Contents(set) + " on " + std::to_string(sum.pages) + " pages, " + set.Stamp() +
             (set.has_look ? "" : " (no look: plain text faces from the data)");
  return Status::Ok();
}

int RunPrint(const PrintOptions& o) {
  print::Paper paper;
  if (!print::PaperByName(o.paper, &paper))
    return Fail(Status::Input("--paper " + TerminalText(o.paper) + ": unknown paper size (a4 or letter)"));
  GameFiles files;
  PrintSource source;
  PrintSet set;
  Status st = LoadPrint(o.game, &files, &source, &set);
  if (!st.ok()) return Fail(st);
  const std::string folder = files.roots.empty() ? o.game : files.roots.front().display;
  OutputFile pdf{o.out.empty() ? set.game_id + "-print.pdf" : o.out, OutputKind::kPdf, g_force, "--out", "", ""};
  st = CheckOutputFile(pdf);
  if (!st.ok()) return Fail(st);
  OutputFile fp_file{o.write_fingerprints, OutputKind::kPrintFingerprints, g_force, "--write-fingerprints", "", ""};
  if (!o.write_fingerprints.empty()) {
    st = CheckOutputFile(fp_file);
    if (!st.ok()) return Fail(st);
  }
  if (!set.has_look)
    std::fprintf(stderr, "plateau print: %s has no look (data/look.json): its cards are printed as plain text faces from its data\n",
                 folder.c_str());
  const Json fingerprints = Fingerprints(set);
  std::vector<std::string> cover;
  if (!o.since.empty()) {
    std::map<std::string, std::string> old, old_titles;
    struct stat sb;
    if (::stat(o.since.c_str(), &sb) == 0) {
      st = ReadFingerprintFile(o.since, set.game_id, &old, &old_titles);
      if (!st.ok()) return Fail(st);
    } else {
      PrintSource before;
      std::string look_file;
      st = SourceAtRevision(files, o.since, &before, &look_file);
      if (!st.ok()) return Fail(st);
      PrintSet old_set;
      st = print::BuildPrintSet(before, look_file, &old_set);
      if (!st.ok()) return Fail(Status::Input("--only-changed-since " + o.since + ": " + st.message));
      for (const auto& s : old_set.sections)
        for (const auto& p : s.parts) old[p.key] = p.hash, old_titles[p.key] = p.title;
    }
    KeepChanged(&set, old, old_titles, o.since, &cover);
  }
  print::PdfSummary sum;
  const std::string bytes = print::RenderPdf(set, paper, cover, &sum);
  st = WriteOutputFile(pdf, bytes);
  if (!st.ok()) return Fail(st);
  if (!o.write_fingerprints.empty()) {
    st = WriteOutputFile(fp_file, DumpJson(fingerprints, 2) + "\n");
    if (!st.ok()) return Fail(st);
  }
  std::printf("%s: %s on %d pages (%d of faces, %d of backs%s), %s, stamped %s\n", pdf.path.c_str(), Contents(set).c_str(),
              sum.pages, sum.face_pages, sum.back_pages, cover.empty() ? "" : ", 1 cover", paper.name.c_str(), set.Stamp().c_str());
  if (!o.write_fingerprints.empty()) std::printf("%s: the fingerprints of %zu parts\n", o.write_fingerprints.c_str(), fingerprints["parts"].size());
  return 0;
}

namespace {

Json Transform(double x, double z, bool face_down, double scale = 1) {
  return {{"posX", x}, {"posY", 1.0}, {"posZ", z}, {"rotX", 0}, {"rotY", 180}, {"rotZ", face_down ? 180 : 0},
          {"scaleX", scale}, {"scaleY", 1.0}, {"scaleZ", scale}};
}

std::string FileName(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '-';
  return s;
}

}  // namespace

int RunExportTts(const ExportTtsOptions& o) {
  GameFiles files;
  PrintSource source;
  PrintSet set;
  Status st = LoadPrint(o.game, &files, &source, &set);
  if (!st.ok()) return Fail(st);
  if (o.out.empty()) return Fail(Status::Input("--out: give the folder to write the Tabletop Simulator export to"));
  if (!set.has_look)
    std::fprintf(stderr, "plateau export tts: %s has no look (data/look.json): its cards are drawn as plain text faces from its data\n",
                 files.roots.front().display.c_str());
  const std::string parent = std::filesystem::path(o.out).parent_path().string();
  if (!parent.empty()) {
    st = MakeOutputFolder(parent, "--out");
    if (!st.ok()) return Fail(st);
  }
  StagingFolder staging;
  st = staging.Create(o.out, "--out");
  if (!st.ok()) return Fail(st);
  // Tabletop Simulator loads images by URL: the files of the folder where it will stay.
  std::error_code ec;
  const std::filesystem::path out_abs = std::filesystem::absolute(o.out, ec).lexically_normal();
  auto url = [&](const std::string& name) {
    if (!o.image_url.empty()) return o.image_url + (o.image_url.back() == '/' ? "" : "/") + name;
    return "file://" + (out_abs / name).generic_string();
  };
  auto write = [&](const std::string& name, const std::string& bytes, OutputKind kind) {
    return WriteOutputFile({staging.path() + "/" + name, kind, false, "--out", "", ""}, bytes);
  };
  const double px_per_mm = o.px_per_mm;
  Json objects = Json::array();
  int deck_key = 0;
  std::string summary;
  double x = 0;
  for (const auto& s : set.sections) {
    const std::string base = FileName(s.label);
    const std::string back = base + "-back.png";
    st = write(back, print::RenderBackPng(set, s, px_per_mm), OutputKind::kPng);
    if (!st.ok()) return Fail(st);
    if (s.kind == print::PartKind::kCard) {
      // A custom deck: its faces on sheets of at most 10 x 7, each card once per copy.
      Json deck = {{"Name", s.Total() == 1 ? "CardCustom" : "DeckCustom"}, {"Nickname", s.label + " (" + std::to_string(s.Total()) + ")"},
                   {"Description", set.game_name + ": " + s.name + " · " + set.Stamp()}, {"Transform", Transform(x, 0, true)},
                   {"DeckIDs", Json::array()}, {"CustomDeck", Json::object()}, {"ContainedObjects", Json::array()}};
      for (size_t first = 0; first < s.parts.size(); first += 70) {
        const size_t n = std::min<size_t>(70, s.parts.size() - first);
        // Tabletop Simulator's custom decks are 2 to 10 cards wide and 2 to 7 high.
        const int cols = static_cast<int>(std::clamp<size_t>(n, 2, 10)), rows = std::max(2, static_cast<int>((n + cols - 1) / cols));
        std::vector<const Part*> faces;
        for (size_t i = 0; i < n; ++i) faces.push_back(&s.parts[first + i]);
        const std::string sheet = base + "-sheet-" + std::to_string(first / 70 + 1) + ".png";
        st = write(sheet, print::RenderSheetPng(set, s, faces, cols, rows, px_per_mm), OutputKind::kPng);
        if (!st.ok()) return Fail(st);
        ++deck_key;
        const Json custom = {{"FaceURL", url(sheet)}, {"BackURL", url(back)}, {"NumWidth", cols}, {"NumHeight", rows},
                             {"BackIsHidden", true}, {"UniqueBack", false}, {"Type", 0}};
        deck["CustomDeck"][std::to_string(deck_key)] = custom;
        for (size_t i = 0; i < n; ++i) {
          const Part& p = *faces[i];
          const int id = deck_key * 100 + static_cast<int>(i);
          for (int c = 0; c < p.count; ++c) {
            deck["DeckIDs"].push_back(id);
            deck["ContainedObjects"].push_back({{"Name", "Card"}, {"Nickname", p.title},
                                                {"Description", p.text + (p.lower.empty() ? "" : "\n" + p.lower)},
                                                {"CardID", id}, {"CustomDeck", {{std::to_string(deck_key), custom}}},
                                                {"Transform", Transform(x, 0, true)}});
          }
        }
      }
      if (s.Total() == 1) {
        // One card: the card itself, not a deck of one.
        Json card = deck["ContainedObjects"][0];
        card["Name"] = "CardCustom";
        card["Nickname"] = deck["Nickname"];
        card["CustomDeck"] = deck["CustomDeck"];
        deck = card;
      }
      objects.push_back(deck);
    } else {
      // Tiles and sheets: a custom tile per design, in a bag holding each in its count.
      Json bag = {{"Name", "Bag"}, {"Nickname", s.label + " (" + std::to_string(s.Total()) + ")"},
                  {"Description", set.game_name + ": " + s.name + " · " + set.Stamp()}, {"Transform", Transform(x, 6, false)},
                  {"ContainedObjects", Json::array()}};
      for (const auto& p : s.parts) {
        const std::string image = base + "-" + FileName(p.id) + ".png";
        st = write(image, print::RenderSheetPng(set, s, {&p}, 1, 1, px_per_mm), OutputKind::kPng);
        if (!st.ok()) return Fail(st);
        const Json tile = {{"Name", "Custom_Tile"}, {"Nickname", p.title}, {"Description", p.text}, {"Transform", Transform(x, 6, false, 1.5)},
                           {"CustomImage", {{"ImageURL", url(image)}, {"ImageSecondaryURL", url(back)}, {"ImageScalar", 1.0},
                                            {"WidthScale", s.width_mm / s.height_mm},
                                            {"CustomTile", {{"Type", 0}, {"Thickness", 0.2}, {"Stackable", s.kind == print::PartKind::kTile}, {"Stretch", true}}}}}};
        for (int c = 0; c < p.count; ++c) bag["ContainedObjects"].push_back(tile);
      }
      objects.push_back(bag);
    }
    summary += (summary.empty() ? "" : ", ") + std::to_string(s.Total()) + " " + s.label;
    x += 4;
  }
  const Json save = {{"SaveName", set.game_name + " (plateau export tts)"}, {"GameMode", ""}, {"Date", ""}, {"Table", ""}, {"Sky", ""},
                     {"Note", set.game_name + " from its data: " + set.Stamp()}, {"Rules", ""}, {"XmlUI", ""}, {"LuaScript", ""},
                     {"LuaScriptState", ""}, {"ObjectStates", objects}, {"TabStates", Json::object()}, {"VersionNumber", ""}};
  const std::string json_name = FileName(set.game_id) + ".json";
  st = write(json_name, DumpJson(save, 2) + "\n", OutputKind::kTabletopSave);
  if (!st.ok()) return Fail(st);
  st = staging.Commit();
  if (!st.ok()) return Fail(st);
  std::printf("%s: a Tabletop Simulator saved object with %s (%s)\n", (std::filesystem::path(o.out) / json_name).generic_string().c_str(),
              summary.c_str(), set.Stamp().c_str());
  std::printf("load it: copy %s into Tabletop Simulator's Saves/Saved Objects folder; its images are %s\n", json_name.c_str(),
              o.image_url.empty() ? ("loaded from " + out_abs.generic_string() + " (keep the folder there, or export again with --image-url)").c_str()
                                  : ("the files of this folder uploaded under " + o.image_url).c_str());
  return 0;
}

}  // namespace plateau

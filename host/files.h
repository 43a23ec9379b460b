// The one way Plateau touches the files that untrusted input names (docs/security.md, "Files").
//
// Reading a game's own files (its manifest, data, scripts, tests, template and studio settings)
// goes through ReadGameFile, ListGameFiles and CopyGameFolder, and nothing else: each walks the
// path from the game's folder one name at a time (openat, never following a symbolic link
// below the folder), accepts only regular files, opens without blocking (a FIFO or a device is
// refused, never waited on), reads under a size cap, and turns every filesystem error into a
// refusal that names the path the way errors name game files ("games/<id>/data/x.json").
//
// Writing anything a user names (saves, reports, CSV, JUnit, overlays, transcripts, sheets) goes
// through WriteOutputFile: a regular file only, written to a fresh temporary file beside it and
// renamed over it (never half a file), and an existing file is replaced only when it is the
// same kind of output (a save replaces a save) or the user said --force. Folders are made by
// MakeOutputFolder without a shell; a folder Plateau fills (plateau new, exports) is built in
// a StagingFolder it created itself and renamed into place; nothing else is ever deleted.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "host/game.h"

namespace plateau {

// ---- Reading a game's files ---------------------------------------------------------------

// Why a read failed: nothing there (callers may look elsewhere: a base game, an optional file),
// or a refusal (a link, a FIFO, too big, unreadable) that must be reported.
enum class ReadFailure { kNone, kMissing, kRefused };

// Reads `rel` ("data/cards.json"), a path relative to the game folder `folder`, into *out.
// `display` is how messages name the folder ("games/savane"). A relative path must be plain:
// no "..", ".", empty or absolute part. Returns false with *error "games/x/rel: why".
bool ReadGameFile(const std::string& folder, const std::string& display, const std::string& rel, size_t max_bytes,
                  std::string* out, std::string* error, ReadFailure* failure = nullptr);

// ReadGameFile, then the JSON parse under `limits` (json_io.h): a game's manifest and data.
bool ReadGameJson(const std::string& folder, const std::string& display, const std::string& rel, Json* out,
                  std::string* error, ReadFailure* failure = nullptr);

// One entry met while listing a game folder.
struct FolderEntry {
  std::string rel;   // "data/cards.json", '/'-separated from the folder
  bool regular = false;
  std::string refused;  // for an entry that is not a regular file or folder: why it is left out
  int64_t size = 0;
  int64_t mtime_ns = 0;
  uint64_t inode = 0;
};

struct ListOptions {
  int max_depth = 8;             // folders below the game folder
  bool hidden = false;           // also list names starting with '.'
  // Folders (relative path) not to enter; default: enter all.
  std::function<bool(const std::string& rel)> enter;
};

// Every regular file under the folder, sorted by path, and every entry that is neither a
// regular file nor a folder (a symbolic link, a FIFO, a socket, a device) with `refused` set,
// so each caller decides: the loader and the fingerprint skip them, a copy refuses them.
// Refused as a whole, naming the place: a folder that cannot be read, more than
// limits::kFolderEntries entries, or a name that is not UTF-8 text or holds a control byte.
Status ListGameFiles(const std::string& folder, const std::string& display, const ListOptions& options,
                     std::vector<FolderEntry>* out);

// Copies the regular files (hidden ones included) of the game folder `from`, or of its
// subfolder `sub` ("template"; walked as every path below the folder, never through a link),
// into `to`, a new folder or one this run made (a staging folder, which a second copy may fill
// further: a file already there is never overwritten, the copy refuses); `transform(rel,
// &text)` may change each file's text on the way (plateau new fills in the template) and may
// refuse with a Status; `skip(rel)`, when given, leaves a file out (plateau new --example:
// the example's files instead of the template's). Any link, FIFO or device refuses the whole
// copy, naming it. On failure the folder's contents are removed again.
Status CopyGameFolder(const std::string& from, const std::string& display, const std::string& sub, const std::string& to,
                      const std::function<Status(const std::string& rel, std::string* text)>& transform = nullptr,
                      const std::function<bool(const std::string& rel)>& skip = nullptr);

// ---- Writing what the user names --------------------------------------------------------

// What an output file holds. An existing file is replaced only by the same kind (kAny: any
// regular file, for files Plateau made itself in this run, such as a mutant in its own copy).
enum class OutputKind { kAny, kSave, kReport, kCsv, kJUnit, kOverlay, kTranscript, kPdf, kPng, kTabletopSave, kText,
                        kPrintFingerprints };
const char* OutputKindName(OutputKind kind);
// Whether `text` (an existing file's contents) is an output of that kind.
bool LooksLikeOutput(OutputKind kind, std::string_view text);

struct OutputFile {
  std::string path;          // as the user gave it (relative to the working folder, or absolute)
  OutputKind kind = OutputKind::kAny;
  bool force = false;        // --force: replace a regular file of another kind
  std::string option;        // how the user named it ("--save", "--csv"), for messages
  // When set, `path` is relative to this folder and is written inside it only (no link is
  // followed below it): a game's own folder (golden playthroughs).
  std::string inside;
  std::string inside_display;
};

// Writes `text` to the file (see above). The parent folder must exist (MakeOutputFolder).
// Refusals name the option and the path: "--csv games/x/rules.lua: refusing to replace a file
// that is not a CSV table (it holds something else; --force replaces it)".
Status WriteOutputFile(const OutputFile& file, std::string_view text);
// Whether WriteOutputFile would refuse the file now (checked before a long run, so a run is
// never lost to an output it cannot write).
Status CheckOutputFile(const OutputFile& file);

// Makes `path` and its missing parents as folders (mkdir -p, without a shell); an existing
// part must be a folder. `inside` as for OutputFile.
Status MakeOutputFolder(const std::string& path, const std::string& option, const std::string& inside = "",
                        const std::string& inside_display = "");

// A folder made for this run beside `target` (".<name>.plateau-XXXXXX"), filled, then renamed
// to `target`, which must not exist. Removed with what it holds when not committed: the only
// deletion Plateau ever does is of a folder it created itself in the same run.
class StagingFolder {
 public:
  StagingFolder() = default;
  StagingFolder(const StagingFolder&) = delete;
  StagingFolder& operator=(const StagingFolder&) = delete;
  ~StagingFolder();
  Status Create(const std::string& target, const std::string& option);
  const std::string& path() const { return path_; }
  Status Commit();  // renames it to the target; refuses when the target appeared meanwhile

 private:
  std::string target_, path_, option_;
  bool committed_ = false;
};

// A private scratch folder under the system's temporary folder, removed with its contents
// when it goes out of scope (mutation testing's copy of a game).
class ScratchFolder {
 public:
  ScratchFolder() = default;
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  ~ScratchFolder();
  Status Create(const std::string& prefix);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace plateau

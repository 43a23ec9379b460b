// Reading a game's files and writing the user's outputs, one mechanism each (see files.h).
#include "host/files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

#include "host/json_io.h"
#include "host/limits.h"
#include "host/text.h"

namespace plateau {
namespace {

// A file descriptor closed when it goes out of scope.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = o.fd_;
      o.fd_ = -1;
    }
    return *this;
  }
  ~Fd() { reset(); }
  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

std::string Errno(int e) { return std::strerror(e); }

// The parts of a relative path, or false when it is not a plain relative path.
bool SplitRelative(const std::string& rel, std::vector<std::string>* parts) {
  parts->clear();
  if (rel.empty() || rel[0] == '/' || rel.size() > 4096) return false;
  size_t at = 0;
  for (;;) {
    const size_t slash = rel.find('/', at);
    std::string part = rel.substr(at, slash == std::string::npos ? std::string::npos : slash - at);
    if (part.empty() || part == "." || part == ".." || part.size() > 255 || part.find('\0') != std::string::npos) return false;
    parts->push_back(std::move(part));
    if (slash == std::string::npos) break;
    at = slash + 1;
  }
  return !parts->empty() && parts->size() <= 32;
}

// Opens the folder `dir` (following a link the user named: the folder itself is theirs).
Fd OpenFolder(const std::string& dir) { return Fd(::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)); }

// Why openat failed on a part of a game's path, in words.
std::string OpenFailure(int e, bool last) {
  switch (e) {
    case ELOOP:
    case EMLINK:
      return "refused: a symbolic link (a game's files are read only as regular files inside its folder)";
    case ENOTDIR:
      return last ? "refused: not a regular file" : "refused: a part of the path is not a folder";
    case EACCES:
    case EPERM:
      return "cannot read it: permission denied";
    case ENAMETOOLONG:
      return "refused: the path is too long";
    default:
      return "cannot open it (" + Errno(e) + ")";
  }
}

// Walks `parts` (all but the last) from `root` as folders, never following a link.
bool WalkFolders(int root, const std::vector<std::string>& parts, size_t count, Fd* out, int* err, bool create = false) {
  Fd cur(::dup(root));
  if (!cur.ok()) {
    *err = errno;
    return false;
  }
  for (size_t i = 0; i < count; ++i) {
    int fd = ::openat(cur.get(), parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && create) {
      if (::mkdirat(cur.get(), parts[i].c_str(), 0755) != 0 && errno != EEXIST) {
        *err = errno;
        return false;
      }
      fd = ::openat(cur.get(), parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (fd < 0) {
      *err = errno;
      // O_DIRECTORY with O_NOFOLLOW says ENOTDIR for a link: name it as the link it is.
      struct stat st;
      if (*err == ENOTDIR && ::fstatat(cur.get(), parts[i].c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
        *err = ELOOP;
      return false;
    }
    cur = Fd(fd);
  }
  *out = std::move(cur);
  return true;
}

// Reads a regular file from an open descriptor, at most max_bytes.
bool ReadOpen(int fd, size_t max_bytes, const std::string& name, std::string* out, std::string* error) {
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    *error = name + ": cannot read it (" + Errno(errno) + ")";
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *error = name + ": refused: not a regular file (" +
             std::string(S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket" : "a device") + ")";
    return false;
  }
  const auto size = static_cast<size_t>(st.st_size);
  if (size > max_bytes) {
    *error = name + ": " + std::to_string(size) + " bytes is over the " + std::to_string(max_bytes) + "-byte limit";
    return false;
  }
  out->assign(size, '\0');
  size_t got = 0;
  while (got < size) {
    const ssize_t r = ::read(fd, out->data() + got, size - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      *error = name + ": cannot read it (" + Errno(errno) + ")";
      return false;
    }
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  out->resize(got);
  return true;
}

std::string Joined(const std::string& display, const std::string& rel) { return display.empty() ? rel : display + "/" + rel; }

// Lists one folder level (already open) into *out; recursion bounded by depth and the count.
Status ListLevel(int dir_fd, const std::string& rel, const std::string& display, int depth_left, const ListOptions& o,
                 std::vector<FolderEntry>* out, size_t* count) {
  const int fd = ::dup(dir_fd);
  if (fd < 0) return Status::Input(Joined(display, rel) + ": cannot read the folder (" + Errno(errno) + ")");
  DIR* d = ::fdopendir(fd);
  if (!d) {
    ::close(fd);
    return Status::Input(Joined(display, rel) + ": cannot read the folder (" + Errno(errno) + ")");
  }
  struct Closer {
    DIR* d;
    ~Closer() { ::closedir(d); }
  } closer{d};
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n == "." || n == "..") continue;
    if (!o.hidden && n[0] == '.') continue;
    if (++*count > static_cast<size_t>(limits::kFolderEntries))
      return Status::Input(display + ": refused: more than " + std::to_string(limits::kFolderEntries) +
                           " entries in the folder and its subfolders");
    names.push_back(n);
  }
  std::sort(names.begin(), names.end());
  for (const std::string& n : names) {
    const std::string child = rel.empty() ? n : rel + "/" + n;
    if (!IsValidUtf8(n.data(), n.size()) || HasControlBytes(n))
      return Status::Input(Joined(display, TerminalText(child)) + ": refused: a file name must be UTF-8 text without control characters");
    struct stat st;
    if (::fstatat(dir_fd, n.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone meanwhile
    FolderEntry entry;
    entry.rel = child;
    entry.size = st.st_size;
    entry.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
    entry.inode = st.st_ino;
    if (S_ISDIR(st.st_mode)) {
      if (o.enter && !o.enter(child)) continue;
      if (depth_left <= 0) {
        entry.refused = "a folder nested deeper than " + std::to_string(o.max_depth) + " levels";
        out->push_back(std::move(entry));
        continue;
      }
      Fd sub(::openat(dir_fd, n.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (!sub.ok()) {
        entry.refused = OpenFailure(errno, false);
        out->push_back(std::move(entry));
        continue;
      }
      Status st2 = ListLevel(sub.get(), child, display, depth_left - 1, o, out, count);
      if (!st2.ok()) return st2;
      continue;
    }
    if (S_ISREG(st.st_mode)) entry.regular = true;
    else
      entry.refused = S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket" : "a device";
    out->push_back(std::move(entry));
  }
  return Status::Ok();
}

// A name no other process picks: ".<base>.plateau-<12 random hex digits>".
std::string FreshName(const std::string& base) {
  static thread_local std::mt19937_64 gen(std::random_device{}());
  char buf[32];
  std::snprintf(buf, sizeof buf, "%012llx", static_cast<unsigned long long>(gen() & 0xffffffffffffULL));
  std::string b = base.size() > 64 ? base.substr(0, 64) : base;
  return "." + b + ".plateau-" + buf;
}

// The folder part and the name of a path the user gave.
void SplitPath(const std::string& path, std::string* dir, std::string* name) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const size_t slash = p.rfind('/');
  if (slash == std::string::npos) {
    *dir = ".";
    *name = p;
  } else {
    *dir = slash == 0 ? "/" : p.substr(0, slash);
    *name = p.substr(slash + 1);
  }
}

// Removes what `fd`'s folder holds, then the caller removes the folder: only used on folders
// Plateau created in this run. Links are removed, never followed.
void RemoveContents(int fd) {
  const int dup_fd = ::dup(fd);
  if (dup_fd < 0) return;
  DIR* d = ::fdopendir(dup_fd);
  if (!d) {
    ::close(dup_fd);
    return;
  }
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  ::closedir(d);
  for (const auto& n : names) {
    struct stat st;
    if (::fstatat(fd, n.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      Fd sub(::openat(fd, n.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (sub.ok()) RemoveContents(sub.get());
      ::unlinkat(fd, n.c_str(), AT_REMOVEDIR);
    } else {
      ::unlinkat(fd, n.c_str(), 0);
    }
  }
}

void RemoveFolderWeMade(const std::string& path) {
  if (path.empty()) return;
  {
    Fd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (fd.ok()) RemoveContents(fd.get());
  }
  ::rmdir(path.c_str());
}

// Writes all of `text` to fd.
bool WriteAll(int fd, std::string_view text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    done += static_cast<size_t>(w);
  }
  return true;
}

// How messages name an output: "--csv out.csv".
std::string Named(const OutputFile& f) {
  const std::string p = f.inside.empty() ? f.path : Joined(f.inside_display, f.path);
  return (f.option.empty() ? "" : f.option + " ") + TerminalText(p);
}

// The folder an output goes in, opened, and the file's name in it.
Status OpenOutputParent(const OutputFile& f, Fd* dir, std::string* name) {
  std::string parent;
  if (f.inside.empty()) {
    SplitPath(f.path, &parent, name);
    if (name->empty() || *name == "." || *name == "..") return Status::Input(Named(f) + ": needs a file name, not a folder");
    *dir = OpenFolder(parent);
    if (!dir->ok())
      return Status::Input(Named(f) + ": cannot write there: the folder " + TerminalText(parent) + " " +
                           (errno == ENOENT ? "does not exist" : errno == ENOTDIR ? "is not a folder" : "cannot be opened (" + Errno(errno) + ")"));
    return Status::Ok();
  }
  std::vector<std::string> parts;
  if (!SplitRelative(f.path, &parts)) return Status::Input(Named(f) + ": refused: not a plain path inside the game's folder");
  Fd root = OpenFolder(f.inside);
  if (!root.ok()) return Status::Input(Named(f) + ": cannot open the game's folder (" + Errno(errno) + ")");
  int err = 0;
  if (!WalkFolders(root.get(), parts, parts.size() - 1, dir, &err))
    return Status::Input(Named(f) + ": " + OpenFailure(err, false));
  *name = parts.back();
  return Status::Ok();
}

// Whether the existing entry `name` in `dir` may be replaced by this output.
Status CheckReplace(const OutputFile& f, int dir, const std::string& name) {
  struct stat st;
  if (::fstatat(dir, name.c_str(), &st, 0) != 0) {
    if (errno == ENOENT) return Status::Ok();  // nothing there (or a dangling link, replaced itself)
    return Status::Input(Named(f) + ": cannot write there (" + Errno(errno) + ")");
  }
  if (!S_ISREG(st.st_mode))
    return Status::Input(Named(f) + ": refused: it is " +
                         (S_ISDIR(st.st_mode) ? std::string("a folder") : S_ISFIFO(st.st_mode) ? "a FIFO" : "not a regular file") +
                         "; an output is only ever written as a regular file");
  if (f.force || f.kind == OutputKind::kAny || st.st_size == 0) return Status::Ok();
  // What is there now: read without blocking, and recognised by its contents.
  Fd fd(::openat(dir, name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  std::string text, error;
  if (!fd.ok() || !ReadOpen(fd.get(), 64u << 20, name, &text, &error))
    return Status::Input(Named(f) + ": refusing to replace a file that cannot be read to check what it is (--force replaces it)");
  if (LooksLikeOutput(f.kind, text)) return Status::Ok();
  return Status::Input(Named(f) + ": refusing to replace a file that is not " + OutputKindName(f.kind) +
                       " (it holds something else; --force replaces it)");
}

// Counts the fields of one CSV line (quotes honoured); -1 when a quote is left open.
int CsvFields(std::string_view line) {
  int fields = 1;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) ++fields;
  }
  return quoted ? -1 : fields;
}

bool JsonObjectWith(std::string_view text, std::initializer_list<const char*> keys, size_t max = 64u << 20) {
  if (text.size() > max) return false;
  JsonLimits limits;
  limits.max_bytes = max;
  Json j;
  std::string error;
  if (!ParseJsonLimited(std::string(text), "output", &j, &error, limits) || !j.is_object()) return false;
  for (const char* k : keys)
    if (!j.contains(k)) return false;
  return true;
}

}  // namespace

// ---- Reading -------------------------------------------------------------------------------

bool ReadGameFile(const std::string& folder, const std::string& display, const std::string& rel, size_t max_bytes,
                  std::string* out, std::string* error, ReadFailure* failure) {
  ReadFailure dummy;
  ReadFailure& why = failure ? *failure : dummy;
  why = ReadFailure::kRefused;
  const std::string name = Joined(display, TerminalText(rel));
  std::vector<std::string> parts;
  if (!SplitRelative(rel, &parts)) {
    *error = name + ": refused: a game's files are named by plain paths inside its folder (no '..', no absolute path)";
    return false;
  }
  Fd root = OpenFolder(folder);
  if (!root.ok()) {
    if (errno == ENOENT) why = ReadFailure::kMissing;
    *error = (display.empty() ? TerminalText(folder) : display) + ": cannot open the game's folder (" + Errno(errno) + ")";
    return false;
  }
  Fd dir;
  int err = 0;
  if (!WalkFolders(root.get(), parts, parts.size() - 1, &dir, &err)) {
    if (err == ENOENT) why = ReadFailure::kMissing;
    *error = name + ": " + (err == ENOENT ? "no such file" : OpenFailure(err, false));
    return false;
  }
  Fd fd(::openat(dir.get(), parts.back().c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY));
  if (!fd.ok()) {
    if (errno == ENOENT) why = ReadFailure::kMissing;
    *error = name + ": " + (errno == ENOENT ? "no such file" : OpenFailure(errno, true));
    return false;
  }
  if (!ReadOpen(fd.get(), max_bytes, name, out, error)) return false;
  why = ReadFailure::kNone;
  return true;
}

bool ReadGameJson(const std::string& folder, const std::string& display, const std::string& rel, Json* out,
                  std::string* error, ReadFailure* failure) {
  const JsonLimits limits;
  std::string text;
  if (!ReadGameFile(folder, display, rel, limits.max_bytes, &text, error, failure)) return false;
  if (ParseJsonLimited(text, Joined(display, rel), out, error, limits)) return true;
  if (failure) *failure = ReadFailure::kRefused;
  return false;
}

Status ListGameFiles(const std::string& folder, const std::string& display, const ListOptions& options,
                     std::vector<FolderEntry>* out) {
  out->clear();
  Fd root = OpenFolder(folder);
  if (!root.ok()) return Status::Input((display.empty() ? TerminalText(folder) : display) + ": cannot open the folder (" + Errno(errno) + ")");
  size_t count = 0;
  Status st = ListLevel(root.get(), "", display, options.max_depth, options, out, &count);
  if (!st.ok()) out->clear();
  return st;
}

Status CopyGameFolder(const std::string& from, const std::string& display, const std::string& sub, const std::string& to,
                      const std::function<Status(const std::string& rel, std::string* text)>& transform,
                      const std::function<bool(const std::string& rel)>& skip) {
  ListOptions o;
  o.hidden = true;
  const std::string prefix = sub.empty() ? "" : sub + "/";
  if (!sub.empty()) {
    std::vector<std::string> parts;
    if (!SplitRelative(sub, &parts)) return Status::Input(Joined(display, sub) + ": refused: not a plain path inside the folder");
    o.enter = [&](const std::string& rel) { return (sub + "/").rfind(rel + "/", 0) == 0 || rel.rfind(prefix, 0) == 0; };
  }
  std::vector<FolderEntry> all, entries;
  Status st = ListGameFiles(from, display, o, &all);
  if (!st.ok()) return st;
  for (auto& e : all) {
    if (e.rel.rfind(prefix, 0) != 0) {
      if (e.rel == sub) return Status::Input(Joined(display, sub) + ": refused: " + e.refused + " (not a folder of its own)");
      continue;
    }
    if (!e.regular)
      return Status::Input(Joined(display, e.rel) + ": refused: " + e.refused + " (a game folder is copied only when it holds regular files)");
    if (skip && skip(e.rel.substr(prefix.size()))) continue;
    entries.push_back(std::move(e));
  }
  // `to` is new, or an empty folder this run made (a StagingFolder).
  bool made = false;
  if (::mkdir(to.c_str(), 0755) == 0) made = true;
  else if (errno != EEXIST) return Status::Input(TerminalText(to) + ": cannot make the folder (" + Errno(errno) + ")");
  auto fail = [&](Status s) {
    if (made) RemoveFolderWeMade(to);
    else if (Fd fd(::open(to.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)); fd.ok()) RemoveContents(fd.get());
    return s;
  };
  Fd dest = OpenFolder(to);
  if (!dest.ok()) return fail(Status::Input(TerminalText(to) + ": cannot open the new folder (" + Errno(errno) + ")"));
  int64_t total = 0;
  for (const auto& e : entries) {
    std::string text, error;
    if (!ReadGameFile(from, display, e.rel, limits::kGameFileBytes, &text, &error)) return fail(Status::Input(error));
    total += static_cast<int64_t>(text.size());
    if (total > static_cast<int64_t>(limits::kGameFolderBytes))
      return fail(Status::Input(display + ": refused: its files hold more than " + std::to_string(limits::kGameFolderBytes >> 20) + " MiB"));
    const std::string rel = e.rel.substr(prefix.size());
    if (transform) {
      st = transform(rel, &text);
      if (!st.ok()) return fail(st);
    }
    std::vector<std::string> parts;
    SplitRelative(rel, &parts);
    Fd dir;
    int err = 0;
    if (!WalkFolders(dest.get(), parts, parts.size() - 1, &dir, &err, /*create=*/true))
      return fail(Status::Input(TerminalText(to) + "/" + TerminalText(rel) + ": cannot make its folder (" + Errno(err) + ")"));
    Fd out(::openat(dir.get(), parts.back().c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (!out.ok() || !WriteAll(out.get(), text))
      return fail(Status::Input(TerminalText(to) + "/" + TerminalText(rel) + ": cannot write (" + Errno(errno) + ")"));
  }
  return Status::Ok();
}

// ---- Writing -------------------------------------------------------------------------------

const char* OutputKindName(OutputKind kind) {
  switch (kind) {
    case OutputKind::kAny: return "a file";
    case OutputKind::kSave: return "a saved game";
    case OutputKind::kReport: return "a Plateau report";
    case OutputKind::kCsv: return "a CSV table";
    case OutputKind::kJUnit: return "a JUnit XML report";
    case OutputKind::kOverlay: return "a data overlay";
    case OutputKind::kTranscript: return "a golden playthrough";
    case OutputKind::kPdf: return "a PDF";
    case OutputKind::kPng: return "a PNG image";
    case OutputKind::kTabletopSave: return "a Tabletop Simulator save";
    case OutputKind::kText: return "a text file";
    case OutputKind::kPrintFingerprints: return "a fingerprint file of plateau print";
  }
  return "a file";
}

bool LooksLikeOutput(OutputKind kind, std::string_view text) {
  auto starts = [&](std::string_view p) { return text.substr(0, p.size()) == p; };
  std::string_view head = text.substr(0, 4096);
  while (!head.empty() && (head[0] == ' ' || head[0] == '\n' || head[0] == '\r' || head[0] == '\t')) head.remove_prefix(1);
  switch (kind) {
    case OutputKind::kAny: return true;
    case OutputKind::kSave: return JsonObjectWith(text, {"format", "seed", "flow", "seats"});
    case OutputKind::kReport:
      return JsonObjectWith(text, {"game", "games", "seats"}) || JsonObjectWith(text, {"game", "candidates", "knobs"}) ||
             JsonObjectWith(text, {"game", "swept", "runs"});
    case OutputKind::kOverlay: return JsonObjectWith(text, {"values"});
    case OutputKind::kTabletopSave: return JsonObjectWith(text, {"ObjectStates"});
    case OutputKind::kPrintFingerprints: return JsonObjectWith(text, {"plateau_print_fingerprints", "parts"});
    case OutputKind::kJUnit: return head.substr(0, 5) == "<?xml" && head.find("<testsuites") != std::string_view::npos;
    case OutputKind::kTranscript: return starts("# plateau playthrough");
    case OutputKind::kPdf: return starts("%PDF-");
    case OutputKind::kPng: return starts("\x89PNG\r\n\x1a\n");
    case OutputKind::kText: return IsValidUtf8(text.data(), text.size()) && text.find('\0') == std::string_view::npos;
    case OutputKind::kCsv: {
      // A rectangular table of UTF-8 text: every line has as many fields as the first, and more than one.
      if (!IsValidUtf8(text.data(), text.size()) || text.find('\0') != std::string_view::npos) return false;
      int fields = -2;
      size_t at = 0;
      while (at < text.size()) {
        size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        if (line.empty()) continue;
        const int n = CsvFields(line);
        if (n < 2 || (fields != -2 && n != fields)) return false;
        fields = n;
      }
      return fields >= 2;
    }
  }
  return false;
}

Status CheckOutputFile(const OutputFile& f) {
  Fd dir;
  std::string name;
  Status st = OpenOutputParent(f, &dir, &name);
  if (!st.ok()) return st;
  st = CheckReplace(f, dir.get(), name);
  if (!st.ok()) return st;
  // The folder must take a new file: a read-only folder is found now, not after the run.
  if (::faccessat(dir.get(), ".", W_OK, AT_EACCESS) != 0)
    return Status::Input(Named(f) + ": cannot write in its folder (" + Errno(errno) + ")");
  return Status::Ok();
}

Status WriteOutputFile(const OutputFile& f, std::string_view text) {
  Fd dir;
  std::string name;
  Status st = OpenOutputParent(f, &dir, &name);
  if (!st.ok()) return st;
  st = CheckReplace(f, dir.get(), name);
  if (!st.ok()) return st;
  // A fresh temporary name in the same folder (created exclusively: never an existing file),
  // renamed over the target: a crash or a full disk never leaves half a file.
  std::string tmp;
  Fd out;
  for (int attempt = 0; attempt < 16 && !out.ok(); ++attempt) {
    tmp = FreshName(name);
    out = Fd(::openat(dir.get(), tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (!out.ok() && errno != EEXIST) break;
  }
  if (!out.ok()) return Status::Input(Named(f) + ": cannot write in its folder (" + Errno(errno) + ")");
  const bool ok = WriteAll(out.get(), text);
  const int write_errno = errno;
  out.reset();
  if (!ok || ::renameat(dir.get(), tmp.c_str(), dir.get(), name.c_str()) != 0) {
    const int e = ok ? errno : write_errno;
    ::unlinkat(dir.get(), tmp.c_str(), 0);  // ours: made above with O_EXCL
    return Status::Input(Named(f) + ": cannot write (" + Errno(e) + ")");
  }
  return Status::Ok();
}

Status MakeOutputFolder(const std::string& path, const std::string& option, const std::string& inside,
                        const std::string& inside_display) {
  const std::string named = (option.empty() ? "" : option + " ") + TerminalText(inside.empty() ? path : Joined(inside_display, path));
  if (!inside.empty()) {
    std::vector<std::string> parts;
    if (!SplitRelative(path, &parts)) return Status::Input(named + ": refused: not a plain path inside the game's folder");
    Fd root = OpenFolder(inside);
    Fd dir;
    int err = 0;
    if (!root.ok() || !WalkFolders(root.get(), parts, parts.size(), &dir, &err, /*create=*/true))
      return Status::Input(named + ": cannot make the folder: " + OpenFailure(root.ok() ? err : errno, false));
    return Status::Ok();
  }
  if (path.empty()) return Status::Input(named + ": an empty path");
  Fd cur = OpenFolder(path[0] == '/' ? "/" : ".");
  std::string walked = path[0] == '/' ? "" : ".";
  size_t at = 0;
  while (at < path.size()) {
    size_t slash = path.find('/', at);
    if (slash == std::string::npos) slash = path.size();
    const std::string part = path.substr(at, slash - at);
    at = slash + 1;
    if (part.empty() || part == ".") continue;
    walked += "/" + part;
    // A link the user names on their own path is theirs to follow.
    int fd = ::openat(cur.get(), part.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
      if (::mkdirat(cur.get(), part.c_str(), 0755) != 0 && errno != EEXIST)
        return Status::Input(named + ": cannot make " + TerminalText(walked) + " (" + Errno(errno) + ")");
      fd = ::openat(cur.get(), part.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    }
    if (fd < 0)
      return Status::Input(named + ": " + TerminalText(walked) + (errno == ENOTDIR ? " is not a folder" : " cannot be opened (" + Errno(errno) + ")"));
    cur = Fd(fd);
  }
  return Status::Ok();
}

StagingFolder::~StagingFolder() {
  if (!committed_) RemoveFolderWeMade(path_);
}

Status StagingFolder::Create(const std::string& target, const std::string& option) {
  target_ = target;
  option_ = option;
  std::string dir, name;
  SplitPath(target, &dir, &name);
  const std::string named = (option.empty() ? "" : option + " ") + TerminalText(target);
  if (name.empty() || name == "." || name == "..") return Status::Input(named + ": needs a folder name");
  struct stat st;
  if (::lstat(target.c_str(), &st) == 0) return Status::Input(named + " already exists (nothing was written)");
  for (int attempt = 0; attempt < 16; ++attempt) {
    const std::string p = (dir == "/" ? "" : dir) + "/" + FreshName(name);
    if (::mkdir(p.c_str(), 0755) == 0) {
      path_ = p;
      return Status::Ok();
    }
    if (errno != EEXIST)
      return Status::Input(named + ": cannot make a folder in " + TerminalText(dir) + " (" + Errno(errno) + ")");
  }
  return Status::Input(named + ": cannot make a folder in " + TerminalText(dir));
}

Status StagingFolder::Commit() {
  const std::string named = (option_.empty() ? "" : option_ + " ") + TerminalText(target_);
  // Never over something that appeared meanwhile: a rename onto an empty folder would succeed.
  struct stat st;
  if (::lstat(target_.c_str(), &st) == 0) return Status::Input(named + " already exists (nothing was written)");
  if (::rename(path_.c_str(), target_.c_str()) != 0) return Status::Input(named + ": cannot write it (" + Errno(errno) + ")");
  committed_ = true;
  return Status::Ok();
}

ScratchFolder::~ScratchFolder() { RemoveFolderWeMade(path_); }

Status ScratchFolder::Create(const std::string& prefix) {
  std::error_code ec;
  std::string base = std::filesystem::temp_directory_path(ec).string();
  if (ec || base.empty()) base = "/tmp";
  std::string tmpl = base + "/" + prefix + "-XXXXXX";
  if (!::mkdtemp(tmpl.data())) return Status::Input("cannot make a scratch folder in " + base + " (" + Errno(errno) + ")");
  path_ = tmpl;
  return Status::Ok();
}

}  // namespace plateau

// plateau studio: the designer's web page, served by the plateau binary (cpp-httplib). The
// only file that includes httplib.h (a heavy header). It serves the page's files as built into
// the binary (designer/studio/files.h; with --dev, read from designer/studio/page/ under the Plateau
// tree on each request) and Chart.js from Debian's libjs-chart.js, and a JSON API over the game
// session (studio_session.h), with server-sent events for reloads, moves and simulation progress.
//
// Who may talk to it: it binds 127.0.0.1 only; every request must carry the token printed at
// start (from /dev/urandom) as ?token=; a Host that is not 127.0.0.1:<port> or
// localhost:<port> is refused (DNS rebinding: a foreign name resolving to 127.0.0.1), and so is
// an Origin that is not the studio's own (a page on another site posting to it). API bodies
// are JSON of at most 64 KiB.
//
// What keeps it answering (docs/security.md, `studio`), one mechanism each:
// - StudioServer: a connection gets a worker thread only once its whole request (head and
//   body) is in memory; until then it waits in the Doorman's poll set under a deadline, so slow
//   or silent clients cost a file descriptor, never a worker. One request per connection.
// - EventStreamSlot: at most kMaxEventStreams event streams at once, beyond which the call is
//   refused at once; the workers outnumber them, so calls are always served.
// - Fields: every field of every request is read once, type- and range-checked, before use;
//   a refusal names its JSON path (or query parameter).
// - RunStudio's signal thread: SIGINT/SIGTERM stop everything cooperatively, and end the
//   process after kStopGraceMs whatever still runs.
#include "designer/studio/server.h"
#include "designer/cli/print.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "designer/cli/cli_common.h"
#include "designer/studio/files.h"
#include "host/home.h"
#include "host/json_io.h"
#include "host/text.h"
#include "host/limits.h"

namespace plateau {
namespace {

constexpr size_t kMaxBody = 64 * 1024;
// A request's line and headers (httplib's own limit).
constexpr size_t kMaxHead = 8192;
// A whole request as sent: head, body and a chunked body's framing.
constexpr size_t kMaxRequest = kMaxHead + 2 * kMaxBody;
// From a connection's accept to its whole request in memory; past it the connection is
// answered 408 and closed. Generous for a loaded machine, short for a client that trickles.
constexpr int kRequestDeadlineMs = 10000;
// Connections still sending their request, all clients together (every client is on this
// machine: the studio binds 127.0.0.1 only). Past it the longest-waiting is answered 503 and
// closed: a fresh request from the page arrives whole within milliseconds and gets through.
constexpr size_t kMaxWaiting = 256;
// Worker threads (each serves one whole request), and the event streams they may hold at once:
// the workers left over serve calls whatever the streams do.
constexpr int kWorkers = 16;
constexpr int kMaxEventStreams = 8;
// How long a response may wait on a client that does not read it.
constexpr int kWriteTimeoutMs = 5000;
// After SIGINT/SIGTERM, how long the cooperative stop has before the process ends anyway.
constexpr int kStopGraceMs = 500;

std::string RandomToken() {
  unsigned char bytes[24];
  std::ifstream f("/dev/urandom", std::ios::binary);
  if (!f.read(reinterpret_cast<char*>(bytes), sizeof bytes)) return "";
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) {
    out += hex[b >> 4];
    out += hex[b & 15];
  }
  return out;
}

// Compared in time independent of where the strings differ: the token is the only secret.
bool SameSecret(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  *out = s.str();
  return true;
}

void JsonReply(httplib::Response& res, int status, const Json& body) {
  res.status = status;
  res.set_content(DumpJson(body), "application/json");  // DumpJson: bad UTF-8 replaced, never thrown
}

void Error(httplib::Response& res, int status, const std::string& message) {
  JsonReply(res, status, {{"error", message}});
}

// The HTTP status of a refused call: an illegal move or a busy simulator is a conflict with
// the table's state, bad input is the request's fault, a failing rule script is the game's.
int StatusCode(const Status& st) {
  if (st.kind == ErrorKind::kIllegal) return 409;
  if (st.kind == ErrorKind::kInput) return 400;
  return 500;
}

void Reply(httplib::Response& res, const Status& st, const Json& ok_body = {{"ok", true}}) {
  if (st.ok()) JsonReply(res, 200, ok_body);
  else JsonReply(res, StatusCode(st), {{"error", st.ToString()}, {"kind", ErrorKindName(st.kind)}});
}

// ---- the request's fields -------------------------------------------------------------------

// A refused field: the request's fault (400), its message names the field.
struct BadRequest : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A value as a refusal quotes it: short, on one line.
std::string Quote(const Json& v) {
  std::string text = DumpJson(v);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

// Every field of every request goes through this reader: the body (or the query's
// parameters) is an object, each field is read once with its type and range, and, at Done(),
// a field the call does not take is refused (a misspelt field is not silently ignored).
// Integers are range-checked on the JSON value itself (limits::JsonInt): 2^32 is refused,
// never read as 0. A refusal names the call and the field's JSON path ("simulate: at
// /rotate_seats: expected true or false, got \"yes\""); query parameters are named "?seat".
class Fields {
 public:
  Fields(const Json& object, std::string call, std::string path = "/")
      : object_(object), call_(std::move(call)), path_(std::move(path)) {
    if (!object_.is_object()) throw BadRequest(call_ + ": the request body must be a JSON object, got " + Quote(object_));
  }

  int64_t Int(const char* key, int64_t lo, int64_t hi, std::optional<int64_t> fallback, const std::string& what) {
    const Json* v = Find(key, fallback.has_value(), what);
    if (!v) return *fallback;
    if (!v->is_number()) Refuse(key, "expected " + what + ", got " + Quote(*v));
    try {
      return limits::JsonInt(*v, lo, hi, "");
    } catch (const std::runtime_error& e) {
      Refuse(key, std::string(e.what()) + " (" + what + ")");
    }
    return 0;
  }
  // A seed: any whole number from 0 to 2^64 - 1, as the command line's --seed.
  unsigned long long Seed(const char* key, unsigned long long fallback) {
    const std::string what = "a seed, a whole number from 0 to 18446744073709551615";
    const Json* v = Find(key, true, what);
    if (!v) return fallback;
    if (v->is_number_unsigned()) return v->get<unsigned long long>();
    if (v->is_number_integer() && v->get<long long>() >= 0) return static_cast<unsigned long long>(v->get<long long>());
    if (v->is_number_float()) {
      const double d = v->get<double>();
      if (d >= 0 && d < 18446744073709551616.0 && d == static_cast<double>(static_cast<unsigned long long>(d)))
        return static_cast<unsigned long long>(d);
    }
    Refuse(key, "expected " + what + ", got " + Quote(*v));
    return 0;
  }
  bool Bool(const char* key, bool fallback) {
    const Json* v = Find(key, true, "true or false");
    if (!v) return fallback;
    if (!v->is_boolean()) Refuse(key, "expected true or false, got " + Quote(*v));
    return v->get<bool>();
  }
  std::string Text(const char* key, size_t max_bytes, std::optional<std::string> fallback, const std::string& what) {
    const Json* v = Find(key, fallback.has_value(), what);
    if (!v) return *fallback;
    return TextOf(*v, key, max_bytes, what);
  }
  // An array of strings, from `min` to `max` entries.
  std::vector<std::string> Texts(const char* key, size_t min, size_t max, size_t max_bytes, const std::string& what) {
    const Json* v = Find(key, false, what);
    if (!v->is_array() || v->size() < min || v->size() > max)
      Refuse(key, "expected a list of " + std::to_string(min) + " to " + std::to_string(max) + " " + what + ", got " +
                      (v->is_array() ? std::to_string(v->size()) + " entries" : Quote(*v)));
    std::vector<std::string> out;
    for (size_t i = 0; i < v->size(); ++i)
      out.push_back(TextOf((*v)[i], (std::string(key) + "/" + std::to_string(i)).c_str(), max_bytes, what));
    return out;
  }
  // An array of plain values (numbers, strings, true/false), from `min` to `max` entries.
  Json Values(const char* key, size_t min, size_t max, const std::string& what) {
    const Json* v = Find(key, false, what);
    if (!v->is_array() || v->size() < min || v->size() > max)
      Refuse(key, "expected a list of " + std::to_string(min) + " to " + std::to_string(max) + " " + what + ", got " +
                      (v->is_array() ? std::to_string(v->size()) + " entries" : Quote(*v)));
    for (size_t i = 0; i < v->size(); ++i) {
      const Json& x = (*v)[i];
      if (!x.is_number() && !x.is_string() && !x.is_boolean())
        Refuse((std::string(key) + "/" + std::to_string(i)).c_str(),
               "expected a number, a string or true/false, got " + Quote(x));
      if (x.is_string() && x.get<std::string>().size() > 1000)
        Refuse((std::string(key) + "/" + std::to_string(i)).c_str(), "a string of at most 1000 bytes");
    }
    return *v;
  }
  // An object field, read with its own Fields (its paths under this one's); null when absent.
  std::optional<Fields> Object(const char* key, const std::string& what) {
    const Json* v = Find(key, true, what);
    if (!v) return std::nullopt;
    if (!v->is_object()) Refuse(key, "expected " + what + ", got " + Quote(*v));
    return Fields(*v, call_, path_ + key + "/");
  }
  // Every field given was read: the others are refused, naming the ones the call takes.
  void Done() {
    for (auto it = object_.begin(); it != object_.end(); ++it)
      if (!read_.count(it.key())) {
        std::string known;
        for (const auto& k : read_) known += (known.empty() ? "" : ", ") + k;
        throw BadRequest(call_ + ": at " + Path(it.key()) + ": not a field of this call" +
                         (known.empty() ? " (it takes none)" : " (it takes: " + known + ")"));
      }
  }

 private:
  std::string Path(const std::string& key) const { return path_ + key; }
  [[noreturn]] void Refuse(const char* key, const std::string& why) const {
    throw BadRequest(call_ + ": at " + Path(key) + ": " + why);
  }
  const Json* Find(const char* key, bool optional, const std::string& what) {
    read_.insert(key);
    auto it = object_.find(key);
    if (it == object_.end()) {
      if (!optional) Refuse(key, "missing (" + what + ")");
      return nullptr;
    }
    return &*it;
  }
  std::string TextOf(const Json& v, const char* key, size_t max_bytes, const std::string& what) const {
    if (!v.is_string()) Refuse(key, "expected " + what + ", got " + Quote(v));
    const std::string& text = v.get_ref<const std::string&>();
    if (text.size() > max_bytes)
      Refuse(key, what + " of at most " + std::to_string(max_bytes) + " bytes, got " + std::to_string(text.size()));
    if (text.find('\0') != std::string::npos) Refuse(key, what + " without NUL characters");
    return text;
  }

  const Json& object_;
  std::string call_, path_;
  std::set<std::string> read_;
};

// The query's parameters as the object Fields reads ("?seat=2": {"seat": 2}): a value of
// digits is a number, anything else a string; a parameter given twice is refused. The token
// is the gate's, not a field.
Json QueryFields(const httplib::Request& req, const std::string& call) {
  Json out = Json::object();
  for (const auto& [key, value] : req.params) {
    if (key == "token") continue;
    if (out.contains(key)) throw BadRequest(call + ": at ?" + key + ": given twice");
    const bool digits = !value.empty() && value.size() <= 18 && value.find_first_not_of("0123456789") == std::string::npos;
    int64_t n = 0;
    std::string ignored;
    out[key] = digits && ParseInt(value, 0, INT64_MAX, "", &n, &ignored) ? Json(n) : Json(value);
  }
  return out;
}

// ---- connections: the doorman and the workers ------------------------------------------------

void CloseFd(int fd) {
  ::shutdown(fd, SHUT_RDWR);
  ::close(fd);
}

bool WaitFd(int fd, short events, int timeout_ms) {
  pollfd p{fd, events, 0};
  for (;;) {
    const int r = ::poll(&p, 1, timeout_ms);
    if (r < 0 && errno == EINTR) continue;
    return r > 0;
  }
}

// The connection the calling worker serves (an event stream asks whether its client left:
// httplib's provider is not told its socket).
thread_local int t_serving_fd = -1;

// Whether the client of `fd` has closed its side (or the connection failed).
bool PeerGone(int fd) {
  if (fd < 0) return false;
  pollfd p{fd, POLLRDHUP, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

// A short JSON answer written without waiting (best effort) on a connection about to close.
void AnswerAndClose(int fd, int status, const char* reason, const std::string& message) {
  const std::string body = DumpJson(Json{{"error", message}});
  const std::string text = "HTTP/1.1 " + std::to_string(status) + " " + reason +
                           "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
                           "\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n" + body;
  (void)::send(fd, text.data(), text.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  CloseFd(fd);
}

// A whole request read by the doorman, served by httplib from memory; the response goes to the
// socket, waiting at most kWriteTimeoutMs for a client that does not read.
class BufferedSocketStream : public httplib::Stream {
 public:
  BufferedSocketStream(int fd, std::string request) : fd_(fd), in_(std::move(request)) {}
  bool is_readable() const override { return at_ < in_.size(); }
  bool is_writable() const override { return WaitFd(fd_, POLLOUT, kWriteTimeoutMs); }
  ssize_t read(char* ptr, size_t size) override {
    // httplib reads one request: nothing past what the doorman read is ever needed.
    const size_t n = std::min(size, in_.size() - at_);
    std::copy(in_.data() + at_, in_.data() + at_ + n, ptr);
    at_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    if (!WaitFd(fd_, POLLOUT, kWriteTimeoutMs)) return -1;
    const ssize_t n = ::send(fd_, ptr, size, MSG_NOSIGNAL);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return 0;
    return n;
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override { Address(false, ip, port); }
  void get_local_ip_and_port(std::string& ip, int& port) const override { Address(true, ip, port); }
  socket_t socket() const override { return fd_; }

 private:
  void Address(bool local, std::string& ip, int& port) const {
    sockaddr_in a{};
    socklen_t len = sizeof a;
    char text[INET_ADDRSTRLEN] = "";
    sockaddr* at = reinterpret_cast<sockaddr*>(&a);
    if ((local ? ::getsockname(fd_, at, &len) : ::getpeername(fd_, at, &len)) == 0 &&
        a.sin_family == AF_INET && ::inet_ntop(AF_INET, &a.sin_addr, text, sizeof text)) {
      ip = text;
      port = ntohs(a.sin_port);
    }
  }
  int fd_;
  std::string in_;
  size_t at_ = 0;
};

// Where a request head ends ("\r\n\r\n", or "\n\n" as httplib also reads), or npos.
size_t HeadEnd(const std::string& data) {
  const size_t crlf = data.find("\r\n\r\n");
  const size_t lf = data.find("\n\n");
  if (crlf == std::string::npos && lf == std::string::npos) return std::string::npos;
  return crlf == std::string::npos ? lf + 2 : lf == std::string::npos || crlf + 4 <= lf + 2 ? crlf + 4 : lf + 2;
}

// What the doorman needs of a head: the body's length (or that it comes in chunks) and whether
// a 100 Continue is awaited.
struct Head {
  int status = 0;  // a refusal, or 0
  std::string why;
  size_t body = 0;
  bool chunked = false;
  bool expect_continue = false;
};

// Where a chunked body that starts at `from` ends: 0 while more is to come, the end's offset
// once its last chunk and trailers are in, or -1 (and *why) when it is malformed or its
// content is over kMaxBody.
long long ChunkedEnd(const std::string& data, size_t from, std::string* why) {
  size_t at = from, content = 0;
  for (;;) {
    const size_t eol = data.find("\r\n", at);
    if (eol == std::string::npos) return data.size() - at > 64 ? (*why = "refused: a chunk size line over 64 bytes", -1) : 0;
    std::string size = data.substr(at, eol - at);
    size = size.substr(0, size.find(';'));  // chunk extensions
    if (size.empty() || size.size() > 8 || size.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
      return *why = "refused: a chunk size that is not a number", -1;
    size_t n = 0;
    for (char c : size) n = n * 16 + static_cast<size_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);  // at most 8 hex digits
    content += n;
    if (content > kMaxBody)
      return *why = "refused: the request body is over " + std::to_string(kMaxBody / 1024) + " KiB", -1;
    at = eol + 2;
    if (n == 0) {
      // Trailers, then an empty line.
      for (;;) {
        const size_t end = data.find("\r\n", at);
        if (end == std::string::npos) return data.size() - at > kMaxHead ? (*why = "refused: chunk trailers over 8 KiB", -1) : 0;
        if (end == at) return static_cast<long long>(end + 2);
        at = end + 2;
      }
    }
    if (data.size() < at + n + 2) return 0;
    if (data.compare(at + n, 2, "\r\n") != 0) return *why = "refused: a chunk that does not end with CRLF", -1;
    at += n + 2;
  }
}

Head ParseHead(const std::string& head) {
  Head h;
  std::optional<size_t> length;
  size_t at = head.find('\n');  // past the request line
  while (at != std::string::npos && at + 1 < head.size()) {
    const size_t end = head.find('\n', at + 1);
    std::string line = head.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
    at = end;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon), value = line.substr(colon + 1);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    value.erase(0, value.find_first_not_of(" \t"));
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.pop_back();
    if (name == "transfer-encoding") {
      for (auto& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (value != "chunked") return {400, "refused: Transfer-Encoding '" + value + "' (only chunked is read)"};
      h.chunked = true;
    }
    if (name == "expect") {
      for (auto& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      h.expect_continue = value == "100-continue";
    }
    if (name == "content-length") {
      if (value.empty() || value.size() > 12 || value.find_first_not_of("0123456789") != std::string::npos)
        return {400, "refused: a Content-Length that is not a number"};
      int64_t parsed = 0;
      std::string ignored;
      if (!ParseInt(value, 0, INT64_MAX, "", &parsed, &ignored)) return {400, "refused: a Content-Length that is not a number"};
      const size_t n = static_cast<size_t>(parsed);
      if (length && *length != n) return {400, "refused: two different Content-Lengths"};
      length = n;
    }
  }
  if (h.chunked && length) return {400, "refused: both a Content-Length and chunks"};
  h.body = length.value_or(0);
  if (h.body > kMaxBody)
    return {413, "refused: the request body is over " + std::to_string(kMaxBody / 1024) + " KiB"};
  return h;
}

// The workers: each serves one whole request at a time, through `serve`; at most kMaxWaiting
// whole requests wait for one (past that, 503 at once).
class Workers {
 public:
  using Serve = std::function<void(int fd, std::string request)>;
  ~Workers() { Shutdown(); }
  Workers(int n, Serve serve) : serve_(std::move(serve)) {
    for (int i = 0; i < n; ++i)
      threads_.push_back(StartGuarded("a worker", [this] { Loop(); }, [](const std::string& what, const std::string& error) {
        std::fprintf(stderr, "plateau studio: %s failed: %s\n", what.c_str(), error.c_str());
      }));
  }
  void Add(int fd, std::string request) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!stop_ && queue_.size() < kMaxWaiting) {
        queue_.emplace_back(fd, std::move(request));
        cv_.notify_one();
        return;
      }
      if (!stop_) {
        AnswerAndClose(fd, 503, "Service Unavailable", "refused: " + std::to_string(kMaxWaiting) + " requests are waiting already");
        return;
      }
    }
    CloseFd(fd);
  }
  void Shutdown() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
      for (auto& [fd, request] : queue_) CloseFd(fd);
      queue_.clear();
    }
    cv_.notify_all();
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }

 private:
  void Loop() {
    for (;;) {
      std::pair<int, std::string> job;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;
        job = std::move(queue_.front());
        queue_.pop_front();
      }
      const int fd = job.first;
      // A request whose handler (or the event stream's writer) throws ends alone.
      RunGuarded("a request", [&] { serve_(fd, std::move(job.second)); }, [](const std::string&, const std::string& error) {
        std::fprintf(stderr, "plateau studio: a request failed: %s\n", error.c_str());
      });
      CloseFd(fd);
    }
  }
  Serve serve_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::pair<int, std::string>> queue_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

// The doorman: every accepted connection waits here, in one poll set, until its whole request
// (head and body) is read; then a worker gets it. A head over kMaxHead, a body over kMaxBody or
// one that is malformed, a request not whole within kRequestDeadlineMs, and the longest-waiting past
// kMaxWaiting are answered (431, 413, 400, 408, 503) and closed here, without a worker. A
// chunked body is read to its last chunk (httplib decodes it), its content under kMaxBody.
class Doorman {
 public:
  explicit Doorman(Workers* workers) : workers_(workers) {
    if (::pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) wake_[0] = wake_[1] = -1;
    thread_ = StartGuarded("the doorman", [this] { Loop(); }, [](const std::string& what, const std::string& error) {
      std::fprintf(stderr, "plateau studio: %s failed: %s\n", what.c_str(), error.c_str());
    });
  }
  ~Doorman() {
    Shutdown();
    for (int fd : wake_)
      if (fd >= 0) ::close(fd);
  }
  void Admit(int fd) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!stop_) {
        arrived_.push_back(fd);
        Wake();
        return;
      }
    }
    CloseFd(fd);
  }
  void Shutdown() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
      Wake();
    }
    if (thread_.joinable()) thread_.join();
  }

 private:
  struct Waiting {
    int fd;
    std::chrono::steady_clock::time_point deadline;
    std::string data;
    size_t need = 0;  // the whole request's bytes, once its head is read
    size_t head = 0;  // the head's bytes (a chunked body starts there)
    bool chunked = false;
  };
  void Wake() {
    const char c = 1;
    if (wake_[1] >= 0) (void)::write(wake_[1], &c, 1);
  }
  void Loop() {
    std::vector<Waiting> waiting;
    std::vector<pollfd> fds;
    for (;;) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (stop_) break;
        const auto now = std::chrono::steady_clock::now();
        for (int fd : arrived_) {
          ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
          waiting.push_back({fd, now + std::chrono::milliseconds(kRequestDeadlineMs), {}, 0, 0, false});
        }
        arrived_.clear();
      }
      // Too many waiting: the longest-waiting go first (a slow client's, not the page's fresh call).
      while (waiting.size() > kMaxWaiting) {
        AnswerAndClose(waiting.front().fd, 503, "Service Unavailable",
                       "refused: " + std::to_string(kMaxWaiting) + " connections were still sending their requests");
        waiting.erase(waiting.begin());
      }
      fds.assign(1, pollfd{wake_[0], POLLIN, 0});
      for (const auto& w : waiting) fds.push_back({w.fd, POLLIN, 0});
      ::poll(fds.data(), fds.size(), 100);
      char drain[64];
      while (wake_[0] >= 0 && ::read(wake_[0], drain, sizeof drain) > 0) {
      }
      const auto now = std::chrono::steady_clock::now();
      std::vector<Waiting> still;
      for (size_t i = 0; i < waiting.size(); ++i) {
        Waiting& w = waiting[i];
        const short ev = fds[i + 1].revents;
        bool closed = false;
        if (ev & (POLLIN | POLLHUP | POLLERR)) closed = Read(&w);
        const int done = Check(&w);
        if (done > 0) {
          workers_->Add(w.fd, std::move(w.data));
        } else if (done < 0) {
          // answered and closed by Check
        } else if (closed) {
          CloseFd(w.fd);
        } else if (now >= w.deadline) {
          AnswerAndClose(w.fd, 408, "Request Timeout",
                         "refused: the request did not arrive whole within " + std::to_string(kRequestDeadlineMs / 1000) + " s");
        } else {
          still.push_back(std::move(w));
        }
      }
      waiting = std::move(still);
    }
    for (const auto& w : waiting) CloseFd(w.fd);
    std::lock_guard<std::mutex> lock(mu_);
    for (int fd : arrived_) CloseFd(fd);
    arrived_.clear();
  }
  // Reads what has arrived, up to the most a request may be; true when the client closed.
  static bool Read(Waiting* w) {
    char buf[16384];
    const size_t cap = kMaxRequest;
    while (w->data.size() < cap) {
      const ssize_t n = ::recv(w->fd, buf, std::min(sizeof buf, cap - w->data.size()), 0);
      if (n > 0) {
        w->data.append(buf, static_cast<size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      return !(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));
    }
    return false;
  }
  // 1: the request is whole; 0: not yet; -1: refused (answered and closed).
  static int Check(Waiting* w) {
    const int done = Whole(w);
    if (done == 0 && w->data.size() >= kMaxRequest) {
      AnswerAndClose(w->fd, 413, "Payload Too Large",
                     "refused: the request is over " + std::to_string(kMaxRequest / 1024) + " KiB as sent");
      return -1;
    }
    return done;
  }
  static int Whole(Waiting* w) {
    if (w->chunked) {
      std::string why;
      const long long end = ChunkedEnd(w->data, w->head, &why);
      if (end < 0) {
        AnswerAndClose(w->fd, why.find("KiB") != std::string::npos ? 413 : 400,
                       why.find("KiB") != std::string::npos ? "Payload Too Large" : "Bad Request", why);
        return -1;
      }
      return end > 0 ? 1 : 0;
    }
    if (w->need == 0) {
      const size_t end = HeadEnd(w->data);
      if (end == std::string::npos || end > kMaxHead) {
        if (w->data.size() <= kMaxHead) return 0;
        AnswerAndClose(w->fd, 431, "Request Header Fields Too Large",
                       "refused: the request's line and headers are over " + std::to_string(kMaxHead) + " bytes");
        return -1;
      }
      const Head h = ParseHead(w->data.substr(0, end));
      if (h.status) {
        AnswerAndClose(w->fd, h.status, h.status == 413 ? "Payload Too Large" : "Bad Request", h.why);
        return -1;
      }
      w->need = end + h.body;
      w->head = end;
      if (h.chunked) {
        w->chunked = true;
        if (h.expect_continue) {
          static const char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
          (void)::send(w->fd, kContinue, sizeof kContinue - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
        }
        return Whole(w);
      }
      if (h.expect_continue && w->data.size() < w->need) {
        static const char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
        (void)::send(w->fd, kContinue, sizeof kContinue - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
      }
    }
    return w->data.size() >= w->need ? 1 : 0;
  }

  Workers* workers_;
  int wake_[2] = {-1, -1};
  std::mutex mu_;
  std::vector<int> arrived_;
  bool stop_ = false;
  std::thread thread_;
};

// The task queue httplib's accept loop hands each connection to: the doorman, at once (the
// accept loop never waits on a client). Its shutdown, when the server stops, ends the doorman
// and then the workers.
class Gate : public httplib::TaskQueue {
 public:
  explicit Gate(std::function<void(std::function<void()>)> run, std::function<void()> stop)
      : run_(std::move(run)), stop_(std::move(stop)) {}
  void enqueue(std::function<void()> fn) override { run_(std::move(fn)); }
  void shutdown() override { stop_(); }

 private:
  std::function<void(std::function<void()>)> run_;
  std::function<void()> stop_;
};

// httplib's server with its connection handling replaced: an accepted socket goes to the
// doorman instead of a thread of its own; a whole request is served by a worker from memory
// (httplib's own parser and routing, one request per connection).
class StudioServer : public httplib::Server {
 public:
  StudioServer() {
    new_task_queue = [this] {
      return new Gate([](std::function<void()> fn) { fn(); },  // runs process_and_close_socket below
                      [this] {
                        doorman_.Shutdown();
                        workers_.Shutdown();
                      });
    };
  }
  // httplib listens with a backlog of 5: a burst of connections (a flood, or only a few tabs
  // at once) would leave the page's own connection waiting a second for the kernel to retry
  // it. Listening again on the bound socket raises the backlog.
  void RaiseBacklog() { ::listen(svr_sock_, SOMAXCONN); }

 private:
  bool process_and_close_socket(socket_t sock) override {
    doorman_.Admit(sock);
    return true;
  }
  void Serve(int fd, std::string request) {
    BufferedSocketStream stream(fd, std::move(request));
    bool closed = false;
    t_serving_fd = fd;
    process_request(stream, /*close_connection=*/true, closed, nullptr);
    t_serving_fd = -1;
  }

  Workers workers_{kWorkers, [this](int fd, std::string request) { Serve(fd, std::move(request)); }};
  Doorman doorman_{&workers_};
};

// One open event stream, counted while it lasts (released with the response's provider).
class EventStreamSlot {
 public:
  static std::shared_ptr<EventStreamSlot> Take(std::atomic<int>* open) {
    if (open->fetch_add(1) >= kMaxEventStreams) {
      open->fetch_sub(1);
      return nullptr;
    }
    return std::shared_ptr<EventStreamSlot>(new EventStreamSlot(open));
  }
  ~EventStreamSlot() { open_->fetch_sub(1); }

 private:
  explicit EventStreamSlot(std::atomic<int>* open) : open_(open) {}
  std::atomic<int>* open_;
};

}  // namespace

int RunStudio(const StudioOptions& options) {
  // SIGINT/SIGTERM stop the server (the signal thread below): they are taken by one thread
  // (sigwait) and blocked in every other one, which all start after this (loading the rules
  // starts the scripts' backstop thread). A client gone mid-answer is an error, not SIGPIPE.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  signal(SIGPIPE, SIG_IGN);
  // Files the page is made of, by URL: nothing else is ever served. The page's own files come
  // from the binary (built in from designer/studio/page/), or with --dev from that folder on disk,
  // read on each request so an edit shows on reload; Chart.js from Debian's package.
  const std::string dir = PlateauHome() + "/designer/studio/page";
  const std::map<std::string, std::pair<std::string, const char*>> files = {
      {"/", {"index.html", "text/html; charset=utf-8"}},
      {"/studio.js", {"studio.js", "text/javascript; charset=utf-8"}},
      {"/numbers.js", {"numbers.js", "text/javascript; charset=utf-8"}},
      {"/studio.css", {"studio.css", "text/css; charset=utf-8"}},
      {"/chart.js", {"/usr/share/javascript/chart.js/chart.min.js", "text/javascript; charset=utf-8"}},
  };
  // A page file's text: the built-in copy, or with --dev the file on disk. A name starting with
  // '/' is a file of the system's (Chart.js).
  const bool dev = options.dev;
  auto page_file = [dev, dir](const std::string& name, std::string* text, std::string* where) {
    if (name[0] == '/' || dev) {
      *where = name[0] == '/' ? name : dir + "/" + name;
      return ReadFile(*where, text);
    }
    *where = "the page built into plateau (" + name + ")";
    for (size_t i = 0; i < kStudioFileCount; ++i)
      if (name == kStudioFiles[i].name) {
        text->assign(kStudioFiles[i].data, kStudioFiles[i].size);
        return true;
      }
    return false;
  };
  for (const auto& [url, file] : files) {
    std::string text, where;
    if (!page_file(file.first, &text, &where))
      return Fail(Status::Input("studio: cannot read " + where +
                                (url == "/chart.js" ? " (install Debian's libjs-chart.js)"
                                 : dev ? " (--dev serves the page from the Plateau tree: set PLATEAU_HOME to it)"
                                       : "")));
  }
  const std::string token = RandomToken();
  if (token.empty()) return Fail(Status::Input("studio: cannot read /dev/urandom for the access token"));

  StudioOptions o = options;
  if (o.game.empty()) {
    // No game named: the first playable one under games/.
    for (const auto& id : ListGames()) {
      GameFiles files;
      if (LoadGameFiles(id, &files).ok() && !files.info.abstract) {
        o.game = id;
        break;
      }
    }
    if (o.game.empty()) return Fail(Status::Input("studio: no game named and none found under games/"));
  }
  StudioSession session;
  Status st = session.Start(o);
  if (!st.ok()) return Fail(st);

  std::atomic<int> event_streams{0};  // before the server: its workers release their slots
  StudioServer server;
  server.set_payload_max_length(kMaxBody);
  // httplib's own refusals (a body over the limit, an unknown path) as JSON that says why.
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    if (res.status == 413) Error(res, 413, "refused: the request body is over " + std::to_string(kMaxBody / 1024) + " KiB");
    else if (res.status == 404) Error(res, 404, "no such page or API call: " + req.path);
    else Error(res, res.status, "bad request (HTTP " + std::to_string(res.status) + ")");
  });
  // A handler that throws all the same: the call fails alone, saying so.
  server.set_exception_handler([](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "an unknown exception";
    try {
      if (ep) std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    Error(res, 500, "the studio failed on " + req.path + ": " + what);
  });
  int port = options.port;
  // The Host and Origin the studio answers to; filled once the port is known.
  std::vector<std::string> hosts, origins;

  server.set_pre_routing_handler([&](const httplib::Request& req, httplib::Response& res) {
    const std::string host = req.get_header_value("Host");
    if (std::find(hosts.begin(), hosts.end(), host) == hosts.end()) {
      Error(res, 403, "refused: Host '" + host + "' is not this studio's (127.0.0.1:" + std::to_string(port) + ")");
      return httplib::Server::HandlerResponse::Handled;
    }
    if (req.has_header("Origin") && std::find(origins.begin(), origins.end(), req.get_header_value("Origin")) == origins.end()) {
      Error(res, 403, "refused: a request from another origin (" + req.get_header_value("Origin") + ")");
      return httplib::Server::HandlerResponse::Handled;
    }
    if (req.get_header_value("Sec-Fetch-Site") == "cross-site") {
      Error(res, 403, "refused: a cross-site request");
      return httplib::Server::HandlerResponse::Handled;
    }
    // The raw target, before decoding: no way out of the page's files, spelt plainly or not.
    const std::string target = req.target.substr(0, req.target.find('?'));
    // The icon a browser asks for by itself, without the token: none, said plainly (not a 403
    // in the console of every page load).
    if (req.method == "GET" && target == "/favicon.ico") {
      res.status = 204;
      return httplib::Server::HandlerResponse::Handled;
    }
    std::string lower = target;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (target.find("..") != std::string::npos || lower.find('%') != std::string::npos ||
        target.find('\\') != std::string::npos || target.find("//") != std::string::npos) {
      Error(res, 400, "refused: bad path '" + target + "' (no '..', '%', '\\\\' or '//' in the studio's paths)");
      return httplib::Server::HandlerResponse::Handled;
    }
    if (req.get_param_value_count("token") != 1 || !SameSecret(req.get_param_value("token"), token)) {
      Error(res, 403, "refused: this studio needs the token it printed when it started: open the URL it printed");
      return httplib::Server::HandlerResponse::Handled;
    }
    if (req.method == "POST" && req.get_header_value("Content-Type").rfind("application/json", 0) != 0) {
      Error(res, 415, "refused: API calls send JSON (Content-Type: application/json)");
      return httplib::Server::HandlerResponse::Handled;
    }
    res.set_header("Cache-Control", "no-store");
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("Referrer-Policy", "no-referrer");  // the token is in the URL
    return httplib::Server::HandlerResponse::Unhandled;
  });

  for (const auto& [url, file] : files) {
    const std::string name = file.first;
    const char* type = file.second;
    const std::string page = url;
    server.Get(url, [name, type, page, &token, page_file](const httplib::Request&, httplib::Response& res) {
      std::string text, where;
      if (!page_file(name, &text, &where)) return Error(res, 500, "cannot read " + where);
      if (page == "/")
        for (size_t at = text.find("{{TOKEN}}"); at != std::string::npos; at = text.find("{{TOKEN}}", at))
          text.replace(at, 9, token);
      // No frames.
      res.set_header("X-Frame-Options", "DENY");
      res.set_header("Content-Security-Policy",
                     "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
      res.set_content(text, type);
    });
  }

  // The API: every call's fields are read by Fields before the session sees them; a refused
  // field answers 400 naming it, and the table is left as it was.
  auto get = [&](const char* url, std::function<Json(Fields&, Status*)> handler) {
    const std::string call = std::string(url).substr(5);  // "state" for /api/state
    server.Get(url, [handler, call](const httplib::Request& req, httplib::Response& res) {
      try {
        const Json query = QueryFields(req, call);
        Fields fields(query, call, "?");
        Status st;
        const Json out = handler(fields, &st);
        Reply(res, st, out);
      } catch (const BadRequest& e) {
        Error(res, 400, e.what());
      }
    });
  };
  auto post = [&](const char* url, std::function<Json(Fields&, Status*)> handler) {
    const std::string call = std::string(url).substr(5);  // "move" for /api/move
    server.Post(url, [handler, call](const httplib::Request& req, httplib::Response& res) {
      if (req.body.size() > kMaxBody)
        return Error(res, 413, "refused: the request body is over " + std::to_string(kMaxBody / 1024) + " KiB");
      Json body;
      std::string error;
      JsonLimits limits;
      limits.max_bytes = kMaxBody;
      if (!ParseJsonLimited(req.body, "the request body", &body, &error, limits)) return Error(res, 400, error);
      try {
        // The query too: a call takes its fields in the body only.
        const Json query = QueryFields(req, call);
        Fields(query, call, "?").Done();
        Fields fields(body, call);
        Status st;
        const Json out = handler(fields, &st);
        Reply(res, st, out);
      } catch (const BadRequest& e) {
        Error(res, 400, e.what());
      }
    });
  };
  const Json ok = {{"ok", true}};

  get("/api/game", [&](Fields& f, Status*) {
    f.Done();
    return session.Game();
  });
  get("/api/state", [&](Fields& f, Status* st) {
    // at: the game after its first `at` moves; seat: the table as that seat sees it (1 = the
    // first seat, as the page names them).
    const int at = static_cast<int>(f.Int("at", 0, limits::kMoves, -1, "a move number, 0 or more"));
    const int seat = static_cast<int>(
        f.Int("seat", 1, limits::kSeats, 0,
              "a seat number, from 1 to " + std::to_string(limits::kSeats) + " (seats are numbered from 1)"));
    f.Done();
    Json j;
    *st = session.Table(at, seat - 1, &j);
    return j;
  });
  get("/api/simulate", [&](Fields& f, Status*) {
    f.Done();
    return session.Simulation();
  });
  post("/api/move", [&](Fields& f, Status* st) {
    const int seat = static_cast<int>(f.Int("seat", 0, limits::kSeats - 1, std::nullopt, "the seat, 0 for the first"));
    const int index =
        static_cast<int>(f.Int("index", 0, INT32_MAX, std::nullopt, "the index of a legal move as the table lists it"));
    const long long version = f.Int("version", 0, INT64_MAX, std::nullopt, "the version of the table the move was listed on");
    f.Done();
    *st = session.Play(seat, index, version);
    return ok;
  });
  post("/api/undo", [&](Fields& f, Status* st) {
    f.Done();
    *st = session.Undo();
    return ok;
  });
  post("/api/new", [&](Fields& f, Status* st) {
    const int players = static_cast<int>(f.Int("players", 0, limits::kSeats, 0, "the number of players (0: as now)"));
    const unsigned long long seed = f.Seed("seed", 1);
    f.Done();
    *st = session.NewGame(players, seed);
    return ok;
  });
  post("/api/seats", [&](Fields& f, Status* st) {
    const std::vector<std::string> seats =
        f.Texts("seats", 1, limits::kSeats, 200, "'human' or a bot (greedy, mcts:iters=200, ...)");
    f.Done();
    *st = session.SetSeats(seats);
    return ok;
  });
  post("/api/bots/cancel", [&](Fields& f, Status* st) {
    f.Done();
    *st = session.CancelBot();
    return ok;
  });
  post("/api/save", [&](Fields& f, Status* st) {
    const std::string path = f.Text("path", 4096, std::nullopt, "a file name ending in .json");
    f.Done();
    *st = session.Save(path);
    return ok;
  });
  post("/api/load", [&](Fields& f, Status* st) {
    const std::string path = f.Text("path", 4096, std::nullopt, "the name of a saved game's file");
    f.Done();
    *st = session.Load(path);
    return ok;
  });
  post("/api/simulate", [&](Fields& f, Status* st) {
    SimulationRequest r;
    r.games = f.Int("n", 1, kStudioMaxGames, 100,
                    "the number of games: the studio runs at most " + std::to_string(kStudioMaxGames) +
                        " at a time; for more use `plateau simulate`");
    r.bots = f.Text("bots", 1000, std::string("random"), "bots, one per seat, separated by commas");
    r.players = static_cast<int>(f.Int("players", 0, limits::kSeats, 0, "the number of players (0: the table's)"));
    r.seed = f.Seed("seed", 1);
    r.max_rounds =
        static_cast<int>(f.Int("max_rounds", 0, limits::kRounds, 500, "the most rounds a game may last (0: no limit)"));
    r.rotate_seats = f.Bool("rotate_seats", false);
    r.kingmaking = static_cast<int>(f.Int("kingmaking", 0, kStudioMaxGames, 0,
                                          "the games sampled for kingmaking (0: not looked for), as simulate --kingmaking"));
    if (auto sweep = f.Object("sweep", "a sweep, {\"name\": <parameter or data.path>, \"values\": [v1, v2, ...]}")) {
      r.sweep = sweep->Text("name", 200, std::nullopt, "the name of a parameter or a data.path");
      if (r.sweep.empty()) throw BadRequest("simulate: at /sweep/name: the name of a parameter or a data.path, got \"\"");
      r.sweep_values = sweep->Values("values", 1, 50, "values to run");
      sweep->Done();
    }
    f.Done();
    r.echo = {{"n", r.games}, {"bots", r.bots}, {"players", r.players}, {"seed", r.seed}, {"max_rounds", r.max_rounds},
              {"rotate_seats", r.rotate_seats}, {"kingmaking", r.kingmaking}};
    if (!r.sweep.empty()) r.echo["sweep"] = {{"name", r.sweep}, {"values", r.sweep_values}};
    *st = session.StartSimulation(r);
    return ok;
  });
  post("/api/simulate/cancel", [&](Fields& f, Status*) {
    f.Done();
    session.CancelSimulation();
    return ok;
  });
  // The designer's numbers: the parameters and data values in force, who set them, the overlay.
  get("/api/numbers", [&](Fields& f, Status*) {
    f.Done();
    return session.Numbers();
  });
  // New values in force (as --set arguments) and a new game with them.
  post("/api/numbers", [&](Fields& f, Status* st) {
    const std::vector<std::string> sets =
        f.Texts("sets", 0, 200, 4000, "values as --set takes them: name=value or <data>.<path>=value");
    const int players = static_cast<int>(f.Int("players", 0, limits::kSeats, 0, "the number of players (0: as now)"));
    const unsigned long long seed = f.Seed("seed", 1);
    f.Done();
    *st = session.ApplySets(sets, players, seed);
    return ok;
  });
  // A saved tune result (plateau tune --format json), read from disk for the page to show.
  post("/api/tune", [&](Fields& f, Status* st) {
    const std::string path = f.Text("path", 4096, std::nullopt, "the path of a tune result (plateau tune ... --format json)");
    f.Done();
    Json out;
    *st = session.ReadTune(path, &out);
    return out;
  });
  // Two saved reports side by side (read from disk, as Load reads a save).
  post("/api/compare", [&](Fields& f, Status* st) {
    const std::string before = f.Text("before", 4096, std::nullopt, "the path of a report file");
    const std::string after = f.Text("after", 4096, std::nullopt, "the path of a report file");
    f.Done();
    Json out;
    *st = StudioSession::CompareFiles(before, after, &out);
    return out;
  });

  // The print-and-play PDF of the game with the numbers in force (plateau print), as a download.
  server.Get("/api/print", [&](const httplib::Request& req, httplib::Response& res) {
    std::string paper;
    try {
      const Json query = QueryFields(req, "print");
      Fields f(query, "print", "?");
      paper = f.Text("paper", 16, std::string("a4"), "a paper size, a4 or letter");
      f.Done();
    } catch (const BadRequest& e) {
      return Error(res, 400, e.what());
    }
    std::string game, pdf, summary;
    std::vector<DataOverride> data_sets;
    session.PrintInputs(&game, &data_sets);
    const Status st = PrintPdf(game, data_sets, paper, &pdf, &summary);
    if (!st.ok()) return Error(res, 400, "print: " + st.message);
    std::string name;
    for (char c : session.Game().value("id", std::string("game")))
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') name += c;
    res.set_header("Content-Disposition", "attachment; filename=\"" + name + "-print-" + paper + ".pdf\"");
    res.set_content(pdf, "application/pdf");
  });

  // Server-sent events: one "update" per change of the table, reload or simulation step; a
  // comment every 15 s keeps the connection open through idle times. At most kMaxEventStreams
  // at once (a page holds one): the next is refused at once, and its worker freed.
  server.Get("/api/events", [&](const httplib::Request& req, httplib::Response& res) {
    try {
      const Json query = QueryFields(req, "events");
      Fields(query, "events", "?").Done();
    } catch (const BadRequest& e) {
      return Error(res, 400, e.what());
    }
    auto slot = EventStreamSlot::Take(&event_streams);
    if (!slot)
      return Error(res, 429, "refused: " + std::to_string(kMaxEventStreams) +
                                 " event streams are open already (one per open page): close a tab of this studio");
    auto seen = std::make_shared<long long>(-1);
    auto last_write = std::make_shared<std::chrono::steady_clock::time_point>(std::chrono::steady_clock::now());
    res.set_header("Cache-Control", "no-store");
    // Waits a second at a time, so a page that closed frees its stream's place within a second
    // (its socket says so) rather than at the next write.
    res.set_chunked_content_provider("text/event-stream", [&session, seen, last_write, slot](size_t, httplib::DataSink& sink) {
      if (session.stopping() || PeerGone(t_serving_fd)) return false;
      Json event;
      const long long n = session.WaitEvent(*seen < 0 ? 0 : *seen, *seen < 0 ? 0 : 1000, &event);
      if (session.stopping()) return false;
      const auto now = std::chrono::steady_clock::now();
      std::string chunk;
      if (*seen < 0 || n != *seen) chunk = "event: update\ndata: " + DumpJson(event) + "\n\n";
      else if (now - *last_write >= std::chrono::seconds(15)) chunk = ": idle\n\n";
      else return true;  // nothing to say yet: asked again
      *seen = n;
      *last_write = now;
      return sink.write(chunk.data(), chunk.size());
    });
  });

  if (port == 0) {
    port = server.bind_to_any_port("127.0.0.1");
    if (port < 0) return Fail(Status::Input("studio: cannot listen on 127.0.0.1"));
  } else if (!server.bind_to_port("127.0.0.1", port)) {
    return Fail(Status::Input("studio: cannot listen on 127.0.0.1:" + std::to_string(port) + " (in use?)"));
  }
  server.RaiseBacklog();
  hosts = {"127.0.0.1:" + std::to_string(port), "localhost:" + std::to_string(port)};
  origins = {"http://127.0.0.1:" + std::to_string(port), "http://localhost:" + std::to_string(port)};

  session.StartBackground();
  // The signal thread: the cooperative stop ends the event streams, the bot's decision, the
  // simulation and the watcher at their next check, and the server's accept loop; whatever
  // still runs after kStopGraceMs (a rule call inside its budget, a write to a client that does
  // not read) ends with the process.
  StartGuarded("the signal handler", [set, &server, &session]() mutable {
    int sig = 0;
    sigwait(&set, &sig);
    session.Stop();
    server.stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(kStopGraceMs));
    std::fprintf(stderr, "plateau studio: stopped with a call still running\n");
    std::_Exit(0);
  }, [](const std::string& what, const std::string& error) {
    std::fprintf(stderr, "plateau studio: %s failed: %s\n", what.c_str(), error.c_str());
    std::_Exit(1);
  }).detach();

  std::printf("plateau studio: %s\n  http://127.0.0.1:%d/?token=%s\n(only this machine can connect; the token is the "
              "key: keep the URL to yourself; Ctrl-C stops)\n%s",
              o.game.c_str(), port, token.c_str(),
              dev ? ("(--dev: the page's files are read from " + dir + "/ on each request)\n").c_str() : "");
  std::fflush(stdout);
  server.listen_after_bind();
  session.Stop();
  return 0;
}

}  // namespace plateau

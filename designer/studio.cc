// plateau studio: the designer's web page, served by the plateau binary (cpp-httplib). The
// only file that includes httplib.h (a heavy header). It serves the page's files as built into
// the binary (designer/studio_files.h; with --dev, read from designer/studio/ under the Plateau
// tree on each request) and Chart.js from Debian's libjs-chart.js, and a JSON API over the game
// session (studio_session.h), with server-sent events for reloads, moves and simulation progress.
//
// Who may talk to it: it binds 127.0.0.1 only; every request must carry the token printed at
// start (from /dev/urandom) as ?token=; a Host that is not 127.0.0.1:<port> or
// localhost:<port> is refused (DNS rebinding: a foreign name resolving to 127.0.0.1), and so is
// an Origin that is not the studio's own (a page on another site posting to it). API bodies
// are JSON of at most 64 KiB.
#include "designer/studio.h"

#include <httplib.h>
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <fstream>
#include <sstream>
#include <thread>

#include "designer/cli_common.h"
#include "designer/studio_files.h"
#include "host/home.h"
#include "host/json_io.h"

namespace plateau {
namespace {

constexpr size_t kMaxBody = 64 * 1024;

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
  res.set_content(body.dump(), "application/json");
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

// The request's body as a JSON object, or a clear refusal.
bool Body(const httplib::Request& req, httplib::Response& res, Json* out) {
  if (req.body.size() > kMaxBody) {
    Error(res, 413, "refused: the request body is over " + std::to_string(kMaxBody / 1024) + " KiB");
    return false;
  }
  std::string error;
  JsonLimits limits;
  limits.max_bytes = kMaxBody;
  if (!ParseJsonLimited(req.body, "the request body", out, &error, limits)) {
    Error(res, 400, error);
    return false;
  }
  if (!out->is_object()) {
    Error(res, 400, "the request body must be a JSON object");
    return false;
  }
  return true;
}

}  // namespace

int RunStudio(const StudioOptions& options) {
  // SIGINT/SIGTERM stop the server cleanly (the event streams end, the watcher joins): they
  // are taken by one thread (sigwait) and blocked in every other one, which all start after
  // this (loading the rules starts the scripts' backstop thread).
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  // Files the page is made of, by URL: nothing else is ever served. The page's own files come
  // from the binary (built in from designer/studio/), or with --dev from that folder on disk,
  // read on each request so an edit shows on reload; Chart.js from Debian's package.
  const std::string dir = PlateauHome() + "/designer/studio";
  const std::map<std::string, std::pair<std::string, const char*>> files = {
      {"/", {"index.html", "text/html; charset=utf-8"}},
      {"/studio.js", {"studio.js", "text/javascript; charset=utf-8"}},
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

  httplib::Server server;
  // Each open page holds a connection for its event stream and a few kept alive for its calls:
  // more workers than httplib's default of 8, so several tabs do not starve each other.
  server.new_task_queue = [] { return new httplib::ThreadPool(32); };
  server.set_payload_max_length(kMaxBody);
  // httplib's own refusals (a body over the limit, an unknown path) as JSON that says why.
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    if (res.status == 413) Error(res, 413, "refused: the request body is over " + std::to_string(kMaxBody / 1024) + " KiB");
    else if (res.status == 404) Error(res, 404, "no such page or API call: " + req.path);
    else Error(res, res.status, "bad request (HTTP " + std::to_string(res.status) + ")");
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
    std::string lower = target;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (target.find("..") != std::string::npos || lower.find('%') != std::string::npos ||
        target.find('\\') != std::string::npos || target.find("//") != std::string::npos) {
      Error(res, 400, "refused: bad path '" + target + "' (no '..', '%', '\\\\' or '//' in the studio's paths)");
      return httplib::Server::HandlerResponse::Handled;
    }
    if (!SameSecret(req.get_param_value("token"), token)) {
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

  server.Get("/api/game", [&](const httplib::Request&, httplib::Response& res) { JsonReply(res, 200, session.Game()); });
  server.Get("/api/state", [&](const httplib::Request& req, httplib::Response& res) {
    int at = -1;
    if (req.has_param("at")) {
      const std::string text = req.get_param_value("at");
      if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
        return Error(res, 400, "at: a move number (0 or more), got '" + text + "'");
      at = std::stoi(text);
    }
    // seat: the table as that seat sees it (1 = the first seat, as the page names them).
    int viewer = -1;
    if (req.has_param("seat")) {
      const std::string text = req.get_param_value("seat");
      if (text.empty() || text.size() > 4 || text.find_first_not_of("0123456789") != std::string::npos)
        return Error(res, 400, "seat: a seat number (1 for the first seat), got '" + text + "'");
      viewer = std::stoi(text) - 1;
      if (viewer < 0) return Error(res, 400, "seat 0 is not at this table: seats are numbered from 1");
    }
    Json j;
    Status s = session.Table(at, viewer, &j);
    Reply(res, s, j);
  });
  auto post = [&](const char* url, std::function<Status(const Json&)> handler) {
    server.Post(url, [handler](const httplib::Request& req, httplib::Response& res) {
      Json body;
      if (!Body(req, res, &body)) return;
      try {
        Reply(res, handler(body));
      } catch (const Json::exception& e) {
        // A field of the wrong type: the request's fault, named.
        Error(res, 400, std::string("bad request: ") + e.what());
      }
    });
  };
  post("/api/move", [&](const Json& b) {
    if (!b.contains("seat") || !b["seat"].is_number_integer() || !b.contains("index") || !b["index"].is_number_integer() ||
        !b.contains("version") || !b["version"].is_number_integer())
      return Status::Input("move: give {\"seat\": <0-based seat>, \"index\": <legal move index>, \"version\": <table version>}");
    return session.Play(b["seat"].get<int>(), b["index"].get<int>(), b["version"].get<long long>());
  });
  post("/api/undo", [&](const Json&) { return session.Undo(); });
  post("/api/new", [&](const Json& b) {
    const Json players = b.value("players", Json(0)), seed = b.value("seed", Json(1));
    if (!players.is_number_integer() || players.get<long long>() < 0 || players.get<long long>() > 16)
      return Status::Input("new: players must be a whole number from 1 to 16 (0: as now)");
    if (!seed.is_number_unsigned() && !(seed.is_number_integer() && seed.get<long long>() >= 0))
      return Status::Input("new: seed must be a whole number, 0 or more");
    return session.NewGame(players.get<int>(), seed.get<unsigned long long>());
  });
  post("/api/seats", [&](const Json& b) {
    if (!b.contains("seats") || !b["seats"].is_array()) return Status::Input("seats: give {\"seats\": [\"human\", \"greedy\", ...]}");
    std::vector<std::string> seats;
    for (const auto& s : b["seats"]) {
      if (!s.is_string()) return Status::Input("seats: each entry is 'human' or a bot name");
      seats.push_back(s.get<std::string>());
    }
    return session.SetSeats(seats);
  });
  post("/api/save", [&](const Json& b) {
    if (!b.contains("path") || !b["path"].is_string()) return Status::Input("save: give {\"path\": \"file.json\"}");
    return session.Save(b["path"].get<std::string>());
  });
  post("/api/load", [&](const Json& b) {
    if (!b.contains("path") || !b["path"].is_string()) return Status::Input("load: give {\"path\": \"file.json\"}");
    return session.Load(b["path"].get<std::string>());
  });
  post("/api/simulate", [&](const Json& b) { return session.StartSimulation(b); });
  post("/api/simulate/cancel", [&](const Json&) {
    session.CancelSimulation();
    return Status::Ok();
  });
  // Two saved reports side by side (read from disk, as Load reads a save).
  server.Post("/api/compare", [](const httplib::Request& req, httplib::Response& res) {
    Json body, out;
    if (!Body(req, res, &body)) return;
    if (!body.contains("before") || !body["before"].is_string() || !body.contains("after") || !body["after"].is_string())
      return Error(res, 400, "compare: give {\"before\": \"report.json\", \"after\": \"report.json\"}");
    const Status st = StudioSession::CompareFiles(body["before"].get<std::string>(), body["after"].get<std::string>(), &out);
    Reply(res, st, out);
  });
  server.Get("/api/simulate", [&](const httplib::Request&, httplib::Response& res) { JsonReply(res, 200, session.Simulation()); });

  // Server-sent events: one "update" per change of the table, reload or simulation step; a
  // comment every 15 s keeps the connection open through idle times.
  server.Get("/api/events", [&](const httplib::Request&, httplib::Response& res) {
    auto seen = std::make_shared<long long>(-1);
    res.set_header("Cache-Control", "no-store");
    res.set_chunked_content_provider("text/event-stream", [&session, seen](size_t, httplib::DataSink& sink) {
      if (session.stopping()) return false;
      Json event;
      const long long n = session.WaitEvent(*seen < 0 ? 0 : *seen, *seen < 0 ? 0 : 15000, &event);
      std::string chunk;
      if (*seen < 0 || n != *seen) chunk = "event: update\ndata: " + event.dump() + "\n\n";
      else chunk = ": idle\n\n";
      *seen = n;
      return sink.write(chunk.data(), chunk.size());
    });
  });

  if (port == 0) {
    port = server.bind_to_any_port("127.0.0.1");
    if (port < 0) return Fail(Status::Input("studio: cannot listen on 127.0.0.1"));
  } else if (!server.bind_to_port("127.0.0.1", port)) {
    return Fail(Status::Input("studio: cannot listen on 127.0.0.1:" + std::to_string(port) + " (in use?)"));
  }
  hosts = {"127.0.0.1:" + std::to_string(port), "localhost:" + std::to_string(port)};
  origins = {"http://127.0.0.1:" + std::to_string(port), "http://localhost:" + std::to_string(port)};

  std::thread watcher([&session] { session.WatchLoop(); });
  std::thread([set, &server, &session]() mutable {
    int sig = 0;
    sigwait(&set, &sig);
    session.Stop();
    server.stop();
  }).detach();

  std::printf("plateau studio: %s\n  http://127.0.0.1:%d/?token=%s\n(only this machine can connect; the token is the "
              "key: keep the URL to yourself; Ctrl-C stops)\n%s",
              o.game.c_str(), port, token.c_str(),
              dev ? ("(--dev: the page's files are read from " + dir + "/ on each request)\n").c_str() : "");
  std::fflush(stdout);
  server.listen_after_bind();
  session.Stop();
  watcher.join();
  return 0;
}

}  // namespace plateau

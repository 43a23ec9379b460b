// Lua VM lifecycle, allocator cap, lazily armed instruction budget, protected calls and
// error formatting (see runtime.h). The sandboxed library itself is in sandbox.cc.
#include "scripting/runtime.h"

#include <unistd.h>

#include <lua.hpp>

#include "host/files.h"
#include "host/json_io.h"
#include "host/limits.h"
#include "host/text.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace plateau::scripting {

void InstallSandbox(lua_State* L, Runtime* rt, int* env_ref);  // sandbox.cc

namespace {

constexpr int kHookInterval = 1000;
int g_budget_sentinel;  // its address marks budget kills

// ---- the watchdog ------------------------------------------------------------------
std::atomic<uint64_t> g_tick{1};

class Watchdog {
 public:
  static Watchdog& Get() {
    static Watchdog* w = new Watchdog();  // never destroyed: the thread outlives statics
    return *w;
  }
  void Register(Runtime* rt) {
    std::lock_guard<std::mutex> lock(mu_);
    runtimes_.insert(rt);
    cv_.notify_all();
  }
  void Unregister(Runtime* rt) {
    std::lock_guard<std::mutex> lock(mu_);
    runtimes_.erase(rt);
  }
  static int Signal() { return SIGRTMIN + 4; }

 private:
  Watchdog() {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = &Watchdog::OnSignal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(Signal(), &sa, nullptr);
    std::thread([this] { Loop(); }).detach();
  }
  static void OnSignal(int);
  void Loop() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      if (runtimes_.empty()) cv_.wait(lock, [this] { return !runtimes_.empty(); });
      lock.unlock();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      const uint64_t now = g_tick.fetch_add(1, std::memory_order_relaxed) + 1;
      lock.lock();
      for (Runtime* rt : runtimes_) {
        if (!rt->in_call.load(std::memory_order_acquire)) continue;
        const uint64_t elapsed = now - rt->call_start_tick.load(std::memory_order_relaxed);
        if (!rt->signaled.load(std::memory_order_relaxed)) {
          if (elapsed >= static_cast<uint64_t>(rt->limits().arm_after_ms)) {
            rt->signaled.store(true, std::memory_order_relaxed);
            pthread_kill(rt->thread, Signal());
          }
        } else if (!rt->backstop_signaled.load(std::memory_order_relaxed) &&
                   elapsed > static_cast<uint64_t>(rt->backstop_ms.load(std::memory_order_relaxed))) {
          rt->backstop_signaled.store(true, std::memory_order_relaxed);
          rt->backstop_due = 1;
          pthread_kill(rt->thread, Signal());
        }
      }
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::set<Runtime*> runtimes_;
};

thread_local Runtime* tls_runtime = nullptr;

void Watchdog::OnSignal(int) {
  Runtime* rt = tls_runtime;
  if (!rt || !rt->in_call.load(std::memory_order_relaxed)) return;
  if (rt->backstop_due) rt->FireOnNextInstruction();
  else rt->ArmFromSignal();
}

void CountHook(lua_State* L, lua_Debug*) {
  Runtime* rt = Runtime::From(L);
  rt->Charge(L, kHookInterval);
}

}  // namespace

// Keeps the error message as is and records a traceback beside it.
int MessageHandler(lua_State* L) {
  Runtime* rt = Runtime::From(L);
  if (lua_islightuserdata(L, 1) && lua_touserdata(L, 1) == &g_budget_sentinel) return 1;
  const char* msg = lua_tostring(L, 1);
  if (!msg) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) msg = lua_tostring(L, -1);
    else msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    lua_replace(L, 1);
    lua_settop(L, 1);
  }
  if (!rt->killed()) {
    luaL_traceback(L, L, nullptr, 1);
    rt->last_traceback_ = SanitizeUtf8(lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  return 1;
}

Runtime* Runtime::From(lua_State* L) { return *static_cast<Runtime**>(lua_getextraspace(L)); }

const char* Runtime::LuaRelease() { return LUA_RELEASE " (package " PLATEAU_LUA_PACKAGE " at build time)"; }

Runtime::Runtime(const Limits& limits) : limits_(limits) {
  mem_limit_ = limits.memory_bytes;
  gc_trigger_ = mem_limit_ / 2;
  L_ = lua_newstate(&Runtime::Alloc, this);
  *static_cast<Runtime**>(lua_getextraspace(L_)) = this;
  current_ = L_;
  // Incremental GC: the generational mode had a known bug in 5.4.4.
  lua_gc(L_, LUA_GCINC, 0, 0, 0);
  BuildSandbox();
  Watchdog::Get().Register(this);
}

Runtime::~Runtime() {
  Watchdog::Get().Unregister(this);
  if (L_) {
    lua_gc(L_, LUA_GCCOLLECT);
    lua_close(L_);
  }
}

Runtime::SmallBlocks::~SmallBlocks() {
  for (void* c : chunks_) std::free(c);
}

void* Runtime::SmallBlocks::Get(size_t n) {
  const size_t k = Class(n);
  if (FreeBlock* f = free_[k]) {
    free_[k] = f->next;
    return f;
  }
  const size_t size = (k + 1) * kStep;
  if (static_cast<size_t>(end_ - cur_) < size) {
    constexpr size_t kChunk = 64 * 1024;
    // The tail of the old chunk is too small for this class; it is left unused.
    char* chunk = static_cast<char*>(std::malloc(kChunk));
    if (!chunk) return nullptr;
    chunks_.push_back(chunk);
    cur_ = chunk;
    end_ = chunk + kChunk;
  }
  void* p = cur_;
  cur_ += size;
  return p;
}

void* Runtime::Alloc(void* ud, void* ptr, size_t osize, size_t nsize) {
  auto* rt = static_cast<Runtime*>(ud);
  SmallBlocks& pool = rt->blocks_;
  constexpr size_t kMax = SmallBlocks::kMax;
  // With ptr null, osize is a type tag, not a size.
  const size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    if (ptr) {
      rt->mem_used_ -= old;
      if (old <= kMax) pool.Put(ptr, old);
      else std::free(ptr);
    }
    return nullptr;
  }
  if (nsize > old) {
    // Inside a call the scripts meet the cap. Outside one the host pushes arguments and reads
    // results where nothing can catch a Lua error, and a failed allocation there aborts the
    // process; a script can leave memory at the cap between calls (module-level tables), so
    // the host gets headroom over it.
    const size_t need = rt->mem_used_ + (nsize - old);
    if (need > rt->mem_limit_ && (rt->depth_ > 0 || need - rt->mem_limit_ > kHostHeadroom)) return nullptr;
    if (rt->depth_ > 0 && rt->InjectedFailure()) return nullptr;
  }
  void* p;
  if (!ptr) {
    p = nsize <= kMax ? pool.Get(nsize) : std::malloc(nsize);
  } else if (old <= kMax) {
    if (nsize <= kMax && SmallBlocks::Class(nsize) == SmallBlocks::Class(old)) {
      p = ptr;
    } else {
      p = nsize <= kMax ? pool.Get(nsize) : std::malloc(nsize);
      if (p) {
        std::memcpy(p, ptr, std::min(old, nsize));
        pool.Put(ptr, old);
      }
    }
  } else if (nsize > kMax) {
    p = std::realloc(ptr, nsize);
  } else {
    p = pool.Get(nsize);
    if (p) {
      std::memcpy(p, ptr, nsize);
      std::free(ptr);
    }
  }
  if (!p) return nullptr;
  rt->mem_used_ = rt->mem_used_ - old + nsize;
  return p;
}

void Runtime::BuildSandbox() {
  // The sandbox must build within the cap whatever it is set to.
  const size_t saved = mem_limit_;
  mem_limit_ = SIZE_MAX;
  InstallSandbox(L_, this, &env_ref_);
  lua_pushcfunction(L_, MessageHandler);
  traceback_ref_ = luaL_ref(L_, LUA_REGISTRYINDEX);
  mem_limit_ = saved;
}

// Lua's collector paces itself by the heap's growth (a cycle starts at 10x the heap left by the
// last one, lua_rules.cc), not by the cap, and the full collection Lua makes when an
// allocation fails cannot run finalizers: the host's move lists and other userdata with __gc
// stay in memory until a normal cycle. Calls that each leave such garbage (an octopus's
// relocations at every placement of a bot's playouts) then meet the cap with a heap that is
// mostly garbage. So once the heap passes halfway from what the last collection kept to the
// cap, the next outer call starts with a full collection, outside the cap (the host's own
// headroom), finalizers included.
void Runtime::CollectIfNearCap() {
  if (mem_used_ <= gc_trigger_) return;
  const size_t saved = mem_limit_;
  mem_limit_ = SIZE_MAX;
  lua_gc(L_, LUA_GCCOLLECT);
  mem_limit_ = saved;
  const size_t live = std::min(mem_used_, mem_limit_);
  gc_trigger_ = live + (mem_limit_ - live) / 2;
}

void Runtime::PushEnv() { lua_rawgeti(L_, LUA_REGISTRYINDEX, env_ref_); }

void Runtime::Log(const std::string& line) {
  if (log_lines++ >= limits_.max_log_lines) return;
  // A script's words reach a terminal: inert text (host/text.h), tabs and newlines kept.
  if (log_) log_(TerminalText(line, /*lines=*/true));
}

std::atomic<uint64_t> Runtime::arm_count{0};

void Runtime::ArmFromSignal() {
  if (!limits_.budget || armed_) return;
  armed_ = true;
  arm_count.fetch_add(1, std::memory_order_relaxed);
  lua_State* co = current_;
  lua_sethook(co, CountHook, LUA_MASKCOUNT, kHookInterval);
  if (co != L_) lua_sethook(L_, CountHook, LUA_MASKCOUNT, kHookInterval);
}

// From the signal handler: the backstop is due, so the next instruction of whatever thread
// runs checks it (lua_sethook is async-signal safe).
void Runtime::FireOnNextInstruction() {
  if (!limits_.budget) return;
  armed_ = true;
  lua_State* co = current_;
  lua_sethook(co, CountHook, LUA_MASKCOUNT, 1);
  if (co != L_) lua_sethook(L_, CountHook, LUA_MASKCOUNT, 1);
}

void Runtime::SetHookFor(lua_State* co) {
  if (budget_exhausted_ || backstop_due) lua_sethook(co, CountHook, LUA_MASKCOUNT, 1);
  else if (armed_) lua_sethook(co, CountHook, LUA_MASKCOUNT, kHookInterval);
  else if (lua_gethook(co)) lua_sethook(co, nullptr, 0, 0);
}

void Runtime::Charge(lua_State* L, int64_t instructions) {
  if (!limits_.budget) return;
  used_ += instructions;
  if (used_ > limit_) budget_exhausted_ = true;
  const uint64_t elapsed = g_tick.load(std::memory_order_relaxed) - call_start_tick.load(std::memory_order_relaxed);
  if (backstop_due || elapsed > static_cast<uint64_t>(backstop_ms.load(std::memory_order_relaxed))) {
    budget_exhausted_ = true;
    backstop_hit_ = true;
  }
  if (budget_exhausted_) {
    // Where the script was when its budget ran out: the first kill names the line.
    if (kill_where_.empty()) {
      lua_Debug ar;
      for (int level = 0; lua_getstack(L, level, &ar); ++level) {
        if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) continue;
        kill_where_ = std::string(ar.short_src) + ":" + std::to_string(ar.currentline) + ": ";
        break;
      }
      if (kill_where_.empty()) kill_where_ = " ";
    }
    // Sticky: fire on every instruction from now on, in this thread and the main one.
    lua_sethook(L, CountHook, LUA_MASKCOUNT, 1);
    lua_pushlightuserdata(L, &g_budget_sentinel);
    lua_error(L);
  }
}

// Lua's parser reports nesting past its C-stack limit as "C stack overflow" with no line (it
// is raised from C, not from a Lua function). The line is found here instead: the first one
// where brackets and blocks nest deeper than the parser could follow.
std::string NestingLine(const std::string& source) {
  int depth = 0, line = 1;
  for (size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '\n') ++line;
    else if (c == '(' || c == '{' || c == '[') ++depth;
    else if (c == ')' || c == '}' || c == ']') --depth;
    if (depth > 150) return std::to_string(line);
  }
  return "";
}

bool TooDeep(const std::string& message) {
  return message.find("C stack overflow") != std::string::npos || message.find("too many C levels") != std::string::npos;
}

// Nesting that is not brackets (a chain of unary minus, of `..`, of nested functions): the
// first line at which a prefix of the source is already too deep for the parser, found by
// compiling prefixes (only parsed, in a scratch VM, never run).
std::string DeepLineByParsing(const std::string& source) {
  std::vector<size_t> ends;  // end offset of each line
  for (size_t i = 0; i < source.size(); ++i)
    if (source[i] == '\n') ends.push_back(i + 1);
  ends.push_back(source.size());
  auto too_deep = [&](size_t lines) {
    lua_State* L = luaL_newstate();
    if (!L) return false;
    const size_t n = ends[lines - 1];
    const bool deep = luaL_loadbufferx(L, source.data(), n, "=prefix", "t") != LUA_OK && lua_tostring(L, -1) &&
                      TooDeep(lua_tostring(L, -1));
    lua_close(L);
    return deep;
  };
  size_t lo = 1, hi = ends.size();
  if (!too_deep(hi)) return "";
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (too_deep(mid)) hi = mid;
    else lo = mid + 1;
  }
  return std::to_string(lo);
}

std::string ExplainCompileError(const std::string& message, const std::string& source, const std::string& chunk_name) {
  if (!TooDeep(message)) return message;
  std::string line = NestingLine(source);
  if (line.empty()) line = DeepLineByParsing(source);
  return chunk_name + (line.empty() ? "" : ":" + line) +
         ": brackets or blocks nested too deeply for the parser (about 200 levels at most)";
}

// Whether a message starts with "<file>.lua:<line>:".
bool HasPosition(const std::string& message) {
  const size_t colon = message.find(".lua:");
  if (colon == std::string::npos || message.find('\n') < colon || message.find(' ') < colon) return false;
  size_t i = colon + 5;
  const size_t digits = i;
  while (i < message.size() && std::isdigit(static_cast<unsigned char>(message[i]))) ++i;
  return i > digits && i < message.size() && message[i] == ':';
}

// "<file>.lua:<line>: " of the first Lua frame in a traceback ("" when none).
std::string FirstLuaFrame(const std::string& traceback) {
  std::istringstream in(traceback);
  std::string line;
  while (std::getline(in, line)) {
    const size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    const std::string frame = line.substr(start);
    if (HasPosition(frame)) return frame.substr(0, frame.find(':', frame.find(".lua:") + 5) + 1) + " ";
  }
  return "";
}

Status Runtime::Compile(const std::string& source, const std::string& chunk_name) {
  const std::string name = "@" + chunk_name;
  const int rc = luaL_loadbufferx(L_, source.data(), source.size(), name.c_str(), "t");
  if (rc != LUA_OK) {
    Status st;
    st.kind = rc == LUA_ERRMEM ? ErrorKind::kMemory : ErrorKind::kScript;
    st.message = lua_tostring(L_, -1) ? SanitizeUtf8(lua_tostring(L_, -1)) : "cannot compile " + chunk_name;
    st.message = ExplainCompileError(st.message, source, chunk_name);
    if (rc == LUA_ERRSYNTAX && st.message.find("binary") != std::string::npos) st.kind = ErrorKind::kSandbox;
    // Syntax errors carry "file:line:" already; others (a binary chunk) get the file name.
    if (st.message.rfind(chunk_name, 0) != 0) st.message = chunk_name + ": " + st.message;
    lua_pop(L_, 1);
    return st;
  }
  // The chunk's only upvalue is _ENV: point it at the sandbox.
  PushEnv();
  lua_setupvalue(L_, -2, 1);
  return Status::Ok();
}

Status Runtime::Call(int nargs, int nresults, const std::string& hook, bool load_phase) {
  const int base = lua_gettop(L_) - nargs;  // the function's index
  const bool outer = depth_ == 0;
  // A host binding may call into another VM (a test VM driving the rules VM): restore the
  // signal target afterwards so the outer call stays budgeted.
  Runtime* const previous_tls = tls_runtime;
  if (outer) {
    CollectIfNearCap();
    used_ = 0;
    limit_ = load_phase ? limits_.load_instructions : limits_.call_instructions;
    budget_exhausted_ = memory_exhausted_ = false;
    backstop_hit_ = false;
    kill_where_.clear();
    sandbox_violation_ = false;
    armed_ = false;
    coroutines_created = 0;
    log_lines = 0;
    last_traceback_.clear();
    current_ = L_;
    thread = pthread_self();
    tls_runtime = this;
    signaled.store(false, std::memory_order_relaxed);
    backstop_signaled.store(false, std::memory_order_relaxed);
    backstop_due = 0;
    backstop_ms.store(limits_.wall_backstop_ms > 0 ? limits_.wall_backstop_ms : std::max<int64_t>(3000, limit_ / 10'000),
                      std::memory_order_relaxed);
    call_start_tick.store(g_tick.load(std::memory_order_relaxed), std::memory_order_relaxed);
    in_call.store(true, std::memory_order_release);
  }
  ++depth_;
  lua_rawgeti(L_, LUA_REGISTRYINDEX, traceback_ref_);
  lua_insert(L_, base);
  int rc;
  try {
    rc = lua_pcall(L_, nargs, nresults, base);
  } catch (...) {
    rc = LUA_ERRRUN;
    lua_settop(L_, base);
    lua_pushstring(L_, "internal error: exception escaped a host binding");
  }
  --depth_;
  if (outer) {
    in_call.store(false, std::memory_order_release);
    backstop_due = 0;
    if (armed_ || budget_exhausted_) lua_sethook(L_, nullptr, 0, 0);
    armed_ = false;
    current_ = L_;
  }
  tls_runtime = previous_tls;
  lua_remove(L_, base);  // the message handler
  if (rc == LUA_OK) return Status::Ok();

  Status st;
  st.context = "hook '" + hook + "'" + (context_.empty() ? "" : ", " + context_);
  if (budget_exhausted_ || (lua_islightuserdata(L_, -1) && lua_touserdata(L_, -1) == &g_budget_sentinel)) {
    st.kind = ErrorKind::kBudget;
    st.message = (kill_where_ == " " ? "" : kill_where_) + (backstop_hit_ ? "hook '" + hook + "' ran past the " + std::to_string(backstop_ms.load()) +
                                     " ms wall-clock backstop (each instruction did a lot of work)"
                               : "instruction budget of " + std::to_string(limit_) + " exceeded in hook '" + hook + "'");
  } else if (rc == LUA_ERRMEM || memory_exhausted_) {
    st.kind = ErrorKind::kMemory;
    st.message = "memory cap of " + std::to_string(mem_limit_ >> 20) + " MiB exceeded in hook '" + hook + "'";
  } else {
    st.kind = ErrorKind::kScript;
    const char* msg = lua_tostring(L_, -1);
    // A message may quote a script's bytes; reports print it inside JSON.
    // The host keeps at most kMessageBytes of it: a 16 MiB message would be copied into
    // every failure report.
    size_t len = 0;
    if (msg) lua_tolstring(L_, -1, &len);
    st.message = msg ? SanitizeUtf8(std::string(msg, std::min(len, limits::kMessageBytes))) : "error object is not a string";
    if (len > limits::kMessageBytes) st.message += "... (" + std::to_string(len - limits::kMessageBytes) + " more bytes cut)";
    st.traceback = last_traceback_;
    // Errors raised from C with no Lua function running ("C stack overflow" inside gsub, a
    // library's own error) carry no position: the first Lua frame of the traceback gives it.
    // (Only for those: error(msg, 0) leaves its position out on purpose.)
    if (st.message.find("stack overflow") != std::string::npos && !HasPosition(st.message))
      st.message = FirstLuaFrame(last_traceback_) + st.message;
    // The violation itself (re-raised as it is, or through a handler that adds a traceback
    // after it); a script's own error() that merely quotes it is the script's error.
    if (sandbox_violation_ && msg && std::strncmp(msg, violation_message_.c_str(), violation_message_.size()) == 0 &&
        (msg[violation_message_.size()] == '\0' || msg[violation_message_.size()] == '\n'))
      st.kind = ErrorKind::kSandbox;
  }
  lua_pop(L_, 1);
  if (outer) {
    budget_exhausted_ = memory_exhausted_ = false;
    // A memory failure may leave garbage behind; collect it now, outside the cap.
    const size_t saved = mem_limit_;
    mem_limit_ = SIZE_MAX;
    lua_gc(L_, LUA_GCCOLLECT);
    mem_limit_ = saved;
  }
  return st;
}

Runtime::Source Runtime::FindSource(const std::string& relative) const {
  Source src;
  for (const auto& root : roots_) {
    ReadFailure failure;
    if (ReadGameFile(root.folder, root.display, relative, kMaxScriptBytes, &src.text, &src.error, &failure)) {
      src.found = true;
      src.name = root.display + "/" + relative;
      src.error.clear();
      return src;
    }
    if (failure == ReadFailure::kMissing) continue;  // the next root: a base game's module
    src.found = true;
    src.name = root.display + "/" + relative;
    return src;
  }
  src.error.clear();
  return src;
}

namespace {

// Scans Lua source from line `line` for the call there, and returns the line where the
// `entry`-th positional element of the first table constructor among its arguments begins.
// Strings, long strings and comments are skipped so their brackets do not count. 0 when the
// call closes first, or the text runs out.
int ScanTableEntryLine(const std::string& text, int line, int entry) {
  size_t i = 0;
  int at = 1;
  while (i < text.size() && at < line)
    if (text[i++] == '\n') ++at;
  if (at != line) return 0;
  // The level of a long bracket opening at text[p] ('[' then '='s then '['), or -1.
  auto long_level = [&](size_t p) {
    if (p >= text.size() || text[p] != '[') return -1;
    size_t q = p + 1;
    while (q < text.size() && text[q] == '=') ++q;
    return q < text.size() && text[q] == '[' ? static_cast<int>(q - p - 1) : -1;
  };
  auto skip_long = [&](size_t p, int level) {  // from the opening bracket; returns past the closing one
    const std::string close = "]" + std::string(static_cast<size_t>(level), '=') + "]";
    const size_t end = text.find(close, p + 2 + static_cast<size_t>(level));
    const size_t stop = end == std::string::npos ? text.size() : end + close.size();
    for (size_t q = p; q < stop; ++q)
      if (text[q] == '\n') ++at;
    return stop;
  };
  int parens = 0;        // depth of brackets of any kind since the call's '('
  bool in_call = false;  // the call's '(' was met
  bool in_table = false; // the table argument's '{' was met
  int table_depth = 0;   // `parens` just inside that '{'
  bool expect = false;   // an element may start at the next token
  int positional = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') { ++at; ++i; continue; }
    if (c == ' ' || c == '\t' || c == '\r') { ++i; continue; }
    if (c == '-' && i + 1 < text.size() && text[i + 1] == '-') {
      const int level = long_level(i + 2);
      if (level >= 0) { i = skip_long(i + 2, level); continue; }
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    // The start of an element: a positional one unless it is `name =` or `[key] =`.
    if (in_table && expect && parens == table_depth && c != '}') {
      expect = false;
      bool keyed = c == '[' && long_level(i) < 0;
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        size_t q = i;
        while (q < text.size() && (std::isalnum(static_cast<unsigned char>(text[q])) || text[q] == '_')) ++q;
        while (q < text.size() && (text[q] == ' ' || text[q] == '\t')) ++q;
        keyed = q + 1 < text.size() && text[q] == '=' && text[q + 1] != '=';
      }
      if (!keyed && ++positional == entry) return at;
    }
    if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i)
        if (text[i] == '\\' && i + 1 < text.size()) {
          if (text[i + 1] == '\n') ++at;
          ++i;
        }
      ++i;
      continue;
    }
    const int level = c == '[' ? long_level(i) : -1;
    if (level >= 0) { i = skip_long(i, level); continue; }
    if (c == '(' || c == '{' || c == '[') {
      if (!in_call) {
        if (c != '(' && c != '{') { ++i; continue; }
        in_call = true;
        if (c == '{') {  // f{...}: the call's only argument is the table
          parens = 1;
          in_table = true;
          table_depth = 1;
          expect = true;
          ++i;
          continue;
        }
      } else if (c == '{' && !in_table && parens == 1) {
        in_table = true;
        table_depth = 2;
        expect = true;
      }
      ++parens;
    } else if (c == ')' || c == '}' || c == ']') {
      if (!in_call) { ++i; continue; }  // an index before the call (`t[1] = f(...)`)
      if (--parens <= 0 || (in_table && parens < table_depth)) return 0;
    } else if ((c == ',' || c == ';') && in_table && parens == table_depth) {
      expect = true;
    }
    ++i;
  }
  return 0;
}

}  // namespace

int Runtime::TableEntryLine(const std::string& position, int entry, size_t* scanned) const {
  // "<file>:<line>:" with the file under one of the source roots' display prefixes.
  const size_t colon = position.find(".lua:");
  if (colon == std::string::npos || entry < 1) return 0;
  const std::string file = position.substr(0, colon + 4);
  // The line: the digits up to the next ':' (a script's source is at most 1 MiB of lines).
  const size_t end = position.find(':', colon + 5);
  int64_t line = 0;
  std::string error;
  if (end == std::string::npos ||
      !ParseInt(std::string_view(position).substr(colon + 5, end - colon - 5), 1, kMaxScriptBytes, "line", &line, &error))
    return 0;
  for (const auto& root : roots_) {
    if (file.size() <= root.display.size() + 1 || file.compare(0, root.display.size() + 1, root.display + "/") != 0)
      continue;
    const Source src = FindSource(file.substr(root.display.size() + 1));
    if (scanned) *scanned = src.text.size();
    if (!src.found || !src.error.empty() || src.name != file) return 0;
    return ScanTableEntryLine(src.text, static_cast<int>(line), entry);
  }
  return 0;
}

Status Runtime::RunFile(const std::string& relative, int nresults) {
  const Source src = FindSource(relative);
  if (!src.found)
    return Status::Input("script '" + relative + "' not found in " + (roots_.empty() ? "?" : roots_.front().display));
  if (!src.error.empty()) return Status::Input(src.error);
  Status st = Compile(src.text, src.name);
  if (!st.ok()) return st;
  return Call(0, nresults, "load " + relative, true);
}

[[noreturn]] void RaiseArg(lua_State* L, int arg, const std::string& message) {
  luaL_argerror(L, arg, message.c_str());
  std::abort();  // unreachable: luaL_argerror throws
}

[[noreturn]] void Raise(lua_State* L, const std::string& message) {
  luaL_where(L, 1);
  lua_pushlstring(L, message.data(), message.size());
  lua_concat(L, 2);
  lua_error(L);
  std::abort();
}

}  // namespace plateau::scripting

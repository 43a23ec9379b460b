// The Lua runtime: one VM per game instance, a sandboxed standard library, an instruction
// budget and a memory cap, and the single helper through which the host calls into Lua.
//
// Budget: a count hook that is always set makes every Lua instruction pay for it, so the
// hook is armed lazily. A process-wide watchdog thread ticks every millisecond; when a
// call into Lua has been running for `arm_after_ms`, the watchdog signals the thread
// running it, and the signal handler arms the count hook (lua_sethook is async-signal safe,
// lua.c relies on it too). From then on every `hook_interval` instructions are charged,
// every coroutine resume is charged a full interval, and once the budget is spent the
// exhaustion is sticky: the hook fires on every instruction and the pcall/xpcall/resume
// wrappers re-raise, so scripts cannot swallow it. Calls shorter than `arm_after_ms` run
// unhooked, which is why the budget costs almost nothing on normal rule calls.
#pragma once

#include <atomic>
#include <csignal>
#include <cstdint>
#include <functional>
#include <pthread.h>
#include <string>
#include <vector>

#include "host/game.h"

struct lua_State;

namespace plateau::scripting {

struct Limits {
  int64_t call_instructions = 20'000'000;   // per call into a hook, after arming
  int64_t load_instructions = 50'000'000;   // per script load (top-level chunk)
  size_t memory_bytes = 64u << 20;          // per VM
  int arm_after_ms = 2;                     // unmetered head of each call
  // Backstop for loops whose every instruction is very expensive (comparing or concatenating
  // megabyte strings): a call still running after this long is ended like a budget kill.
  // It is not a rule outcome; instruction counts decide every normal case. 0: scaled to the
  // call's budget, 1 ms per 10,000 instructions and at least 3 s (3 s for a 20 M call,
  // 5 s for a 50 M load), about ten times what a budget's worth of instructions takes.
  int wall_backstop_ms = 0;
  bool budget = true;                       // off only for the benchmark's comparison
  int64_t max_coroutines = 10'000;          // created per call
  int max_log_lines = 200;                  // print() lines kept per call
};

class Runtime {
 public:
  explicit Runtime(const Limits& limits = {});
  // The Lua release the host was built against, with the Debian package's version at build
  // time ("Lua 5.4.4 (package 5.4.4-3+deb12u1 at build time)"): saves and --version record
  // it, since the library's own fixes can change what a script does.
  static const char* LuaRelease();
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  lua_State* L() const { return L_; }
  const Limits& limits() const { return limits_; }
  void set_limits(const Limits& l) { limits_ = l; }

  // Compiles text (never bytecode) under `chunk_name` ("games/<id>/rules.lua") with the
  // sandbox environment, and leaves the function on the stack.
  Status Compile(const std::string& source, const std::string& chunk_name);
  // Calls the function below `nargs` arguments on the stack, leaving `nresults` results.
  // `hook` names the rule hook for error context. On failure nothing is left on the stack.
  Status Call(int nargs, int nresults, const std::string& hook, bool load_phase = false);

  // Folders searched by require(), in order, with the display prefix used in chunk names.
  struct SourceRoot {
    std::string folder;   // on disk
    std::string display;  // "games/<id>"
  };
  void set_source_roots(std::vector<SourceRoot> roots) { roots_ = std::move(roots); }
  const std::vector<SourceRoot>& source_roots() const { return roots_; }
  // Loads a file of a source root by relative name ("rules.lua"); leaves the chunk's results.
  Status RunFile(const std::string& relative, int nresults);
  // The first source root holding `relative`, read under the script size limit. `name` is the
  // chunk name errors use ("games/<id>/lib/x.lua"); `error` is set when the file is unreadable.
  struct Source {
    bool found = false;
    std::string name, text, error;
  };
  Source FindSource(const std::string& relative) const;
  // The line where the `entry`-th positional element (1-based) of the first table constructor
  // among the arguments of the call at `position` ("games/<id>/rules.lua:24: ") begins, read
  // from the source; 0 when the position names no file of the source roots or the call passes
  // no such table there. Lua keeps no line per table field: a library that checks a list of
  // entries (a score sheet) uses this to name the entry's own line (ctx.entry_line).
  // `scanned` (optional) receives the bytes read, for the caller's budget.
  int TableEntryLine(const std::string& position, int entry, size_t* scanned = nullptr) const;
  static constexpr size_t kMaxScriptBytes = 1u << 20;
  // What the host may allocate over the memory cap outside calls into Lua (see Alloc).
  static constexpr size_t kHostHeadroom = 1u << 20;

  // The RNG math.random draws from during the current call (null: unavailable).
  void set_rng(Rng* rng) { rng_ = rng; }
  Rng* rng() const { return rng_; }
  // Where print() and ctx.log lines go.
  void set_log(std::function<void(const std::string&)> log) { log_ = std::move(log); }
  void Log(const std::string& line);
  // Context appended to errors: move number, seed.
  void set_context(std::string context) { context_ = std::move(context); }

  size_t memory_used() const { return mem_used_; }
  int64_t instructions_charged() const { return used_; }
  bool armed() const { return armed_; }
  // Calls (process-wide) that ran long enough for the watchdog to arm the count hook.
  static std::atomic<uint64_t> arm_count;

  // Pushes the sandbox environment table (the globals scripts see).
  void PushEnv();

  // Internal, used by the hook, wrappers and signal handler.
  static Runtime* From(lua_State* L);
  void ArmFromSignal();
  void FireOnNextInstruction();
  void Charge(lua_State* L, int64_t instructions);
  bool killed() const { return budget_exhausted_ || memory_exhausted_; }
  // Tests only: after `n` more allocations that grow memory inside a call into Lua, every
  // further one in that call fails, as if the cap were reached there; -1 turns it off. Like
  // Lua's own test allocator (ltests.c), it reaches every path that handles a failed
  // allocation, Lua's emergency collection included. Pending: the count has not run out yet.
  void FailAllocationAfter(int64_t n) {
    fail_after_ = n;
    failing_ = false;
  }
  bool allocation_failure_pending() const { return fail_after_ >= 0 && !failing_; }
  // Whether the allocation being made fails by FailAllocationAfter (counts it).
  bool InjectedFailure() {
    if (!failing_ && fail_after_ >= 0 && fail_after_-- == 0) failing_ = true;
    return failing_;
  }
  void MarkMemoryExhausted() { memory_exhausted_ = true; }
  void MarkSandboxViolation(const char* message) {
    sandbox_violation_ = true;
    violation_message_ = message ? message : "";
  }
  void SetHookFor(lua_State* co);
  // Whether the last call ended at the wall-clock backstop (not the instruction budget).
  bool backstop_hit() const { return backstop_hit_; }
  lua_State* current_thread() const { return current_; }
  void set_current_thread(lua_State* co) { current_ = co; }
  int64_t coroutines_created = 0;
  int log_lines = 0;

  // Watchdog bookkeeping (read by the watchdog thread).
  std::atomic<bool> in_call{false};
  std::atomic<uint64_t> call_start_tick{0};
  std::atomic<bool> signaled{false};
  // The current call's backstop, and whether the watchdog has signalled it: from then on the
  // count hook fires on every instruction, so the backstop ends even a loop whose instructions
  // each take a long time, without waiting for a hook interval's worth of them.
  std::atomic<int64_t> backstop_ms{0};
  std::atomic<bool> backstop_signaled{false};
  volatile sig_atomic_t backstop_due = 0;
  pthread_t thread{};

 private:
  // Lua's small blocks (tables, short strings, closures, userdata) come from per-size free
  // lists carved out of 64 KiB chunks, since glibc's malloc and free cost more than the rule
  // code asking for them. Freed blocks are kept for reuse until the VM closes. The memory cap
  // counts the bytes Lua holds; a pool's idle blocks are at most its peak of small blocks.
  class SmallBlocks {
   public:
    static constexpr size_t kMax = 256, kStep = 16;
    SmallBlocks() = default;
    SmallBlocks(const SmallBlocks&) = delete;
    SmallBlocks& operator=(const SmallBlocks&) = delete;
    ~SmallBlocks();
    static size_t Class(size_t n) { return (n - 1) / kStep; }
    void* Get(size_t n);
    void Put(void* p, size_t n) {
      auto* f = static_cast<FreeBlock*>(p);
      f->next = free_[Class(n)];
      free_[Class(n)] = f;
    }

   private:
    struct FreeBlock { FreeBlock* next; };
    FreeBlock* free_[kMax / kStep] = {};
    std::vector<void*> chunks_;
    char* cur_ = nullptr;
    char* end_ = nullptr;
  };

  static void* Alloc(void* ud, void* ptr, size_t osize, size_t nsize);
  void BuildSandbox();

  SmallBlocks blocks_;

  lua_State* L_ = nullptr;
  Limits limits_;
  std::vector<SourceRoot> roots_;
  Rng* rng_ = nullptr;
  std::function<void(const std::string&)> log_;
  std::string context_;
  size_t mem_used_ = 0;
  size_t mem_limit_ = 0;
  // Heap size past which the next outer call starts with a full collection (CollectIfNearCap).
  size_t gc_trigger_ = 0;
  void CollectIfNearCap();

  // Budget state of the current call.
  int64_t used_ = 0;
  int64_t limit_ = 0;
  volatile bool armed_ = false;
  bool budget_exhausted_ = false;
  bool memory_exhausted_ = false;
  int64_t fail_after_ = -1;
  bool failing_ = false;
  bool backstop_hit_ = false;
  std::string kill_where_;  // "file:line: " of the budget kill (" ": none found)
  bool sandbox_violation_ = false;
  std::string violation_message_;  // the last violation's message: the error must carry it
  lua_State* volatile current_ = nullptr;
  int env_ref_ = -2;
  int traceback_ref_ = -2;
  int depth_ = 0;
  std::string last_traceback_;
  friend int MessageHandler(lua_State* L);
};

// A compile error as a person reads it: nesting past the parser's limit gets its file and line.
std::string ExplainCompileError(const std::string& message, const std::string& source, const std::string& chunk_name);

// Errors raised by host bindings: message without position; the binding adds the caller's.
[[noreturn]] void RaiseArg(lua_State* L, int arg, const std::string& message);
[[noreturn]] void Raise(lua_State* L, const std::string& message);

}  // namespace plateau::scripting

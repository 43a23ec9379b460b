// Starting other programs, the one way (docs/security.md, "No shell"): an argument vector
// handed to posix_spawnp, never a command line handed to a shell, so no file or game name,
// whatever quotes or semicolons it holds, can become a command. Output is captured with caps,
// and a program that runs past its time is killed.
#pragma once

#include <atomic>
#include <string>
#include <vector>

namespace plateau {

struct ProcessOptions {
  std::string cwd;              // the program's working folder; empty: ours
  int timeout_s = 0;            // killed (SIGKILL) after this many seconds; 0: no limit
  bool merge_stderr = false;    // standard error into `out` too, in order
  size_t max_output = 64u << 20;  // bytes kept of each stream; the rest is read and dropped
  const std::atomic<bool>* stop = nullptr;  // killed when this becomes true
};

struct ProcessResult {
  bool started = false;         // false: could not start (error says why)
  bool timed_out = false;       // killed at the time limit or by `stop`
  int exit_code = -1;           // when it exited normally
  int signal = 0;               // when a signal ended it
  std::string out, err;         // what it printed (capped)
  size_t dropped = 0;           // output bytes past the caps
  std::string error;
  bool ok() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  // "exited 3", "was stopped by signal 9", "ran past 20 s and was stopped", "could not start: ..."
  std::string Describe() const;
};

// Runs argv[0] (looked up in PATH when it has no '/') with argv, standard input from /dev/null.
ProcessResult RunProcess(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// Splits a command template the user wrote (tune's --runner) into words as a POSIX shell would
// split them (spaces, single and double quotes, backslashes), without running any shell and
// without any expansion: `$`, `;`, `|` and backquotes are plain characters here.
bool SplitWords(const std::string& text, std::vector<std::string>* words, std::string* error);

// An argument as one word for a POSIX shell at the other end of a connection (ssh hands its
// command to the remote user's shell): in single quotes, each quote written as '\''.
std::string ShellWord(const std::string& arg);

}  // namespace plateau

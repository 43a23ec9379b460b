// Mutation testing of a game's rules: small automatic changes to its Lua (a number nudged,
// a comparison flipped, `and`/`or` swapped, a statement dropped), each run against the game's
// own tests (scenario files and golden playthroughs). A mutant the tests do not notice points
// at a rule no test pins down; the report lists those survivors and the share killed.
#pragma once

#include <string>

namespace plateau {

struct MutateOptions {
  std::string game;
  int max_mutants = 300;  // spread evenly over all candidates when there are more
  bool verbose = false;
};

int RunMutation(const MutateOptions& options);

}  // namespace plateau

// plateau play: a game at the terminal, seats played by people or bots (play.cc).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace plateau {

// plateau play <game> [--players N] [--seed S] [--bots b1,b2,...] [--load save] [--save save]
int CmdPlay(const std::string& game, int players, uint64_t seed, const std::string& bots_arg,
            const std::vector<std::string>& sets, const std::string& load_path, const std::string& save_path);

// What changed between two views, for a player who saw the table a move ago: the blocks of
// `now` (a line that is not indented and the indented lines under it) with a line that was not
// in `before`, each whole, in order.
std::string ChangedLines(const std::string& before, const std::string& now);

}  // namespace plateau

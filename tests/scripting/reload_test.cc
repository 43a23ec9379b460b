// Hot reload keeps the table: every broken reload (syntax, load-time errors, loops and
// memory bombs, bad shapes, bad data, schema errors, incompatible cards, hooks that fail on
// the current state) is rejected with the file and line, the state hash is unchanged and the
// old rules still answer; a good reload mid-game takes effect and the final score follows it.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "host/bots.h"
#include "scripting/reload.h"

namespace plateau::scripting {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void Write(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::trunc);
  out << text;
}

// A copy of Savane in a temporary folder named like the game, so errors read games/ecosysteme-savane/...
class ReloadTest : public testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/plateau-reload-XXXXXX";
    root_ = mkdtemp(tmpl);
    folder_ = root_ / "ecosysteme-savane";
    fs::copy(fs::path(PLATEAU_SOURCE_DIR_STR) / "games" / "ecosysteme-savane", folder_, fs::copy_options::recursive);
    limits_.load_instructions = 5'000'000;
    limits_.call_instructions = 5'000'000;
    limits_.memory_bytes = 32u << 20;
    // The memory bomb's failed allocations each run a full collection: on a loaded machine that
    // can take seconds, and the case is about the memory error, not the backstop.
    limits_.wall_backstop_ms = 20'000;
    Status st = LuaRules::Load(folder_.string(), limits_, &rules_);
    ASSERT_TRUE(st.ok()) << st.message;
    Json params;
    ASSERT_TRUE(ResolveParams(rules_->info(), Json::object(), &params).ok());
    ASSERT_TRUE(rules_->NewGame(params, 3, 5, &state_).ok());
    Rng bot(3);
    std::vector<int> seats;
    for (int i = 0; i < 12; ++i) {  // a few picks in: hidden commitments and passed hands
      ASSERT_TRUE(rules_->ToMove(state_, &seats).ok());
      Move m;
      ASSERT_TRUE(rules_->RandomMove(state_, seats.front(), &bot, &m).ok());
      ASSERT_TRUE(rules_->Apply(&state_, seats.front(), m).ok());
    }
    rules_text_ = Slurp(folder_ / "rules.lua");
    cards_text_ = Slurp(folder_ / "data" / "cards.json");
    manifest_text_ = Slurp(folder_ / "game.json");
  }
  void TearDown() override { fs::remove_all(root_); }

  // Rejected, with `expect` in the message, the state byte-identical, the old rules answering.
  void ExpectRejected(const std::string& what, const std::string& expect) {
    const std::string before = state_.ToJson().dump();
    const std::string hash = state_.Hash();
    LuaRules* old = rules_.get();
    ReloadResult r = ReloadRules(folder_.string(), limits_, &state_, &rules_);
    EXPECT_FALSE(r.ok) << what;
    EXPECT_NE(r.error.message.find(expect), std::string::npos) << what << ": " << r.error.message;
    EXPECT_EQ(state_.Hash(), hash) << what;
    EXPECT_EQ(state_.ToJson().dump(), before) << what;
    EXPECT_EQ(rules_.get(), old) << what << ": the old rules must stay";
    std::vector<int> seats;
    EXPECT_TRUE(rules_->ToMove(state_, &seats).ok()) << what;
    EXPECT_FALSE(seats.empty()) << what;
    ScoreTable t;
    EXPECT_TRUE(rules_->Score(state_, &t).ok()) << what;
    // Put the good files back for the next case.
    Write(folder_ / "rules.lua", rules_text_);
    Write(folder_ / "data" / "cards.json", cards_text_);
    Write(folder_ / "game.json", manifest_text_);
  }

  void BreakRules(const std::string& find, const std::string& replace) {
    std::string text = rules_text_;
    const size_t at = text.find(find);
    ASSERT_NE(at, std::string::npos) << find;
    text.replace(at, find.size(), replace);
    Write(folder_ / "rules.lua", text);
  }

  fs::path root_, folder_;
  Limits limits_;
  std::unique_ptr<LuaRules> rules_;
  State state_;
  std::string rules_text_, cards_text_, manifest_text_;
};

const char* kTop = "local game = { api_version = 1, version = 1 }";

TEST_F(ReloadTest, BrokenReloadsAreRejectedAndTheTableIsKept) {
  // Each case names the place the error must point at: the line the case adds after kTop's.
  const std::string line = std::to_string(
      std::count(rules_text_.begin(), rules_text_.begin() + static_cast<long>(rules_text_.find(kTop)), '\n') + 2);
  BreakRules(kTop, std::string(kTop) + "\nlocal x = = 1");
  ExpectRejected("syntax error", "games/ecosysteme-savane/rules.lua:" + line + ":");
  BreakRules(kTop, std::string(kTop) + "\nerror('boom at load')");
  ExpectRejected("runtime error at load", "games/ecosysteme-savane/rules.lua:" + line + ": boom at load");
  BreakRules(kTop, std::string(kTop) + "\nwhile true do end");
  ExpectRejected("infinite loop at load", "instruction budget");
  BreakRules(kTop, std::string(kTop) + "\nlocal t = {} for i = 1, 1e9 do t[i] = ('x'):rep(100) .. i end");
  ExpectRejected("memory bomb at load", "memory cap");
  BreakRules("return game", "return 42");
  ExpectRejected("rules return a number", "must return the game table");
  BreakRules("return game", "game.scroe = function() end\nreturn game");
  ExpectRejected("unknown field", "unknown field 'scroe'");
  BreakRules("return game", "game.score = nil\nreturn game");
  ExpectRejected("missing score", "needs 'score'");
  BreakRules("api_version = 1", "api_version = 2");
  ExpectRejected("bad api_version", "api_version 2 is not supported");
  BreakRules("function game.score(ctx, state)\n", "function game.score(ctx, state)\n  error('score broke')\n");
  ExpectRejected("score fails on the current state", "score broke");
  BreakRules("function game.score(ctx, state)\n", "function game.score(ctx, state)\n  if true then return { { breakdown = { waterhole = 'many' } } } end\n");
  ExpectRejected("score returns a non-number", "is string, an integer within");
  BreakRules("function game.draft(ctx)\n", "function game.draft(ctx)\n  error('draft broke')\n");
  ExpectRejected("draft config fails", "draft broke");
  // Savane's draft table comes from the shared Écosystème base: change what it returns.
  BreakRules("return game", "local base_draft = game.draft\n"
             "game.draft = function(ctx) local d = base_draft(ctx); d.rounds[1].keep = 12; return d end\nreturn game");
  ExpectRejected("draft keeps more than it deals", "rounds[1].keep: 12 outside 1..11");
  BreakRules("return game", "local base_draft = game.draft\n"
             "game.draft = function(ctx) local d = base_draft(ctx); d.grid = { rows = 3, cols = 5 }; return d end\nreturn game");
  ExpectRejected("grid no longer fits the rounds", "the rounds place 20 cards but the grid has 15 cells");
  BreakRules(kTop, std::string(kTop) + "\nsetmetatable({}, { __gc = function() while true do end end })");
  ExpectRejected("__gc smuggling", "__gc");
  BreakRules(kTop, std::string(kTop) + "\nlocal helper = require('lib/missing')");
  ExpectRejected("missing module", "module 'lib/missing' not found");
  BreakRules(kTop, std::string(kTop) + "\nleaked = 1");
  ExpectRejected("global assignment at load", "assignment to undeclared global 'leaked'");
  BreakRules("return game", "game.on_place = { unicorn = function() end }\nreturn game");
  ExpectRejected("on_place names an unknown card", "unknown card 'unicorn'");
  BreakRules(kTop, std::string(kTop) + "\nlocal s = ('x'):rep(1 << 22) while true do s = s .. s end");
  ExpectRejected("string doubling at load", "memory cap");

  Write(folder_ / "data" / "cards.json", "{ \"cards\": [ {\"id\": \"waterhole\", \"count\": 10}, ");
  ExpectRejected("truncated data file", "games/ecosysteme-savane/data/cards.json:1:");
  {
    std::string bad = cards_text_;
    bad.replace(bad.find("\"count\": 10"), 11, "\"count\": -3");
    Write(folder_ / "data" / "cards.json", bad);
  }
  ExpectRejected("schema error in data", "games/ecosysteme-savane/data/cards.json: at /cards/0/count");
  {
    std::string bad = cards_text_;
    const size_t at = bad.find("    {\"id\": \"vulture\"");
    bad.replace(at, bad.find("\n", at) - at, "    {\"id\": \"vulturez\", \"count\": 8, \"kind\": \"animal\"}");
    Write(folder_ / "data" / "cards.json", bad);
  }
  // A renamed card the deck deals has no rule: the new rules' own load check refuses it first.
  ExpectRejected("a card renamed", "games/ecosysteme-savane/data/cards.json: at /cards/10/id: card 'vulturez' has no scoring rule");
  {
    // Dealt no more (count 0), the renamed card loads; the running game still holds vultures.
    std::string bad = cards_text_;
    const size_t at = bad.find("    {\"id\": \"vulture\"");
    bad.replace(at, bad.find("\n", at) - at, "    {\"id\": \"vulturez\", \"count\": 0, \"kind\": \"animal\"}");
    Write(folder_ / "data" / "cards.json", bad);
  }
  ExpectRejected("a card of the running game removed", "card 'vulture' was removed");
  {
    std::string bad = cards_text_;
    const size_t a = bad.find("    {\"id\": \"waterhole\""), a_end = bad.find("\n", a);
    const size_t b = bad.find("    {\"id\": \"prairie\""), b_end = bad.find("\n", b);
    std::string line_a = bad.substr(a, a_end - a), line_b = bad.substr(b, b_end - b);
    line_a.pop_back();  // drop commas to re-add them in the new order
    line_b.pop_back();
    bad.replace(b, b_end - b, line_a + ",");
    bad.replace(a, a_end - a, line_b + ",");
    Write(folder_ / "data" / "cards.json", bad);
  }
  ExpectRejected("cards reordered", "moved in the card files");
  Write(folder_ / "game.json", "{ \"api_version\": 1, \"name\": {\"en\": \"x\"} }");
  ExpectRejected("manifest without id", "games/ecosysteme-savane/game.json: at /");
  {
    std::string bad = manifest_text_;
    bad.replace(bad.find("\"id\": \"ecosysteme-savane\""), 25, "\"id\": \"another-game\"");
    Write(folder_ / "game.json", bad);
  }
  ExpectRejected("the folder now holds another game", "not 'ecosysteme-savane'");
  Write(folder_ / "game.json", "{ not json");
  ExpectRejected("manifest is not JSON", "games/ecosysteme-savane/game.json:1:");
  Write(folder_ / "game.json", manifest_text_);
  // The look (data/look.json): a bad one refuses the reload with its file and JSON path, after
  // the table's own checks; the good one back, the reload goes through.
  const std::string look = Slurp(folder_ / "data" / "look.json");
  std::string bad = look;
  bad.replace(bad.find("\"#f3d9a4\""), 9, "\"#ggg\"");
  Write(folder_ / "data" / "look.json", bad);
  ExpectRejected("a look with a colour that does not parse",
                 "games/ecosysteme-savane/data/look.json: at /cards/0/colours/animal: \"#ggg\" is not a colour (#rgb or #rrggbb)");
  Write(folder_ / "data" / "look.json", look);
  EXPECT_TRUE(ReloadRules(folder_.string(), limits_, &state_, &rules_).ok);
}

TEST_F(ReloadTest, AChangedScoringRuleTakesEffectMidGameAndTheFinalScoreFollowsIt) {
  const std::string hash = state_.Hash();
  // Gazelles are worth 3 each instead of 2 from now on.
  BreakRules("gazelle = 2 * gazelles", "gazelle = 3 * gazelles");
  const std::string before = rules_->fingerprint();
  ReloadResult r = ReloadRules(folder_.string(), limits_, &state_, &rules_);
  ASSERT_TRUE(r.ok) << r.error.message;
  EXPECT_EQ(state_.Hash(), hash) << "a reload never changes the table";
  // The log says where the rules changed, from which rules to which.
  ASSERT_FALSE(state_.log.empty());
  const LogEntry& entry = state_.log.back();
  EXPECT_EQ(entry.kind, "reload");
  EXPECT_EQ(entry.seat, -1);
  EXPECT_EQ(entry.detail.value("from", std::string()), before);
  EXPECT_EQ(entry.detail.value("to", std::string()), rules_->fingerprint());
  EXPECT_NE(before, rules_->fingerprint()) << "an edited rules.lua must change the fingerprint";
  EXPECT_EQ(entry.detail.value("move", -1), state_.move_count);
  // Finish the game with the new rules.
  Rng bot(9);
  std::vector<int> seats;
  for (;;) {
    ASSERT_TRUE(rules_->ToMove(state_, &seats).ok());
    if (seats.empty()) break;
    Move m;
    ASSERT_TRUE(rules_->RandomMove(state_, seats.front(), &bot, &m).ok());
    ASSERT_TRUE(rules_->Apply(&state_, seats.front(), m).ok());
  }
  ScoreTable t;
  ASSERT_TRUE(rules_->Score(state_, &t).ok());
  for (const auto& line : t.lines) {
    const Grid* g = state_.FindGrid(State::Key("grid", line.seat));
    std::vector<Coord> cells;
    g->OccupiedCells(&cells);
    int gazelles = 0;
    for (const Coord& c : cells) gazelles += state_.CardName(g->Get(c.row, c.col)->item) == "gazelle";
    int64_t base = 0;
    for (const auto& [k, v] : line.breakdown)
      if (k == "gazelle") base = v;
    // The gazelle category is 3 per gazelle plus a majority bonus of 0, 2 or 5.
    const int64_t bonus = base - 3 * gazelles;
    EXPECT_TRUE(bonus == 0 || bonus == 2 || bonus == 5) << line.name << ": " << base << " for " << gazelles;
  }
}

TEST_F(ReloadTest, AGoodReloadAfterABrokenOneRecovers) {
  BreakRules(kTop, std::string(kTop) + "\nlocal x = = 1");
  ReloadResult bad = ReloadRules(folder_.string(), limits_, &state_, &rules_);
  EXPECT_FALSE(bad.ok);
  Write(folder_ / "rules.lua", rules_text_);
  const std::string before = rules_->fingerprint();
  ReloadResult good = ReloadRules(folder_.string(), limits_, &state_, &rules_);
  EXPECT_TRUE(good.ok) << good.error.message;
  // The same files again: the same fingerprint, and one reload entry (the broken one left none).
  EXPECT_EQ(rules_->fingerprint(), before);
  int reloads = 0;
  for (const LogEntry& e : state_.log) reloads += e.kind == "reload";
  EXPECT_EQ(reloads, 1);
}

TEST_F(ReloadTest, ASavedMidDraftGameLoadsIntoFreshRulesAndContinues) {
  State loaded;
  std::string error;
  ASSERT_TRUE(State::FromJson(Json::parse(state_.ToJson().dump()), rules_->files().cards, &loaded, &error)) << error;
  std::unique_ptr<LuaRules> fresh;
  ASSERT_TRUE(LuaRules::Load(folder_.string(), limits_, &fresh).ok());
  std::vector<int> seats;
  ASSERT_TRUE(fresh->ToMove(loaded, &seats).ok());
  ASSERT_FALSE(seats.empty());
  Rng bot(1);
  Move m;
  ASSERT_TRUE(fresh->RandomMove(loaded, seats.front(), &bot, &m).ok());
  EXPECT_TRUE(fresh->Apply(&loaded, seats.front(), m).ok());
}

}  // namespace
}  // namespace plateau::scripting

namespace plateau::scripting {
namespace {

TEST_F(ReloadTest, ANewVersionMigratesTheStateItKeeps) {
  BreakRules("local game = { api_version = 1, version = 1 }",
             "local game = { api_version = 1, version = 2 }\n"
             "function game.migrate(ctx, state, old) state.data.migrated_from = old end");
  ReloadResult r = ReloadRules(folder_.string(), limits_, &state_, &rules_);
  ASSERT_TRUE(r.ok) << r.error.message;
  EXPECT_EQ(state_.data.value("migrated_from", -1), 1);
}

TEST_F(ReloadTest, AFailingMigrationIsRejectedAndTheStateIsKept) {
  BreakRules("local game = { api_version = 1, version = 1 }",
             "local game = { api_version = 1, version = 2 }\n"
             "function game.migrate(ctx, state, old) state.data.half = true; error('cannot migrate') end");
  ExpectRejected("migration error", "migrate from version 1 failed");
}

TEST_F(ReloadTest, AMigrationThatLeavesAnInvalidStateIsRejected) {
  // The migration "succeeds" but leaves data the new scoring cannot read.
  BreakRules("local game = { api_version = 1, version = 1 }",
             "local game = { api_version = 1, version = 2 }\n"
             "function game.migrate(ctx, state, old) state.data.eaten = { { grid = 1 } } end");
  ExpectRejected("migration leaves an invalid state", "after migrate from version 1");
}

}  // namespace
}  // namespace plateau::scripting

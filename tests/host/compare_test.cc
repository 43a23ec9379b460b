// Comparing two designer's reports: the same run compares equal, a rules change shows up in
// the measures it moves and nowhere it does not, and differing run settings are named.
#include "host/compare.h"

#include <gtest/gtest.h>

#include "host/simulate.h"
#include "tests/host/pig_game.h"

namespace plateau {
namespace {

Json PigReport(int target, int games = 200, uint64_t seed = 1) {
  SimulationSpec spec;
  spec.games = games;
  spec.seed = seed;
  spec.players = 2;
  spec.bots = {"random"};
  SimulationReport report;
  EXPECT_TRUE(Simulate([&](std::unique_ptr<Rules>* out) {
                *out = std::make_unique<testing::PigGame>(target);
                return Status::Ok();
              }, spec, &report).ok());
  Json j = report.ToJson();
  j["game"] = "pig";
  j["players"] = 2;
  j["seed"] = seed;
  j["params"] = {{"target", target}};
  return j;
}

const Json* Find(const Json& cmp, const std::string& measure) {
  for (const auto& m : cmp["measures"])
    if (m["measure"] == measure) return &m;
  return nullptr;
}

TEST(CompareReports, TheSameRunComparesEqual) {
  const Json r = PigReport(20);
  const Json cmp = CompareReports(r, r);
  EXPECT_EQ(cmp["changed"], 0);
  EXPECT_GT(cmp["compared"].get<int>(), 5);
  EXPECT_TRUE(cmp["settings"].empty());
  const Json* length = Find(cmp, "length (rounds)");
  ASSERT_TRUE(length);
  EXPECT_DOUBLE_EQ((*length)["difference"].get<double>(), 0);
}

TEST(CompareReports, OtherSeedsOfTheSameRulesChangeNothingBeyondChance) {
  const Json cmp = CompareReports(PigReport(20, 300, 1), PigReport(20, 300, 5000));
  EXPECT_EQ(cmp["changed"], 0) << cmp.dump(1);
  ASSERT_EQ(cmp["settings"].size(), 1u);
  EXPECT_EQ(cmp["settings"][0], "seed: 1 before, 5000 now");
}

TEST(CompareReports, ARulesChangeShowsInTheMeasuresItMoves) {
  // A target twice as far: longer games with higher totals.
  const Json cmp = CompareReports(PigReport(20), PigReport(40));
  const Json* length = Find(cmp, "length (rounds)");
  const Json* total = Find(cmp, "winning total");
  ASSERT_TRUE(length && total);
  EXPECT_TRUE((*length)["changed"].get<bool>());
  EXPECT_GT((*length)["z"].get<double>(), 3);
  EXPECT_TRUE((*total)["changed"].get<bool>());
  EXPECT_GT((*total)["after"].get<double>(), 39);
  // Either seat still wins about half the games.
  EXPECT_FALSE((*Find(cmp, "seat P1 win rate"))["changed"].get<bool>());
  ASSERT_EQ(cmp["settings"].size(), 1u);
  EXPECT_EQ(cmp["settings"][0], "parameter target: 20 before, 40 now");
  const std::string text = CompareToText(cmp, "before.json");
  EXPECT_NE(text.find("compared with before.json"), std::string::npos);
  EXPECT_NE(text.find("note: parameter target: 20 before, 40 now"), std::string::npos);
  EXPECT_NE(text.find("length (rounds)"), std::string::npos);
}

TEST(CompareReports, ADifferenceWithNoSpreadOnEitherSideIsAChange) {
  Json before = PigReport(20), after = before;
  // Every game ended the same way in both runs, but not the same way: certain, not chance.
  before["endings"] = {{"target", 200}};
  after["endings"] = {{"target", 150}, {"timeout", 50}};
  before["stopped"] = 0;
  after["stopped"] = 0;
  const Json cmp = CompareReports(before, after);
  const Json* target = Find(cmp, "ending target");
  ASSERT_TRUE(target);
  EXPECT_TRUE((*target)["changed"].get<bool>());
  EXPECT_DOUBLE_EQ((*target)["after"].get<double>(), 0.75);
  const Json* timeout = Find(cmp, "ending timeout");
  ASSERT_TRUE(timeout);  // a name on one side only is 0 on the other
  EXPECT_DOUBLE_EQ((*timeout)["before"].get<double>(), 0);
  // Two runs that never stopped a game: equal, with nothing to judge.
  const Json* stopped = Find(cmp, "stopped games");
  ASSERT_TRUE(stopped);
  EXPECT_TRUE((*stopped)["z"].is_null());
  EXPECT_FALSE((*stopped)["changed"].get<bool>());
}

TEST(CompareReports, UnderTwoGamesASideIsShownButNotJudged) {
  const Json cmp = CompareReports(PigReport(20, 1, 1), PigReport(20, 1, 2));
  EXPECT_EQ(cmp["changed"], 0);
  const Json* length = Find(cmp, "length (rounds)");
  ASSERT_TRUE(length);
  EXPECT_FALSE((*length)["judged"].get<bool>());
  EXPECT_NE(CompareToText(cmp, "one.json").find(" few"), std::string::npos);
}

TEST(CompareReports, EveryDataValueThatDiffersIsNamedAsSetNamesIt) {
  Json before = PigReport(20, 20), after = before;
  before["data"] = Json::parse(R"({"cards": {"cards": [{"id": "coin", "bonus": 2}, {"id": "gem", "bonus": 1}]},
                                   "rules": {"sizes": [4, 5], "name": "x"}})");
  after["data"] = Json::parse(R"({"cards": {"cards": [{"id": "gem", "bonus": 1}, {"id": "coin", "bonus": 5}, {"id": "new"}]},
                                  "rules": {"sizes": [4, 6, 7], "name": "x"}})");
  const Json cmp = CompareReports(before, after);
  std::vector<std::string> notes;
  for (const auto& n : cmp["settings"]) notes.push_back(n.get<std::string>());
  // Cards matched by id (their order changed, which is no difference), lists by index.
  EXPECT_EQ(notes, (std::vector<std::string>{"data cards.cards.coin.bonus: 2 before, 5 now",
                                             "data cards.cards.new: (absent) before, {\"id\":\"new\"} now",
                                             "data rules.sizes.1: 5 before, 6 now",
                                             "data rules.sizes.2: (absent) before, 7 now"}));
  // A baseline without data values cannot say which changed, and says so.
  before.erase("data");
  const Json old = CompareReports(before, after);
  ASSERT_EQ(old["settings"].size(), 1u);
  EXPECT_NE(old["settings"][0].get<std::string>().find("the baseline report carries no data values"), std::string::npos);
}

TEST(CompareReports, HowTheGameFeelsAndTheSeatEdgeHaveRows) {
  // A target twice as far: longer games, with more lead changes; the rows are there either way.
  const Json cmp = CompareReports(PigReport(20), PigReport(60));
  for (const char* name : {"lead changes per game", "winner leads for good from (share of the game)",
                           "drama: the winner came back", "score gap leader-second at 100%",
                           "dead turns (share of a game's decisions)", "seat P1 edge over a fair share"})
    EXPECT_TRUE(Find(cmp, name)) << name;
  EXPECT_TRUE((*Find(cmp, "lead changes per game"))["changed"].get<bool>()) << cmp.dump(1);
  EXPECT_GT((*Find(cmp, "lead changes per game"))["after"].get<double>(), (*Find(cmp, "lead changes per game"))["before"].get<double>());
}

TEST(CompareReports, ABaselineOfAnyShapeIsComparedWithoutThrowing) {
  const Json now = PigReport(20, 20);
  for (const char* text : {R"({"games": 10, "rounds": {"mean": 1}, "seats": [1, 2]})",
                           R"({"games": 10, "rounds": 3, "seats": [], "bots": [1], "params": 7, "endings": "x"})",
                           R"({"games": "many", "categories": {"a": 1}, "player_metrics": {"m": [1]}, "cards": {"c": null}})"}) {
    const Json junk = Json::parse(text);
    EXPECT_NO_THROW(CompareReports(junk, now)) << text;
    EXPECT_NO_THROW(CompareReports(now, junk)) << text;
  }
}

}  // namespace
}  // namespace plateau

// Sharded simulations (plateau simulate --shard K/N, plateau merge): the slices cover the run's
// blocks once, their raw blocks read back from JSON bit for bit, and the merge of any number of
// slices is the report of one run, on a Pig game whose own numbers are fractions (so the order
// of the sums shows), below and above the 2,048 games where blocks grow past one chunk.
#include "host/shard.h"

#include <gtest/gtest.h>

#include "tests/host/pig_game.h"

namespace plateau {
namespace {

// Pig with measures whose sums depend on the order they are added in.
class FractionPig : public testing::PigGame {
 public:
  FractionPig() : PigGame(20) {}
  Status Stats(const State& s, Json* out) override {
    Status st = PigGame::Stats(s, out);
    (*out)["counts"]["third"] = 1.0 / static_cast<double>(3 + s.seed % 7);
    for (size_t p = 0; p < (*out)["players"].size(); ++p)
      (*out)["players"][p]["luck"] = 0.1 * static_cast<double>((s.seed + p) % 10) + 1.0 / 3.0;
    return st;
  }
};

SimulationReport RunFractionPig(const SimulationSpec& spec) {
  SimulationReport report;
  const Status st = Simulate(
      [](std::unique_ptr<Rules>* out) {
        *out = std::make_unique<FractionPig>();
        return Status::Ok();
      },
      spec, &report);
  EXPECT_TRUE(st.ok()) << st.message;
  return report;
}

Json Untimed(const SimulationReport& r) {
  Json j = r.ToJson();
  j.erase("seconds");
  j.erase("games_per_second");
  return j;
}

SimulationSpec PigSpec(int games) {
  SimulationSpec spec;
  spec.games = games;
  spec.players = 3;
  spec.seed = 11;
  spec.bots = {"random", "greedy"};
  spec.rotate_seats = true;
  spec.threads = 2;
  return spec;
}

// Slice k of n, played and written as plateau simulate --shard writes it, then read back.
ShardParts Slice(SimulationSpec spec, int k, int n) {
  std::vector<SimulationReport> blocks;
  spec.shard = k;
  spec.shards = n;
  spec.blocks = &blocks;
  const SimulationReport report = RunFractionPig(spec);
  const ShardParts parts = PartsOf(report, std::move(blocks), ShardOf(spec.games, k, n).first_block);
  ShardParts back;
  const Status st = ShardPartsFromJson(Json::parse(ShardPartsToJson(parts).dump()), spec.players, "slice", &back);
  EXPECT_TRUE(st.ok()) << st.message;
  return back;
}

TEST(Shard, BlocksAreOneChunkUpTo2048GamesAndNeverMoreThan256) {
  EXPECT_EQ(BlockGames(1), 8);
  EXPECT_EQ(BlockGames(2048), 8);
  EXPECT_EQ(BlockCount(2048), 256);
  EXPECT_EQ(BlockGames(2049), 16);
  EXPECT_EQ(BlockCount(2049), 129);
  EXPECT_EQ(BlockCount(100000000), 256);
  EXPECT_EQ(BlockCount(203), 26);
}

TEST(Shard, SlicesCoverEveryGameOnceInOrder) {
  for (int games : {1, 7, 8, 203, 2048, 2049, 100000}) {
    for (int n : {1, 2, 3, 4, 7, 64, 300}) {
      int next_game = 0, next_block = 0;
      for (int k = 1; k <= n; ++k) {
        const ShardSlice s = ShardOf(games, k, n);
        EXPECT_EQ(s.first_block, next_block) << games << " games, " << k << "/" << n;
        EXPECT_EQ(s.first_game, next_game) << games << " games, " << k << "/" << n;
        EXPECT_LE(s.end_block - s.first_block, (BlockCount(games) + n - 1) / n);
        next_game = s.end_game;
        next_block = s.end_block;
      }
      EXPECT_EQ(next_game, games);
      EXPECT_EQ(next_block, BlockCount(games));
    }
  }
}

TEST(Shard, MergedSlicesAreTheRunsReport) {
  for (int games : {203, 2500}) {
    const SimulationSpec spec = PigSpec(games);
    const SimulationReport one = RunFractionPig(spec);
    ASSERT_EQ(one.games, games);
    for (int n : {1, 3, 4, 7}) {
      std::vector<ShardParts> slices;
      for (int k = 1; k <= n; ++k) slices.push_back(Slice(spec, k, n));
      SimulationReport merged;
      MergeShards(spec, slices, &merged);
      EXPECT_EQ(Untimed(merged), Untimed(one)) << games << " games in " << n << " slices";
      // Not in the JSON, but kept for plots: the same too.
      EXPECT_EQ(merged.round_counts, one.round_counts);
      EXPECT_EQ(merged.seat_score_counts, one.seat_score_counts);
    }
  }
}

// The test above can only catch a merge in the wrong order if the order shows in the sums: adding
// the slices' totals, instead of their blocks in order, gives other bits for these numbers.
TEST(Shard, TheOrderOfTheSumsShowsInThisGame) {
  const SimulationSpec spec = PigSpec(2500);
  const SimulationReport one = RunFractionPig(spec);
  SimulationReport naive;
  InitReport(spec, &naive);
  for (int k = 1; k <= 7; ++k) {
    SimulationSpec slice = spec;
    slice.shard = k;
    slice.shards = 7;
    MergeReport(RunFractionPig(slice), spec.players, &naive);
  }
  EXPECT_EQ(naive.counts.at("third").n, one.counts.at("third").n);
  EXPECT_TRUE(naive.counts.at("third").sum != one.counts.at("third").sum ||
              naive.metrics.at("luck").value.sum != one.metrics.at("luck").value.sum);
}

TEST(Shard, PartsOfAnotherShapeAreRefusedNamingWhere) {
  const SimulationSpec spec = PigSpec(40);
  std::vector<SimulationReport> blocks;
  SimulationSpec slice = spec;
  slice.shard = 1;
  slice.shards = 1;
  slice.blocks = &blocks;
  const SimulationReport report = RunFractionPig(slice);
  const Json good = ShardPartsToJson(PartsOf(report, std::move(blocks), 0));
  ShardParts out;
  // Read as a 2-player run: every block has 3 seats.
  Status st = ShardPartsFromJson(good, 2, "b.json: at /parts", &out);
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("b.json: at /parts/blocks/0: seat_totals: expected an array of 2"), std::string::npos)
      << st.message;
  Json bad = good;
  bad["blocks"][2]["seat_wins"][1] = "half";
  st = ShardPartsFromJson(bad, 3, "b.json: at /parts", &out);
  EXPECT_NE(st.message.find("b.json: at /parts/blocks/2: expected a number, got \"half\""), std::string::npos)
      << st.message;
  bad = good;
  bad.erase("picks");
  st = ShardPartsFromJson(bad, 3, "b.json: at /parts", &out);
  EXPECT_NE(st.message.find("b.json: at /parts: no 'picks'"), std::string::npos) << st.message;
}

}  // namespace
}  // namespace plateau

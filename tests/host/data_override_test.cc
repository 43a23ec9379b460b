// `--set <data>.<path>=<value>`: overriding one data value for a run, addressed by key,
// index (from 0) or element id, and refused with the schema's error when it breaks the data.
#include <gtest/gtest.h>

#include "host/loader.h"

namespace plateau {
namespace {

GameFiles Savane() {
  GameFiles files;
  const Status st = LoadGameFiles("ecosysteme-savane", &files);
  EXPECT_TRUE(st.ok()) << st.message;
  return files;
}

TEST(DataOverride, ById) {
  GameFiles files = Savane();
  ASSERT_TRUE(ApplyDataOverrides({{"cards.cards.gazelle.count", 7}}, &files).ok());
  EXPECT_EQ(files.data["cards"]["cards"][3]["id"], "gazelle");
  EXPECT_EQ(files.data["cards"]["cards"][3]["count"], 7);
}

// Indices count from 0, as the JSON Pointers of schema errors do: the value an error names at
// /cards/3/count is --set cards.cards.3.count.
TEST(DataOverride, ByIndexFromZeroAsInJsonPointers) {
  GameFiles files = Savane();
  ASSERT_TRUE(ApplyDataOverrides({{"cards.cards.0.count", 3}}, &files).ok());
  EXPECT_EQ(files.data["cards"]["cards"][0]["count"], 3);
  ASSERT_TRUE(ApplyDataOverrides({{"cards.cards.3.count", 4}}, &files).ok());
  EXPECT_EQ(files.data["cards"]["cards"][3]["count"], 4);
  const size_t n = files.data["cards"]["cards"].size();
  const Status st = ApplyDataOverrides({{"cards.cards." + std::to_string(n) + ".count", 3}}, &files);
  EXPECT_NE(st.message.find("out of range (indices start at 0, as in the JSON Pointers of error messages)"),
            std::string::npos)
      << st.message;
}

TEST(DataOverride, UnknownNamesListWhatExists) {
  GameFiles files = Savane();
  Status st = ApplyDataOverrides({{"cardz.x", 1}}, &files);
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("no data file named 'cardz' (data files: cards"), std::string::npos) << st.message;
  st = ApplyDataOverrides({{"cards.cards.gazele.count", 1}}, &files);
  EXPECT_NE(st.message.find("no element with id 'gazele' in cards.cards (ids: waterhole"), std::string::npos) << st.message;
  st = ApplyDataOverrides({{"cards.cards.gazelle.cont", 1}}, &files);
  EXPECT_NE(st.message.find("no 'cont' in cards.cards.gazelle (keys: "), std::string::npos) << st.message;
  st = ApplyDataOverrides({{"cards.cards.gazelle.id", "antelope"}}, &files);
  EXPECT_NE(st.message.find("cannot be overridden"), std::string::npos) << st.message;
}

TEST(DataOverride, AValueTheSchemaRefusesIsRefusedWithItsError) {
  GameFiles files = Savane();
  const Status st = ApplyDataOverrides({{"cards.cards.gazelle.count", -3}}, &files);
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("--set made the data invalid: games/ecosysteme-savane/data/cards.json: at /cards/3/count "
                            "(card 'gazelle'): expected at least 0, got -3"),
            std::string::npos)
      << st.message;
}

// Schema errors read once: one line per problem (not valijson's chain of "Failed to validate"
// lines above it), what the schema expects and what the file has, the card's id.
TEST(DataOverride, SchemaErrorsOneLinePerProblem) {
  GameFiles files = Savane();
  const Status st = ApplyDataOverrides({{"cards.cards.lion.count", "4"}}, &files);
  EXPECT_EQ(st.message,
            "--set made the data invalid: games/ecosysteme-savane/data/cards.json: at /cards/" +
                std::to_string([&] {
                  size_t i = 0;
                  while (files.data["cards"]["cards"][i]["id"] != "lion") ++i;
                  return i;
                }()) +
                "/count (card 'lion'): expected integer, got string \"4\"");
}

}  // namespace
}  // namespace plateau

// `--set <data>.<path>=<value>`: overriding one data value for a run, addressed by key,
// 1-based index or element id, and refused with the schema's error when it breaks the data.
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

TEST(DataOverride, ByOneBasedIndex) {
  GameFiles files = Savane();
  ASSERT_TRUE(ApplyDataOverrides({{"cards.cards.1.count", 3}}, &files).ok());
  EXPECT_EQ(files.data["cards"]["cards"][0]["count"], 3);
  const Status st = ApplyDataOverrides({{"cards.cards.0.count", 3}}, &files);
  EXPECT_NE(st.message.find("out of range (indices start at 1)"), std::string::npos) << st.message;
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
  EXPECT_NE(st.message.find("--set made the data invalid: games/ecosysteme-savane/data/cards.json: at /cards/3/count"),
            std::string::npos)
      << st.message;
}

}  // namespace
}  // namespace plateau

// Host JSON reading under limits: depth, string, document and container caps, and error positions.
#include "host/json_io.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

namespace plateau {
namespace {

bool Parse(const std::string& text, std::string* error, const JsonLimits& limits = {}) {
  Json out;
  return ParseJsonLimited(text, "games/x/game.json", &out, error, limits);
}

std::string NestedArrays(int depth, const std::string& inner = "") {
  return std::string(static_cast<size_t>(depth), '[') + inner + std::string(static_cast<size_t>(depth), ']');
}

std::string NestedObjects(int depth) {
  std::string s;
  for (int i = 0; i < depth; ++i) s += "{\"a\":";
  s += "1";
  s += std::string(static_cast<size_t>(depth), '}');
  return s;
}

TEST(JsonIo, ParsesOrdinaryDocuments) {
  Json out;
  std::string error;
  ASSERT_TRUE(ParseJsonLimited(R"({"id": "x", "list": [1, 2.5, true, null], "s": "é"})", "f.json", &out, &error))
      << error;
  EXPECT_EQ(out["id"], "x");
  EXPECT_EQ(out["list"].size(), 4u);
  EXPECT_EQ(out["s"], "é");
}

TEST(JsonIo, AcceptsNestingOfExactly64) {
  std::string error;
  EXPECT_TRUE(Parse(NestedArrays(64), &error)) << error;
  EXPECT_TRUE(Parse(NestedArrays(64, "1"), &error)) << error;
  EXPECT_TRUE(Parse(NestedObjects(64), &error)) << error;
}

TEST(JsonIo, RefusesNestingDeeperThan64) {
  for (const std::string& text : {NestedArrays(65), NestedArrays(65, "1"), NestedObjects(65), NestedArrays(100)}) {
    std::string error;
    EXPECT_FALSE(Parse(text, &error)) << "a document " << text.size() / 2 << " deep was accepted";
    EXPECT_NE(error.find("games/x/game.json: refused: nesting deeper than 64"), std::string::npos) << error;
  }
}

TEST(JsonIo, RefusesAMillionOpeningBracketsWithoutRecursing) {
  std::string error;
  EXPECT_FALSE(Parse(std::string(1'000'000, '['), &error));
  EXPECT_NE(error.find("nesting"), std::string::npos) << error;
}

TEST(JsonIo, RefusesStringsLongerThan64KiB) {
  std::string error;
  const std::string ok(64u << 10, 'x'), long_one((64u << 10) + 1, 'x');
  EXPECT_TRUE(Parse("[\"" + ok + "\"]", &error)) << error;
  EXPECT_FALSE(Parse("[\"" + long_one + "\"]", &error));
  EXPECT_NE(error.find("refused: a string longer than 65536 bytes"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(Parse("\"" + long_one + "\"", &error));  // a bare top-level string too
  EXPECT_FALSE(error.empty());
  error.clear();
  EXPECT_FALSE(Parse("{\"" + long_one + "\": 1}", &error));  // and object keys
  EXPECT_NE(error.find("string longer"), std::string::npos) << error;
}

TEST(JsonIo, RefusesDocumentsOver8MiBBeforeParsing) {
  const size_t limit = 8u << 20;
  std::string text = "0" + std::string(limit - 1, ' ');
  std::string error;
  EXPECT_TRUE(Parse(text, &error)) << error;
  text += " ";
  EXPECT_FALSE(Parse(text, &error));
  EXPECT_NE(error.find("games/x/game.json: 8388609 bytes is over the 8388608-byte limit"), std::string::npos)
      << error;
}

std::string ArrayOf(int n, const std::string& item) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? "," : "") + item;
  return s + "]";
}

std::string ObjectOf(int n) {
  std::string s = "{";
  for (int i = 0; i < n; ++i) s += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  return s + "}";
}

TEST(JsonIo, RefusesContainersWithMoreThan100000Entries) {
  std::string error;
  EXPECT_TRUE(Parse(ArrayOf(100000, "0"), &error)) << error;
  EXPECT_FALSE(Parse(ArrayOf(100001, "0"), &error));
  EXPECT_NE(error.find("more than 100000 entries"), std::string::npos) << error;
}

TEST(JsonIo, NestedContainersCountAsEntriesOfTheirParent) {
  std::string error;
  EXPECT_TRUE(Parse(ArrayOf(100000, "[]"), &error)) << error;
  EXPECT_FALSE(Parse(ArrayOf(100001, "[]"), &error));
  EXPECT_NE(error.find("entries"), std::string::npos) << error;
  EXPECT_FALSE(Parse(ArrayOf(100001, "{}"), &error));
}

TEST(JsonIo, ParsesLargeArraysOfObjects) {
  Json out;
  std::string error;
  ASSERT_TRUE(ParseJsonLimited(ArrayOf(100000, "{\"id\":1}"), "cards.json", &out, &error)) << error;
  ASSERT_EQ(out.size(), 100000u);
  EXPECT_EQ(out[99999]["id"], 1);
}

TEST(JsonIo, ObjectMembersCountOnceEach) {
  std::string error;
  EXPECT_TRUE(Parse(ObjectOf(100000), &error)) << error;  // a key and its value are one entry
  EXPECT_FALSE(Parse(ObjectOf(100001), &error));
  EXPECT_NE(error.find("entries"), std::string::npos) << error;
}

TEST(JsonIo, HonoursCustomLimits) {
  const JsonLimits tight{100, 3, 10, 5};
  std::string error;
  EXPECT_TRUE(Parse("[[[1]]]", &error, tight)) << error;
  EXPECT_FALSE(Parse("[[[[1]]]]", &error, tight));
  EXPECT_TRUE(Parse("[\"0123456789\"]", &error, tight)) << error;
  EXPECT_FALSE(Parse("[\"0123456789A\"]", &error, tight));
  EXPECT_TRUE(Parse("[1,2,3,4,5]", &error, tight)) << error;
  EXPECT_FALSE(Parse("[1,2,3,4,5,6]", &error, tight));
  EXPECT_FALSE(Parse("[" + std::string(100, ' ') + "]", &error, tight));
}

TEST(JsonIo, BadJsonErrorNamesFileLineAndColumn) {
  std::string error;
  EXPECT_FALSE(Parse("{\n  \"a\": 1,\n  \"b\": }", &error));
  EXPECT_EQ(error.rfind("games/x/game.json:3:8: invalid JSON: ", 0), 0u) << error;
  EXPECT_NE(error.find("syntax error"), std::string::npos) << error;

  EXPECT_FALSE(Parse("[1,2] x", &error));
  EXPECT_EQ(error.rfind("games/x/game.json:1:7: invalid JSON", 0), 0u) << error;

  EXPECT_FALSE(Parse("", &error));
  EXPECT_EQ(error.rfind("games/x/game.json:1:1: invalid JSON", 0), 0u) << error;

  EXPECT_FALSE(Parse("{\"a\": 1,}", &error));
  EXPECT_EQ(error.rfind("games/x/game.json:1:", 0), 0u) << error;
}

TEST(JsonIo, CommentsAreNotJson) {
  std::string error;
  EXPECT_FALSE(Parse("// note\n{}", &error));
  EXPECT_EQ(error.rfind("games/x/game.json:1:", 0), 0u) << error;
}

class JsonFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "plateau_json_io_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::string dir_;
};

TEST_F(JsonFiles, ReadJsonFileParsesAFile) {
  const std::string path = Write("ok.json", R"({"cards": [1, 2]})");
  Json out;
  std::string error;
  ASSERT_TRUE(ReadJsonFile(path, "games/g/ok.json", &out, &error)) << error;
  EXPECT_EQ(out["cards"].size(), 2u);
}

TEST_F(JsonFiles, ReadJsonFileErrorsUseTheDisplayName) {
  Json out;
  std::string error;
  EXPECT_FALSE(ReadJsonFile(dir_ + "/missing.json", "games/g/missing.json", &out, &error));
  EXPECT_EQ(error, "games/g/missing.json: cannot open file (No such file or directory)");

  const std::string bad = Write("bad.json", "{\n\n  oops\n}");
  EXPECT_FALSE(ReadJsonFile(bad, "games/g/bad.json", &out, &error));
  EXPECT_EQ(error.rfind("games/g/bad.json:3:3: invalid JSON", 0), 0u) << error;

  const std::string big = Write("big.json", "[" + std::string(200, ' ') + "]");
  EXPECT_FALSE(ReadJsonFile(big, "games/g/big.json", &out, &error, JsonLimits{100, 64, 100, 100}));
  EXPECT_EQ(error.rfind("games/g/big.json: 202 bytes is over the 100-byte limit", 0), 0u) << error;
}

TEST_F(JsonFiles, ReadTextFileReadsExactBytesUnderALimit) {
  const std::string text("a\0b\nc", 5);
  const std::string path = Write("t.bin", text);
  std::string out, error;
  ASSERT_TRUE(ReadTextFile(path, 5, &out, &error)) << error;
  EXPECT_EQ(out, text);
  EXPECT_FALSE(ReadTextFile(path, 4, &out, &error));
  EXPECT_NE(error.find("over the 4-byte limit"), std::string::npos) << error;
}

TEST_F(JsonFiles, AFifoOrADirectoryIsRefusedNotWaitedOn) {
  const std::string fifo = dir_ + "/cards.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  Json out;
  std::string error;
  EXPECT_FALSE(ReadJsonFile(fifo, "games/g/cards.json", &out, &error));  // returns: no writer is awaited
  EXPECT_EQ(error, "games/g/cards.json: not a regular file");
  ASSERT_EQ(mkdir((dir_ + "/lib.lua").c_str(), 0700), 0);
  std::string text;
  EXPECT_FALSE(ReadTextFile(dir_ + "/lib.lua", 1000, &text, &error));
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
}

TEST(JsonLimits, ANumberNoDoubleHoldsIsAnErrorNamingTheFile) {
  Json out;
  std::string error;
  EXPECT_FALSE(ParseJsonLimited(R"({"count": 1e400})", "games/g/data/cards.json", &out, &error));
  EXPECT_EQ(error.rfind("games/g/data/cards.json: invalid JSON: a number is out of range", 0), 0u) << error;
}

TEST(Utf8, ValidTextPassesAndBadBytesAreFoundAndReplaced) {
  EXPECT_TRUE(IsValidUtf8("caf\xc3\xa9 \xf0\x9f\x90\x9b", 10));
  size_t bad = 99;
  EXPECT_FALSE(IsValidUtf8("caf\xe9", 4, &bad));
  EXPECT_EQ(bad, 3u);
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf", 2));          // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80", 3));      // a surrogate
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80", 4));  // past U+10FFFF
  EXPECT_EQ(SanitizeUtf8("caf\xe9!"), "caf?!");
  EXPECT_EQ(SanitizeUtf8("caf\xc3\xa9"), "caf\xc3\xa9");
  // The last line of defence: a string that got in anyway is written, not thrown.
  Json j = {{"name", std::string("caf\xe9")}};
  EXPECT_EQ(DumpJson(j), "{\"name\":\"caf\xef\xbf\xbd\"}");
}

}  // namespace
}  // namespace plateau

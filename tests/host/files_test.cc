// The one reader of a game's files and the one writer of the user's outputs (host/files.h), and
// the text rules of host/text.h: links, FIFOs, deep folders and other kinds of file refused by
// name, outputs that never replace another kind of file, nothing deleted that was not made here.
#include "host/files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "host/text.h"

namespace plateau {
namespace {

namespace fs = std::filesystem;

class Files : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/plateau-files-XXXXXX";
    dir_ = mkdtemp(tmpl);
    game_ = dir_ + "/game";
    fs::create_directories(game_ + "/data");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Write(const std::string& rel, const std::string& text) { std::ofstream(dir_ + "/" + rel, std::ios::binary) << text; }
  std::string Read(const std::string& rel) {
    std::ifstream f(dir_ + "/" + rel, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
  }
  std::string dir_, game_;
};

TEST_F(Files, AGameFileIsReadWhole) {
  Write("game/data/cards.json", "{\"cards\": []}");
  std::string text, error;
  ASSERT_TRUE(ReadGameFile(game_, "games/g", "data/cards.json", 1000, &text, &error)) << error;
  EXPECT_EQ(text, "{\"cards\": []}");
}

TEST_F(Files, ALinkAnywhereBelowTheFolderIsRefusedByName) {
  Write("outside.lua", "return 'secret'");
  Write("game/inside.lua", "return 1");
  ASSERT_EQ(symlink((dir_ + "/outside.lua").c_str(), (game_ + "/secret.lua").c_str()), 0);
  ASSERT_EQ(symlink("inside.lua", (game_ + "/alias.lua").c_str()), 0);  // even one that stays inside
  ASSERT_EQ(symlink(dir_.c_str(), (game_ + "/up").c_str()), 0);
  std::string text, error;
  ReadFailure why;
  EXPECT_FALSE(ReadGameFile(game_, "games/g", "secret.lua", 1000, &text, &error, &why));
  EXPECT_EQ(error, "games/g/secret.lua: refused: a symbolic link (a game's files are read only as regular files inside its folder)");
  EXPECT_EQ(why, ReadFailure::kRefused);
  EXPECT_FALSE(ReadGameFile(game_, "games/g", "alias.lua", 1000, &text, &error));
  EXPECT_FALSE(ReadGameFile(game_, "games/g", "up/outside.lua", 1000, &text, &error));
  EXPECT_NE(error.find("games/g/up/outside.lua: "), std::string::npos) << error;
  EXPECT_TRUE(ReadGameFile(game_, "games/g", "inside.lua", 1000, &text, &error)) << error;
}

TEST_F(Files, PathsThatLeaveTheFolderAreRefusedBeforeAnyOpen) {
  Write("x.lua", "");
  std::string text, error;
  for (const char* rel : {"../x.lua", "/etc/hostname", "data/../../x.lua", "./x.lua", "", "data//x"}) {
    EXPECT_FALSE(ReadGameFile(game_, "games/g", rel, 1000, &text, &error)) << rel;
    EXPECT_NE(error.find("refused: a game's files are named by plain paths"), std::string::npos) << error;
  }
}

TEST_F(Files, AFifoADeviceOrAFolderIsRefusedAndNeverWaitedOn) {
  ASSERT_EQ(mkfifo((game_ + "/pipe.lua").c_str(), 0600), 0);
  std::string text, error;
  EXPECT_FALSE(ReadGameFile(game_, "games/g", "pipe.lua", 1000, &text, &error));  // returns: no writer awaited
  EXPECT_EQ(error, "games/g/pipe.lua: refused: not a regular file (a FIFO)");
  EXPECT_FALSE(ReadGameFile(game_, "games/g", "data", 1000, &text, &error));
  EXPECT_EQ(error, "games/g/data: refused: not a regular file (a folder)");
  ReadFailure why;
  EXPECT_FALSE(ReadGameFile(game_, "games/g", "data/none.json", 1000, &text, &error, &why));
  EXPECT_EQ(why, ReadFailure::kMissing);
  EXPECT_EQ(error, "games/g/data/none.json: no such file");
}

TEST_F(Files, AFileOverItsCapIsRefusedWithItsSize) {
  Write("game/big.lua", std::string(101, 'x'));
  std::string text, error;
  EXPECT_FALSE(ReadGameFile(game_, "games/g", "big.lua", 100, &text, &error));
  EXPECT_EQ(error, "games/g/big.lua: 101 bytes is over the 100-byte limit");
}

TEST_F(Files, ListingNamesLinksAndFifosAndStopsAtItsDepth) {
  Write("game/rules.lua", "");
  Write("game/data/cards.json", "");
  ASSERT_EQ(symlink("/etc", (game_ + "/etc").c_str()), 0);
  ASSERT_EQ(mkfifo((game_ + "/data/pipe.json").c_str(), 0600), 0);
  std::string deep = game_;
  for (int i = 0; i < 12; ++i) deep += "/d";
  fs::create_directories(deep);
  std::vector<FolderEntry> entries;
  ASSERT_TRUE(ListGameFiles(game_, "games/g", ListOptions{}, &entries).ok());
  std::map<std::string, std::string> got;
  for (const auto& e : entries) got[e.rel] = e.regular ? "regular" : e.refused;
  EXPECT_EQ(got["rules.lua"], "regular");
  EXPECT_EQ(got["data/cards.json"], "regular");
  EXPECT_EQ(got["etc"], "a symbolic link");
  EXPECT_EQ(got["data/pipe.json"], "a FIFO");
  EXPECT_EQ(got["d/d/d/d/d/d/d/d/d"], "a folder nested deeper than 8 levels");
}

TEST_F(Files, AFolderWithTooManyEntriesIsRefusedNotWalked) {
  fs::create_directories(game_ + "/many");
  for (int i = 0; i < 20001; ++i) std::ofstream(game_ + "/many/" + std::to_string(i));
  std::vector<FolderEntry> entries;
  const Status st = ListGameFiles(game_, "games/g", ListOptions{}, &entries);
  EXPECT_EQ(st.message, "games/g: refused: more than 20000 entries in the folder and its subfolders");
}

TEST_F(Files, AFileNameWithAControlCharacterIsRefusedShownEscaped) {
  Write("game/a\nb.lua", "");
  std::vector<FolderEntry> entries;
  const Status st = ListGameFiles(game_, "games/g", ListOptions{}, &entries);
  EXPECT_EQ(st.message, "games/g/a\\nb.lua: refused: a file name must be UTF-8 text without control characters");
}

TEST_F(Files, ACopyHoldsRegularFilesOnlyAndLeavesNothingWhenRefused) {
  Write("game/rules.lua", "-- {{name}}");
  Write("game/.hidden.json", "{}");
  std::string error;
  ASSERT_TRUE(CopyGameFolder(game_, "games/g", "", dir_ + "/copy", [](const std::string&, std::string* t) {
                *t += "!";
                return Status::Ok();
              }).ok());
  EXPECT_EQ(Read("copy/rules.lua"), "-- {{name}}!");
  EXPECT_EQ(Read("copy/.hidden.json"), "{}!");
  ASSERT_EQ(symlink("/etc/passwd", (game_ + "/data/passwd.json").c_str()), 0);
  const Status st = CopyGameFolder(game_, "games/g", "", dir_ + "/copy2");
  EXPECT_EQ(st.message, "games/g/data/passwd.json: refused: a symbolic link (a game folder is copied only when it holds regular files)");
  EXPECT_FALSE(fs::exists(dir_ + "/copy2"));
}

TEST_F(Files, ASubfolderThatIsALinkIsNotCopied) {
  fs::create_directories(dir_ + "/elsewhere");
  Write("elsewhere/x.lua", "");
  ASSERT_EQ(symlink((dir_ + "/elsewhere").c_str(), (game_ + "/template").c_str()), 0);
  const Status st = CopyGameFolder(game_, "games/g", "template", dir_ + "/copy");
  EXPECT_NE(st.message.find("games/g/template: refused: a symbolic link"), std::string::npos) << st.message;
}

// ---- the writer -----------------------------------------------------------------------------

OutputFile Out(const std::string& path, OutputKind kind, bool force = false) {
  OutputFile f;
  f.path = path;
  f.kind = kind;
  f.force = force;
  f.option = "--out";
  return f;
}

TEST_F(Files, AnOutputReplacesOnlyItsOwnKindUnlessForced) {
  Write("rules.lua", "return {}");
  const std::string csv = "a,b\n1,2\n";
  Status st = WriteOutputFile(Out(dir_ + "/rules.lua", OutputKind::kCsv), csv);
  EXPECT_EQ(st.message, "--out " + dir_ + "/rules.lua: refusing to replace a file that is not a CSV table (it holds something else; --force replaces it)");
  EXPECT_EQ(Read("rules.lua"), "return {}");
  ASSERT_TRUE(WriteOutputFile(Out(dir_ + "/t.csv", OutputKind::kCsv), csv).ok());
  ASSERT_TRUE(WriteOutputFile(Out(dir_ + "/t.csv", OutputKind::kCsv), "x,y\n").ok());  // a CSV replaces a CSV
  EXPECT_EQ(Read("t.csv"), "x,y\n");
  ASSERT_TRUE(WriteOutputFile(Out(dir_ + "/rules.lua", OutputKind::kCsv, true), csv).ok());
  EXPECT_EQ(Read("rules.lua"), csv);
}

TEST_F(Files, EachKindRecognisesItsOwnOutputs) {
  EXPECT_TRUE(LooksLikeOutput(OutputKind::kSave, R"({"format": 1, "seed": 3, "flow": {}, "seats": []})"));
  EXPECT_FALSE(LooksLikeOutput(OutputKind::kSave, R"({"id": "g", "name": {}})"));  // a manifest
  EXPECT_TRUE(LooksLikeOutput(OutputKind::kOverlay, R"({"values": {}})"));
  EXPECT_TRUE(LooksLikeOutput(OutputKind::kJUnit, "<?xml version=\"1.0\"?>\n<testsuites>"));
  EXPECT_FALSE(LooksLikeOutput(OutputKind::kCsv, "local x = f(a, b)\nreturn x\n"));
  EXPECT_TRUE(LooksLikeOutput(OutputKind::kCsv, "value,\"a, b\"\n1,2\n"));
  EXPECT_TRUE(LooksLikeOutput(OutputKind::kTranscript, "# plateau playthrough, format 1\n"));
  EXPECT_FALSE(LooksLikeOutput(OutputKind::kPdf, "hello"));
}

TEST_F(Files, AFifoOrAFolderIsNeverAnOutputAndNothingBlocks) {
  ASSERT_EQ(mkfifo((dir_ + "/out.csv").c_str(), 0600), 0);
  Status st = WriteOutputFile(Out(dir_ + "/out.csv", OutputKind::kCsv, true), "a,b\n");
  EXPECT_NE(st.message.find("refused: it is a FIFO; an output is only ever written as a regular file"), std::string::npos) << st.message;
  st = WriteOutputFile(Out(dir_, OutputKind::kCsv, true), "a,b\n");
  EXPECT_NE(st.message.find("refused: it is a folder"), std::string::npos) << st.message;
  st = WriteOutputFile(Out(dir_ + "/no/such/x.csv", OutputKind::kCsv), "a,b\n");
  EXPECT_NE(st.message.find("the folder " + dir_ + "/no/such does not exist"), std::string::npos) << st.message;
}

TEST_F(Files, ALinkAsTheOutputIsReplacedAndItsTargetKept) {
  Write("rules.lua", "return {}");
  ASSERT_EQ(symlink((dir_ + "/rules.lua").c_str(), (dir_ + "/out.csv").c_str()), 0);
  // The link points at something that is not a CSV: refused; forced, the link is replaced.
  EXPECT_FALSE(WriteOutputFile(Out(dir_ + "/out.csv", OutputKind::kCsv), "a,b\n").ok());
  ASSERT_TRUE(WriteOutputFile(Out(dir_ + "/out.csv", OutputKind::kCsv, true), "a,b\n").ok());
  EXPECT_EQ(Read("rules.lua"), "return {}");
  EXPECT_EQ(Read("out.csv"), "a,b\n");
}

TEST_F(Files, NoTemporaryFileIsLeftAndNoneIsReused) {
  Write(".t.csv.tmp", "keep me");
  ASSERT_TRUE(WriteOutputFile(Out(dir_ + "/t.csv", OutputKind::kCsv), "a,b\n").ok());
  EXPECT_EQ(Read(".t.csv.tmp"), "keep me");
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir_)) files += e.is_regular_file();
  EXPECT_EQ(files, 2);
}

TEST_F(Files, AWriteInsideAGameFolderNeverFollowsALink) {
  fs::create_directories(dir_ + "/elsewhere");
  ASSERT_EQ(symlink((dir_ + "/elsewhere").c_str(), (game_ + "/tests").c_str()), 0);
  OutputFile f = Out("tests/playthroughs/seed-1.txt", OutputKind::kTranscript);
  f.inside = game_;
  f.inside_display = "games/g";
  Status st = MakeOutputFolder("tests/playthroughs", "", game_, "games/g");
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("a symbolic link"), std::string::npos) << st.message;
  EXPECT_FALSE(WriteOutputFile(f, "# plateau playthrough\n").ok());
  EXPECT_TRUE(fs::is_empty(dir_ + "/elsewhere"));
}

TEST_F(Files, AStagingFolderIsRemovedUnlessCommittedAndNeverReplacesAnything) {
  fs::create_directories(dir_ + "/mine.new-tmp");
  Write("mine.new-tmp/keep.txt", "mine");
  std::string path;
  {
    StagingFolder s;
    ASSERT_TRUE(s.Create(dir_ + "/mine", "").ok());
    path = s.path();
    Write(path.substr(dir_.size() + 1) + "/x", "x");
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(Read("mine.new-tmp/keep.txt"), "mine");  // not made by this run: untouched
  StagingFolder s;
  ASSERT_TRUE(s.Create(dir_ + "/mine", "").ok());
  ASSERT_TRUE(s.Commit().ok());
  EXPECT_TRUE(fs::is_directory(dir_ + "/mine"));
  StagingFolder again;
  EXPECT_NE(again.Create(dir_ + "/mine", "--dir").message.find("already exists"), std::string::npos);
}

// ---- text ------------------------------------------------------------------------------------

TEST(Text, TheTerminalGetsNoEscapeSequence) {
  EXPECT_EQ(TerminalText("a\x1b[31mred\x07"), "a\\x1B[31mred\\x07");
  EXPECT_EQ(TerminalText("two\nlines"), "two\\nlines");
  EXPECT_EQ(TerminalText("two\nlines", true), "two\nlines");
  EXPECT_EQ(TerminalText("caf\xc3\xa9 \xff"), "caf\xc3\xa9 \\xFF");
  EXPECT_EQ(TerminalText("\xc2\x9b" "31m"), "\\u009B31m");  // the 8-bit CSI
}

TEST(Text, XmlHoldsAnyBytesAsValidText) {
  EXPECT_EQ(XmlText("a<b & \"c\" \x01 \xff"), "a&lt;b &amp; &quot;c&quot; \xEF\xBF\xBD \xEF\xBF\xBD");
}

TEST(Text, CsvFieldsStayFieldsAndFormulasStayText) {
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\"\r\n"), "\"say \"\"hi\"\"\r\n\"");
  EXPECT_EQ(CsvField("-3"), "-3");
  EXPECT_EQ(CsvField("=HYPERLINK(1)"), "'=HYPERLINK(1)");
  EXPECT_EQ(CsvField("-cmd"), "'-cmd");
}

TEST(Text, LuaStringBodiesCannotEndTheirString) {
  EXPECT_EQ(LuaStringBody("a\"b'c\\\n]]"), "a\\\"b\\'c\\\\\\010]]");
}

TEST(Text, IntegersAreRangeCheckedNeverNarrowed) {
  int64_t v = 0;
  std::string error;
  EXPECT_TRUE(ParseInt("-12", -100, 100, "x", &v, &error));
  EXPECT_EQ(v, -12);
  EXPECT_FALSE(ParseInt("4294967296", 1, 16, "--players", &v, &error));
  EXPECT_EQ(error, "--players: 4294967296 is outside 1..16");
  EXPECT_FALSE(ParseInt("99999999999999999999999", INT64_MIN, INT64_MAX, "n", &v, &error));
  EXPECT_FALSE(ParseInt("1e3", 0, 10000, "n", &v, &error));
  EXPECT_FALSE(ParseInt(" 3", 0, 10, "n", &v, &error));
  EXPECT_TRUE(ParseInt("-9223372036854775808", INT64_MIN, INT64_MAX, "n", &v, &error));
  EXPECT_EQ(v, INT64_MIN);
}

}  // namespace
}  // namespace plateau

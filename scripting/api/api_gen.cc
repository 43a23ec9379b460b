// plateau-api-gen: writes what is generated from the Lua API spec (scripting/api/lua_api.json):
// the reference section of scripting/README.md, the LuaLS stubs scripting/api/stubs/plateau.lua
// and the luacheck globals scripting/api/luacheckrc.
//   plateau-api-gen --out DIR   check the spec and write the three files into DIR (the build
//                               runs this: a spec entry without a type or a doc fails the build)
//   plateau-api-gen --check     exit 1 when a checked-in file differs from what the spec gives
//                               (ctest api.generated_up_to_date), naming the file and the command
//   plateau-api-gen --write     update the checked-in files from the spec
// --source ROOT picks the tree (default: the source tree this binary was built from).
// Exit codes: 0 ok, 1 a generated file is out of date, 2 the spec (or a file) is bad.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "host/json_io.h"
#include "scripting/api/api_spec.h"

namespace {

namespace fs = std::filesystem;
using namespace plateau;

int Usage() {
  std::fprintf(stderr, "usage: plateau-api-gen [--source ROOT] (--out DIR | --check | --write)\n");
  return 2;
}

bool Write(const std::string& path, const std::string& text) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  std::ofstream out(path, std::ios::binary);
  return static_cast<bool>(out << text);
}

std::string FirstDifference(const std::string& want, const std::string& have) {
  size_t line = 1, i = 0;
  for (; i < want.size() && i < have.size() && want[i] == have[i]; ++i) line += want[i] == '\n';
  return "first difference at line " + std::to_string(line);
}

}  // namespace

int main(int argc, char** argv) {
  std::string root = PLATEAU_SOURCE_DIR_STR, out_dir, mode;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--source" && i + 1 < argc) root = argv[++i];
    else if (a == "--out" && i + 1 < argc) { mode = "out"; out_dir = argv[++i]; }
    else if (a == "--check") mode = "check";
    else if (a == "--write") mode = "write";
    else return Usage();
  }
  if (mode.empty()) return Usage();
  api::Spec spec;
  std::vector<std::string> errors;
  if (!api::LoadSpec(root, &spec, &errors)) {
    for (const std::string& e : errors) std::fprintf(stderr, "plateau-api-gen: %s\n", e.c_str());
    std::fprintf(stderr, "plateau-api-gen: %zu problem%s in the Lua API spec (schemas/lua_api.schema.json says what an entry needs)\n",
                 errors.size(), errors.size() == 1 ? "" : "s");
    return 2;
  }
  const std::string reference = api::RenderReference(spec), stubs = api::RenderStubs(spec),
                    luacheck = api::RenderLuacheck(spec);
  const std::string readme_path = root + "/scripting/README.md";
  std::string readme, error, spliced;
  if (!ReadTextFile(readme_path, 8u << 20, &readme, &error) || !api::SpliceReference(readme, reference, &spliced, &error)) {
    std::fprintf(stderr, "plateau-api-gen: %s\n", error.c_str());
    return 2;
  }
  struct Output {
    const char* rel;  // the checked-in file
    const char* name;  // its name in --out DIR
    std::string text;
  };
  const Output outputs[] = {{"scripting/README.md", "README.md", spliced},
                            {"scripting/api/stubs/plateau.lua", "plateau.lua", stubs},
                            {"scripting/api/luacheckrc", "luacheckrc", luacheck}};
  if (mode == "out") {
    for (const Output& o : outputs)
      if (!Write(out_dir + "/" + o.name, o.text)) {
        std::fprintf(stderr, "plateau-api-gen: cannot write %s/%s\n", out_dir.c_str(), o.name);
        return 2;
      }
    return 0;
  }
  int stale = 0;
  for (const Output& o : outputs) {
    const std::string path = root + "/" + o.rel;
    std::string have;
    ReadTextFile(path, 8u << 20, &have, &error);  // a missing file reads as empty: out of date
    if (have == o.text) continue;
    if (mode == "write") {
      if (!Write(path, o.text)) {
        std::fprintf(stderr, "plateau-api-gen: cannot write %s\n", path.c_str());
        return 2;
      }
      std::printf("wrote %s\n", o.rel);
      continue;
    }
    std::fprintf(stderr, "plateau-api-gen: %s is not what scripting/api/lua_api.json generates (%s)\n", o.rel,
                 FirstDifference(o.text, have).c_str());
    ++stale;
  }
  if (stale) {
    std::fprintf(stderr, "plateau-api-gen: regenerate with: %s --write (then commit the files it names)\n", argv[0]);
    return 1;
  }
  if (mode == "check") std::printf("the API reference, stubs and luacheck globals match scripting/api/lua_api.json\n");
  return 0;
}

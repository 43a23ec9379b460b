// plateau studio's page files (designer/studio/: index.html, studio.js, studio.css) as built
// into the binary: studio_files.cc is generated at build time by designer/studio/embed.cmake.
#pragma once

#include <cstddef>

namespace plateau {

struct EmbeddedFile {
  const char* name;  // the file's name under designer/studio/
  const char* data;
  size_t size;
};

extern const EmbeddedFile kStudioFiles[];
extern const size_t kStudioFileCount;

}  // namespace plateau

# plateau studio's page files (designer/studio/page/*) built into the plateau binary, so that it
# serves the page without the source tree (`plateau studio --dev` reads them from disk instead).
#
# Included from designer/CMakeLists.txt, this file adds a build step that writes
# <build>/designer/studio/files.cc from the page's files whenever one of them changes; run as a
# script (cmake -DOUT=... -DDIR=... -DNAMES=a;b -P studio_embed.cmake) it writes that file: one
# byte array per file and the table kStudioFiles (designer/studio/files.h). No tool but CMake.

if(CMAKE_SCRIPT_MODE_FILE)
  set(text "// Generated at build time by designer/studio/embed.cmake from ${DIR}: do not edit.\n")
  string(APPEND text "#include \"designer/studio/files.h\"\n\nnamespace plateau {\nnamespace {\n\n")
  set(table "")
  set(k 0)
  foreach(name IN LISTS NAMES)
    file(READ "${DIR}/${name}" hex HEX)
    string(LENGTH "${hex}" digits)
    math(EXPR size "${digits} / 2")
    # 0xNN, per byte; a line break every 32 bytes keeps the generated file readable.
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
    string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){32})" "\\1\n" bytes "${bytes}")
    string(APPEND text "// ${name}: ${size} bytes\nconst unsigned char file_${k}[] = {\n${bytes}0x00};\n\n")
    string(APPEND table "    {\"${name}\", reinterpret_cast<const char*>(file_${k}), ${size}},\n")
    math(EXPR k "${k} + 1")
  endforeach()
  string(APPEND text "}  // namespace\n\nconst EmbeddedFile kStudioFiles[] = {\n${table}};\n")
  string(APPEND text "const size_t kStudioFileCount = ${k};\n\n}  // namespace plateau\n")
  # Written only when it changes, so an unchanged page does not rebuild the binary.
  set(old "")
  if(EXISTS "${OUT}")
    file(READ "${OUT}" old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE "${OUT}" "${text}")
  endif()
  return()
endif()

set(PLATEAU_STUDIO_PAGE_FILES index.html studio.js numbers.js studio.css)
set(_studio_page_paths "")
foreach(name IN LISTS PLATEAU_STUDIO_PAGE_FILES)
  list(APPEND _studio_page_paths "${CMAKE_CURRENT_SOURCE_DIR}/studio/page/${name}")
endforeach()
add_custom_command(
  OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/studio_files.cc
  COMMAND ${CMAKE_COMMAND} -DOUT=${CMAKE_CURRENT_BINARY_DIR}/studio_files.cc -DDIR=${CMAKE_CURRENT_SOURCE_DIR}/studio/page
          "-DNAMES=${PLATEAU_STUDIO_PAGE_FILES}" -P ${CMAKE_CURRENT_SOURCE_DIR}/studio/embed.cmake
  DEPENDS ${_studio_page_paths} ${CMAKE_CURRENT_SOURCE_DIR}/studio/embed.cmake
  COMMENT "plateau studio: building the page's files into the binary"
  VERBATIM)
target_sources(plateau PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/studio_files.cc)

# Writes OUT, a header defining DLSIZE_GIT_COMMIT: `git describe --always --dirty` of SOURCE_DIR
# ("1a2b3c4d5e6f", "v0.2-3-g1a2b3c4d5e6f-dirty"), or "unknown" when SOURCE_DIR is not the top
# of a git work tree (a release tarball, a `git archive` export, even one unpacked inside
# another repository). Run at every build; the header is rewritten only when the text changes,
# so an unchanged commit recompiles nothing.
set(commit "unknown")
find_program(DLSIZE_GIT git)
if(DLSIZE_GIT)
  execute_process(
    COMMAND ${DLSIZE_GIT} -C ${SOURCE_DIR} rev-parse --show-toplevel
    OUTPUT_VARIABLE top
    RESULT_VARIABLE rc
    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rc EQUAL 0)
    file(REAL_PATH "${SOURCE_DIR}" source_real)
    file(REAL_PATH "${top}" top_real)
    if(source_real STREQUAL top_real)
      execute_process(
        COMMAND ${DLSIZE_GIT} -C ${SOURCE_DIR} describe --always --dirty --abbrev=12
        OUTPUT_VARIABLE described
        RESULT_VARIABLE rc
        OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      if(rc EQUAL 0 AND NOT described STREQUAL "")
        set(commit "${described}")
      endif()
    endif()
  endif()
endif()
set(text "#pragma once\n// Generated at build time by cmake/git_commit.cmake.\n#define DLSIZE_GIT_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()

# WEFT_SANITIZE=thread builds everything with ThreadSanitizer; =address with AddressSanitizer
# and UndefinedBehaviorSanitizer. Applied to every target in the tree.
#
# Debug information is -g1 (line tables): a report's stack still names file and line, and the
# compile takes a third less time than with -g. The ASan build is also -O1, the level ASan's
# authors recommend, at a third of -O2's compile time; TSan stays at the build type's level,
# because GCC 12 at -O1 with TSan gives false -Warray-bounds warnings in libstdc++.
include(CheckCXXCompilerFlag)
if(WEFT_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -g1 -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
  # GCC >= 12 warns (-Wtsan) that TSan does not model std::atomic_thread_fence. weft's fences
  # only order the task stack's Dekker pair of atomics (T against H); data is handed over by
  # release/acquire pairs, which TSan does model. So the warning does not apply here.
  check_cxx_compiler_flag(-Wno-tsan WEFT_HAS_WNO_TSAN)
  if(WEFT_HAS_WNO_TSAN)
    add_compile_options(-Wno-tsan)
  endif()
elseif(WEFT_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined -O1 -g1
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
elseif(NOT WEFT_SANITIZE STREQUAL "")
  message(FATAL_ERROR "WEFT_SANITIZE='${WEFT_SANITIZE}': expected '', 'thread' or 'address'")
endif()

# WEFT_SANITIZE=thread builds everything with ThreadSanitizer; =address with AddressSanitizer
# and UndefinedBehaviorSanitizer. Applied to every target in the tree.
if(WEFT_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -g -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(WEFT_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined -g
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
elseif(NOT WEFT_SANITIZE STREQUAL "")
  message(FATAL_ERROR "WEFT_SANITIZE='${WEFT_SANITIZE}': expected '', 'thread' or 'address'")
endif()

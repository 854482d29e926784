# Warnings are errors in weft's own targets only; nothing leaks into client builds.
function(weft_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
endfunction()

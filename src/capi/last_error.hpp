// The C interface's per-thread record of its last failure (weft_last_status/_error), set like
// errno: by a call that fails, kept until the next failure or weft_clear_error().
#pragma once

#include <string>

namespace weft::capi {

// Records a failure for the calling thread and returns `status`, for `return fail(...)`.
int fail(int status, std::string message);

// The failure a C++ exception in flight stands for: records it and returns its status
// (WEFT_ERROR_CONFIG for a ConfigError, WEFT_ERROR_RESOURCE for bad_alloc or system_error,
// `otherwise` for anything else). Call it in a catch block only.
int fail_with_current_exception(int otherwise, const char* where);

}  // namespace weft::capi

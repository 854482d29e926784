#include "capi/last_error.hpp"

#include <exception>
#include <new>
#include <system_error>
#include <utility>

#include "weft/config.hpp"
#include "weft/weft.h"

namespace weft::capi {
namespace {

struct LastError {
  int status = WEFT_OK;
  std::string message;
};
thread_local LastError last;

}  // namespace

int fail(int status, std::string message) {
  last.status = status;
  last.message = std::move(message);
  return status;
}

int fail_with_current_exception(int otherwise, const char* where) {
  const std::string prefix = std::string(where) + ": ";
  try {
    throw;
  } catch (const weft::ConfigError& e) {
    return fail(WEFT_ERROR_CONFIG, prefix + e.what());
  } catch (const std::bad_alloc& e) {
    return fail(WEFT_ERROR_RESOURCE, prefix + e.what());
  } catch (const std::system_error& e) {
    return fail(WEFT_ERROR_RESOURCE, prefix + e.what());
  } catch (const std::exception& e) {
    return fail(otherwise, prefix + e.what());
  } catch (...) {
    return fail(otherwise, prefix + "an exception that is not a std::exception");
  }
}

}  // namespace weft::capi

extern "C" {

const char* weft_last_error(void) { return weft::capi::last.message.c_str(); }

int weft_last_status(void) { return weft::capi::last.status; }

void weft_clear_error(void) {
  weft::capi::last.status = WEFT_OK;
  weft::capi::last.message.clear();
}
}

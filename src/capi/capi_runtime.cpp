// The C interface's configuration, runtime, root task and statistics, over weft::Config and
// weft::Runtime. Every C++ exception stops here and becomes a status and a message.
#include <cstring>
#include <memory>
#include <string>

#include "capi/last_error.hpp"
#include "weft/config.hpp"
#include "weft/runtime.hpp"
#include "weft/weft.h"

struct weft_runtime {
  weft::Runtime runtime;
};

namespace {

// A C string field, which must end within its array.
std::string field(const char* text, std::size_t size, const char* name) {
  const void* end = std::memchr(text, '\0', size);
  if (end == nullptr) {
    throw weft::ConfigError(std::string(name) + ": not NUL-terminated within its " +
                            std::to_string(size) + " bytes");
  }
  return std::string(text);
}

template <std::size_t N>
void copy_field(char (&out)[N], const std::string& value) {
  std::memset(out, 0, N);
  std::memcpy(out, value.data(), value.size() < N - 1 ? value.size() : N - 1);
}

weft_config from_cpp(const weft::Config& k) {
  weft_config c{};
  c.workers = k.workers;
  copy_field(c.steal, k.steal.spec());
  copy_field(c.mechanism, weft::mechanism_name(k.mechanism));
  c.seed = k.seed;
  c.pin = static_cast<int>(k.pin);
  c.worker_stack_bytes = k.worker_stack_bytes;
  c.task_slots = k.task_slots;
  c.profile = k.profile ? 1 : 0;
  c.count_spawns = k.count_spawns ? 1 : 0;
  return c;
}

weft::Config to_cpp(const weft_config& c) {
  weft::Config k;
  k.workers = c.workers;
  k.steal = weft::StealPolicy::parse(field(c.steal, sizeof c.steal, "steal"), "steal");
  k.mechanism = weft::parse_mechanism(field(c.mechanism, sizeof c.mechanism, "mechanism"));
  k.seed = c.seed;
  if (c.pin < 0 || c.pin > 2) throw weft::ConfigError("pin: expected 0, 1 or 2 (auto)");
  if (c.profile != 0 && c.profile != 1) throw weft::ConfigError("profile: expected 0 or 1");
  if (c.count_spawns != 0 && c.count_spawns != 1) {
    throw weft::ConfigError("count_spawns: expected 0 or 1");
  }
  k.pin = static_cast<weft::Pinning>(c.pin);
  k.worker_stack_bytes = c.worker_stack_bytes;
  k.task_slots = c.task_slots;
  k.profile = c.profile == 1;
  k.count_spawns = c.count_spawns == 1;
  k.validate();
  return k;
}

// Copies `text` into buf[0..n) with its NUL; WEFT_ERROR_TRUNCATED with what fits if short.
int copy_out(const std::string& text, char* buf, std::size_t n, const char* where) {
  if (buf == nullptr || n == 0) {
    return weft::capi::fail(WEFT_ERROR_ARGUMENT, std::string(where) + ": no buffer");
  }
  const std::size_t fits = text.size() < n - 1 ? text.size() : n - 1;
  std::memcpy(buf, text.data(), fits);
  buf[fits] = '\0';
  if (fits < text.size()) {
    return weft::capi::fail(WEFT_ERROR_TRUNCATED,
                            std::string(where) + ": " + std::to_string(text.size() + 1) +
                                " bytes needed, " + std::to_string(n) + " given");
  }
  return WEFT_OK;
}

}  // namespace

extern "C" {

weft_config weft_config_default(void) { return from_cpp(weft::Config{}); }

int weft_config_from_env(weft_config* config, char* err, size_t n) {
  if (err != nullptr && n > 0) err[0] = '\0';
  if (config == nullptr) {
    return weft::capi::fail(WEFT_ERROR_ARGUMENT, "weft_config_from_env: config is NULL");
  }
  try {
    *config = from_cpp(weft::Config::from_env());
    return WEFT_OK;
  } catch (...) {
    const int status = weft::capi::fail_with_current_exception(WEFT_ERROR_CONFIG, "environment");
    if (err != nullptr && n > 0) {
      const std::string message = weft_last_error();
      const std::size_t fits = message.size() < n - 1 ? message.size() : n - 1;
      std::memcpy(err, message.data(), fits);
      err[fits] = '\0';
    }
    return status;
  }
}

weft_runtime* weft_runtime_create(const weft_config* config) {
  try {
    const weft::Config k = config != nullptr ? to_cpp(*config) : weft::Config{};
    return new weft_runtime{weft::Runtime(k)};
  } catch (...) {
    weft::capi::fail_with_current_exception(WEFT_ERROR_CONFIG, "weft_runtime_create");
    return nullptr;
  }
}

void weft_runtime_destroy(weft_runtime* runtime) { delete runtime; }

int weft_run(weft_runtime* runtime, void* (*fn)(void*), void* arg, void** result) {
  if (runtime == nullptr) return weft::capi::fail(WEFT_ERROR_ARGUMENT, "weft_run: runtime is NULL");
  if (fn == nullptr) return weft::capi::fail(WEFT_ERROR_ARGUMENT, "weft_run: fn is NULL");
  try {
    void* value = runtime->runtime.run([fn, arg] { return fn(arg); });
    if (result != nullptr) *result = value;
    return WEFT_OK;
  } catch (...) {
    return weft::capi::fail_with_current_exception(WEFT_ERROR_EXCEPTION, "weft_run");
  }
}

int weft_stats_json(const weft_runtime* runtime, char* buf, size_t n) {
  if (runtime == nullptr) {
    return weft::capi::fail(WEFT_ERROR_ARGUMENT, "weft_stats_json: runtime is NULL");
  }
  try {
    return copy_out(runtime->runtime.stats().json(), buf, n, "weft_stats_json");
  } catch (...) {
    return weft::capi::fail_with_current_exception(WEFT_ERROR_RESOURCE, "weft_stats_json");
  }
}
}

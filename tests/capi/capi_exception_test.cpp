// The C interface's boundary, seen from C++: an exception thrown by a task run through
// weft_run or joined through weft_join never crosses into the C caller; it becomes
// WEFT_ERROR_EXCEPTION with the exception's message, and the runtime goes on working.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "weft/weft.h"

namespace {

void* throws(void*) { throw std::runtime_error("the task failed"); }
void* throws_int(void*) { throw 7; }

void* spawn_throwing(void*) {
  weft_future f = weft_spawn(throws, nullptr);
  weft_clear_error();
  void* r = weft_join(&f);
  const bool caught = r == nullptr && weft_last_status() == WEFT_ERROR_EXCEPTION &&
                      std::string(weft_last_error()).find("the task failed") != std::string::npos;
  return reinterpret_cast<void*>(static_cast<std::intptr_t>(caught ? 1 : 0));
}

TEST(CApiBoundary, AnExceptionFromTheRootTaskBecomesAStatus) {
  weft_config c = weft_config_default();
  c.workers = 2;
  weft_runtime* rt = weft_runtime_create(&c);
  ASSERT_NE(rt, nullptr);
  void* result = reinterpret_cast<void*>(1);
  EXPECT_EQ(weft_run(rt, throws, nullptr, &result), WEFT_ERROR_EXCEPTION);
  EXPECT_EQ(std::string(weft_last_error()), "weft_run: the task failed");
  EXPECT_EQ(result, reinterpret_cast<void*>(1));  // untouched
  EXPECT_EQ(weft_run(rt, throws_int, nullptr, nullptr), WEFT_ERROR_EXCEPTION);
  EXPECT_NE(std::string(weft_last_error()).find("not a std::exception"), std::string::npos);
  EXPECT_EQ(weft_run(rt, spawn_throwing, nullptr, &result), WEFT_OK);
  EXPECT_EQ(reinterpret_cast<std::intptr_t>(result), 1);
  weft_runtime_destroy(rt);
}

TEST(CApiBoundary, AnExceptionFromASerialSpawnIsKeptForTheJoin) {
  weft_future f = weft_spawn(throws, nullptr);  // no runtime: runs at once
  weft_clear_error();
  EXPECT_EQ(weft_join(&f), nullptr);
  EXPECT_EQ(weft_last_status(), WEFT_ERROR_EXCEPTION);
}

}  // namespace

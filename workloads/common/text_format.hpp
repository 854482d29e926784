// The small formatting helpers weft-bench's reports and the peer programs share: printf into
// a std::string for the fixed-width tables, and JSON strings and numbers.
#pragma once

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

namespace common {

template <class... Args>
std::string format(const char* fmt, Args... args) {
  const int size = std::snprintf(nullptr, 0, fmt, args...);
  std::string s(static_cast<std::size_t>(size) + 1, '\0');
  std::snprintf(s.data(), s.size(), fmt, args...);
  s.pop_back();
  return s;
}

// Names and specs are ASCII without quotes in practice, but a file name or spec must never
// break the JSON: escape what JSON requires. (Built with a stream: GCC 12's -Wrestrict
// misfires on "literal" + std::string chains.)
inline std::string quote(const std::string& s) {
  std::ostringstream out;
  out << '"';
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out << '\\' << c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out << format("\\u%04x", static_cast<unsigned>(c));
    } else {
      out << c;
    }
  }
  out << '"';
  return out.str();
}

// JSON has no inf or nan: write null for them.
inline std::string number(double x) { return std::isfinite(x) ? format("%.9g", x) : "null"; }

}  // namespace common

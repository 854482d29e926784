// Three-dimensional vectors of doubles for the N-body code.
#pragma once

#include <cmath>

namespace thread_apps {

struct Vec3 {
  double x = 0.0, y = 0.0, z = 0.0;

  Vec3& operator+=(const Vec3& o) noexcept {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
  Vec3& operator-=(const Vec3& o) noexcept {
    x -= o.x;
    y -= o.y;
    z -= o.z;
    return *this;
  }
  Vec3& operator*=(double s) noexcept {
    x *= s;
    y *= s;
    z *= s;
    return *this;
  }
  friend Vec3 operator+(Vec3 a, const Vec3& b) noexcept { return a += b; }
  friend Vec3 operator-(Vec3 a, const Vec3& b) noexcept { return a -= b; }
  friend Vec3 operator*(Vec3 a, double s) noexcept { return a *= s; }
  friend Vec3 operator*(double s, Vec3 a) noexcept { return a *= s; }
  friend bool operator==(const Vec3&, const Vec3&) noexcept = default;
};

inline double dot(const Vec3& a, const Vec3& b) noexcept {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline double norm(const Vec3& a) noexcept { return std::sqrt(dot(a, a)); }

}  // namespace thread_apps

// SHA-1 comes from OpenSSL's libcrypto. We call the low-level SHA1_Init/Update/Final rather
// than EVP: for UTS's 24-byte messages they take about 71 ns a hash on this machine (SHA-NI)
// against 97-106 ns for a reused EVP_MD_CTX and 140-400 ns for EVP_Digest one-shots, and
// hashing is nearly all of a node's work. OpenSSL 3 deprecates these functions, but they
// remain supported and give the identical digest; we silence the deprecation here only.
#define OPENSSL_SUPPRESS_DEPRECATED
#include "workloads/uts/sha1_stream.hpp"

#include <openssl/sha.h>

#include <cstddef>
#include <cstring>

namespace uts {
namespace {

static_assert(SHA_DIGEST_LENGTH == kStateBytes);

void put_be32(std::uint8_t* out, std::int32_t value) {
  const auto v = static_cast<std::uint32_t>(value);  // two's complement, as the reference
  out[0] = static_cast<std::uint8_t>(v >> 24);
  out[1] = static_cast<std::uint8_t>(v >> 16);
  out[2] = static_cast<std::uint8_t>(v >> 8);
  out[3] = static_cast<std::uint8_t>(v);
}

RngState sha1_of(const std::uint8_t* data, std::size_t len) {
  RngState out;
  SHA_CTX ctx;
  SHA1_Init(&ctx);
  SHA1_Update(&ctx, data, len);
  SHA1_Final(out.bytes.data(), &ctx);
  return out;
}

}  // namespace

RngState root_state(std::int32_t seed) {
  std::uint8_t message[kStateBytes] = {};  // 16 zero bytes, then the seed
  put_be32(message + 16, seed);
  return sha1_of(message, sizeof message);
}

RngState child_state(const RngState& parent, std::int32_t index) {
  // One contiguous 24-byte message: a single Update call is cheaper than two.
  std::uint8_t message[kStateBytes + 4];
  std::memcpy(message, parent.bytes.data(), kStateBytes);
  put_be32(message + kStateBytes, index);
  return sha1_of(message, sizeof message);
}

}  // namespace uts

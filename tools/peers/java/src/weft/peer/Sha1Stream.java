package weft.peer;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The splittable random stream of UTS, bit for bit as workloads/uts/sha1_stream.hpp (the UTS 2.1
 * reference's rng/brg_sha1.c):
 *
 * <pre>
 *   root state   = SHA-1(16 zero bytes || seed as 4 big-endian bytes)
 *   child state  = SHA-1(parent state || child index as 4 big-endian bytes)
 *   random value = state bytes 16..19 read big-endian, top bit cleared (31 bits)
 *   probability  = random value / 2^31, in [0, 1)
 * </pre>
 *
 * SHA-1 is the JDK's own ("SUN" provider, HotSpot's SHA-1 intrinsic where the CPU has SHA-NI).
 * Each thread keeps one MessageDigest and one message buffer: MessageDigest.getInstance looks the
 * provider up every time, which would cost more than the 24-byte hash itself, and a digest is
 * not thread-safe, so a ForkJoinPool worker must not share one.
 */
final class Sha1Stream {
  static final int STATE_BYTES = 20;

  private static final ThreadLocal<Sha1Stream> PER_THREAD =
      ThreadLocal.withInitial(Sha1Stream::new);

  private final MessageDigest sha1;
  // One contiguous message and one update per hash, as the C++ side does.
  private final byte[] message = new byte[STATE_BYTES + 4];

  private Sha1Stream() {
    try {
      sha1 = MessageDigest.getInstance("SHA-1");
    } catch (NoSuchAlgorithmException e) {
      // Every Java SE platform must provide SHA-1 (MessageDigest's specification).
      throw new IllegalStateException("this JDK has no SHA-1", e);
    }
  }

  private byte[] hash() {
    byte[] out = new byte[STATE_BYTES];
    sha1.update(message, 0, message.length);
    try {
      sha1.digest(out, 0, STATE_BYTES); // also resets the digest for the next hash
    } catch (DigestException e) {
      throw new IllegalStateException("SHA-1 digest is not 20 bytes", e);
    }
    return out;
  }

  private static void putBigEndian(byte[] out, int at, int value) {
    out[at] = (byte) (value >>> 24); // two's complement, as the reference
    out[at + 1] = (byte) (value >>> 16);
    out[at + 2] = (byte) (value >>> 8);
    out[at + 3] = (byte) value;
  }

  /** The root's state for seed `seed` (the reference's rng_init). */
  static byte[] rootState(int seed) {
    Sha1Stream s = PER_THREAD.get();
    byte[] message = new byte[STATE_BYTES]; // 16 zero bytes, then the seed
    putBigEndian(message, 16, seed);
    s.sha1.update(message, 0, message.length);
    return s.sha1.digest();
  }

  /** The state of child number `index` of a node with state `parent` (rng_spawn). */
  static byte[] childState(byte[] parent, int index) {
    Sha1Stream s = PER_THREAD.get();
    System.arraycopy(parent, 0, s.message, 0, STATE_BYTES);
    putBigEndian(s.message, STATE_BYTES, index);
    return s.hash();
  }

  /** The node's 31-bit random value (rng_rand): it reads the state, it does not advance it. */
  static int rand31(byte[] s) {
    int word = (s[16] & 0xff) << 24 | (s[17] & 0xff) << 16 | (s[18] & 0xff) << 8 | (s[19] & 0xff);
    return word & 0x7fffffff;
  }

  /** A 31-bit value as a probability in [0, 1) (rng_toProb); negative input maps to 0. */
  static double toProb(int n) {
    return n < 0 ? 0.0 : (double) n / 2147483648.0;
  }
}

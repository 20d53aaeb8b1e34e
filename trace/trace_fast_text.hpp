// Word-at-a-time text primitives of the loader's hot path (trace_sketch_fast.cpp). They read
// past the end of the text they are given, up to LineReader::kLinePadding bytes: call them
// only on lines from a LineReader.
//
// Why: a row is a dozen fields, and finding each field's start by scanning from the previous
// field's end makes one long chain of dependent loads. Here the blanks of a whole line are
// found at once (16 bytes a compare), token boundaries come out of bit masks, and each number
// is read in one or two 8-byte words, so the fields' work is independent and overlaps.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace dlcnet::trace::fast {

#define DLCNET_FAST [[gnu::always_inline]] inline
#define DLCNET_FAST_LAMBDA __attribute__((always_inline))

DLCNET_FAST bool is_blank(char c) {
  return c == '\t' || c == ' ';
}

inline constexpr uint64_t kPow10[9] = {1,      10,      100,      1000,     10000,
                                       100000, 1000000, 10000000, 100000000};

DLCNET_FAST uint64_t load8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

// Leading decimal digits of the eight characters in `w` (first character in the low byte).
// A byte that is not '0'..'9' has a high nibble after the xor, or gets one when 6 is added;
// a carry out of a non-ASCII byte can only mark its neighbour as a non-digit too.
DLCNET_FAST size_t digit_run(uint64_t w) {
  const uint64_t t = w ^ 0x3030303030303030ull;
  const uint64_t bad = (t | (t + 0x0606060606060606ull)) & 0xF0F0F0F0F0F0F0F0ull;
  return bad == 0 ? 8 : static_cast<size_t>(std::countr_zero(bad)) / 8;
}

// Value of the first n (1 to 8) digits of `w`: shifted so that the bytes before them read as
// leading zeros, then combined pairwise (D. Lemire, "Fast conversion of 8 digits").
DLCNET_FAST uint64_t digits_value(uint64_t w, size_t n) {
  uint64_t t = ((w ^ 0x3030303030303030ull) << (8 * (8 - n))) & 0x0F0F0F0F0F0F0F0Full;
  t = (t * 2561) >> 8;
  t = ((t & 0x00FF00FF00FF00FFull) * 6553601) >> 16;
  return ((t & 0x0000FFFF0000FFFFull) * 42949672960001ull) >> 32;
}

// The n characters at p (1 to 16) as an unsigned decimal; false if any is not a digit.
DLCNET_FAST bool unsigned_of(const char* p, size_t n, uint64_t& v) {
  if (n == 0 || n > 16) return false;
  const uint64_t w = load8(p);
  if (n <= 8) {
    v = digits_value(w, n);
    return digit_run(w) >= n;
  }
  const uint64_t w2 = load8(p + 8);
  v = digits_value(w, 8) * kPow10[n - 8] + digits_value(w2, n - 8);
  return digit_run(w) == 8 && digit_run(w2) >= n - 8;
}

// The n characters at p as an optionally negative decimal of at most 16 digits.
DLCNET_FAST bool signed_of(const char* p, size_t n, int64_t& v) {
  const bool neg = n != 0 && *p == '-';
  uint64_t u = 0;
  if (!unsigned_of(p + (neg ? 1 : 0), n - (neg ? 1 : 0), u)) return false;
  v = neg ? -static_cast<int64_t>(u) : static_cast<int64_t>(u);
  return true;
}

// Bit i set when p[i] is a tab or a space, for the 64 characters at p.
DLCNET_FAST uint64_t blank_mask64(const char* p) {
#if defined(__SSE2__)
  const __m128i tab = _mm_set1_epi8('\t');
  const __m128i space = _mm_set1_epi8(' ');
  uint64_t m = 0;
  for (int i = 0; i < 4; ++i) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    const __m128i b = _mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, space));
    m |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(b))) << (16 * i);
  }
  return m;
#else
  // Eight bytes at a time: a byte equal to c gives 0x80 in `zero(w ^ c)` (no carries).
  auto zero = [](uint64_t x) {
    return ~(((x & 0x7F7F7F7F7F7F7F7Full) + 0x7F7F7F7F7F7F7F7Full) | x | 0x7F7F7F7F7F7F7F7Full);
  };
  uint64_t m = 0;
  for (int i = 0; i < 8; ++i) {
    const uint64_t w = load8(p + 8 * i);
    const uint64_t hits = zero(w ^ 0x0909090909090909ull) | zero(w ^ 0x2020202020202020ull);
    m |= (((hits >> 7) * 0x0102040810204080ull) >> 56) << (8 * i);
  }
  return m;
#endif
}

// Where the tokens (runs of characters other than tab and space) of a line begin: the first
// kMax of them, and how many there are (counting stops at `limit`: the caller needs no more).
// False for a line longer than 4 KiB.
struct Tokens {
  static constexpr size_t kMax = 16;
  uint16_t begin[kMax];
  size_t count = 0;
};

DLCNET_FAST bool tokenize(const char* p, size_t len, Tokens& t, size_t limit = SIZE_MAX) {
  if (len > 4096) return false;
  size_t n = 0;
  uint64_t carry = 0;  // 1 when the last character of the previous block was not blank
  for (size_t base = 0; base < len && n < limit; base += 64) {
    uint64_t solid = ~blank_mask64(p + base);
    if (len - base < 64) solid &= (uint64_t{1} << (len - base)) - 1;
    uint64_t starts = solid & ~((solid << 1) | carry);
    carry = solid >> 63;
    for (; starts != 0 && n < limit; starts &= starts - 1, ++n) {
      if (n < Tokens::kMax) {
        t.begin[n] = static_cast<uint16_t>(base + static_cast<size_t>(std::countr_zero(starts)));
      }
    }
  }
  t.count = n;
  return true;
}

// A whole-token decimal at p (optionally negative, 1 to 15 digits) that ends at a blank or at
// `end`; p is advanced past it.
DLCNET_FAST bool token_number(const char*& p, const char* end, int64_t& v) {
  const bool neg = *p == '-';
  const char* q = p + (neg ? 1 : 0);
  // Ranks, types and most keys are one or two digits: no word arithmetic for those. Every
  // call site is inlined, so these branches are as predictable as their field.
  const auto d0 = static_cast<unsigned char>(q[0] - '0');
  const auto d1 = static_cast<unsigned char>(q[1] - '0');
  if (d0 <= 9 && d1 > 9) {
    if (q + 1 != end && !is_blank(q[1])) return false;
    v = neg ? -static_cast<int64_t>(d0) : static_cast<int64_t>(d0);
    p = q + 1;
    return true;
  }
  uint64_t w = load8(q);
  const size_t n = digit_run(w);
  if (n == 0) return false;
  uint64_t u = digits_value(w, n);
  q += n;
  if (n == 8) {
    w = load8(q);
    const size_t m = digit_run(w);
    if (m == 8) return false;
    if (m != 0) {
      u = u * kPow10[m] + digits_value(w, m);
      q += m;
    }
  }
  if (q != end && !is_blank(*q)) return false;
  v = neg ? -static_cast<int64_t>(u) : static_cast<int64_t>(u);
  p = q;
  return true;
}

}  // namespace dlcnet::trace::fast

// The hot path of the loader: a well-formed data row of a file whose node is known, parsed in
// one pass over its characters. Any surprise returns false and the checked parser
// (trace_sketch_rows.cpp) takes the row, so this file has no diagnostics and must accept
// nothing the checked parser rejects.
//
// It relies on LineReader's guarantees: sixteen readable bytes after every line, the first of
// them '\n' or '\r'. Digit and blank scans therefore stop at the line end without testing for
// it, and numbers are read eight characters at a time.
#include <bit>
#include <cstring>

#include "replay/trace_sketch_reader.hpp"

namespace dlcnet::trace {
namespace {

// Forced inline: at -O2 GCC keeps these as calls, a third of the hot path's time.
#define DLCNET_HOT [[gnu::always_inline]] inline
#define DLCNET_HOT_LAMBDA __attribute__((always_inline))

// Field separators of the fast path. '\r' is not one (it may be the sentinel at the line
// end): a row with a stray '\r' goes to the checked parser.
DLCNET_HOT bool blank(char c) {
  return c == '\t' || c == ' ';
}

constexpr uint64_t kPow10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

DLCNET_HOT uint64_t load8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

// Leading decimal digits of the eight characters in `w` (first character in the low byte).
// A byte that is not '0'..'9' has a high nibble after the xor, or gets one when 6 is added;
// a carry out of a non-ASCII byte can only mark its neighbour as a non-digit too.
DLCNET_HOT size_t digit_run(uint64_t w) {
  const uint64_t t = w ^ 0x3030303030303030ull;
  const uint64_t bad = (t | (t + 0x0606060606060606ull)) & 0xF0F0F0F0F0F0F0F0ull;
  return bad == 0 ? 8 : static_cast<size_t>(std::countr_zero(bad)) / 8;
}

// Value of the first n (1 to 8) digits of `w`: shifted so that the bytes before them read as
// leading zeros, then combined pairwise (D. Lemire, "Fast conversion of 8 digits").
DLCNET_HOT uint64_t digits_value(uint64_t w, size_t n) {
  uint64_t t = ((w ^ 0x3030303030303030ull) << (8 * (8 - n))) & 0x0F0F0F0F0F0F0F0Full;
  t = (t * 2561) >> 8;
  t = ((t & 0x00FF00FF00FF00FFull) * 6553601) >> 16;
  return ((t & 0x0000FFFF0000FFFFull) * 42949672960001ull) >> 32;
}

// 1 to 15 digits at p (longer numbers are left to the checked parser). One- and two-digit
// numbers (ranks, types, most keys) take a shortcut; every call site is inlined, so its
// branches are as predictable as its field.
DLCNET_HOT bool digits(const char*& p, uint64_t& v) {
  const auto d0 = static_cast<unsigned char>(p[0] - '0');
  const auto d1 = static_cast<unsigned char>(p[1] - '0');
  if (d0 > 9) return false;
  if (d1 > 9) {
    v = d0;
    p += 1;
    return true;
  }
  const auto d2 = static_cast<unsigned char>(p[2] - '0');
  if (d2 > 9) {
    v = d0 * 10u + d1;
    p += 2;
    return true;
  }
  uint64_t w = load8(p);
  const size_t n = digit_run(w);
  if (n == 0) return false;
  v = digits_value(w, n);
  p += n;
  if (n == 8) {
    w = load8(p);
    const size_t m = digit_run(w);
    if (m == 8) return false;
    if (m != 0) {
      v = v * kPow10[m] + digits_value(w, m);
      p += m;
    }
  }
  return true;
}

DLCNET_HOT bool integer(const char*& p, int64_t& out) {
  const bool neg = *p == '-';
  const char* q = p + (neg ? 1 : 0);
  uint64_t v = 0;
  if (!digits(q, v)) return false;
  out = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  p = q;
  return true;
}

DLCNET_HOT bool fits32(int64_t v) {
  return v >= INT32_MIN && v <= INT32_MAX;
}

// The eight data operations are all 16 characters: [Push|Pull]_[Send|Recv]_[Worker|Server].
DLCNET_HOT bool data_op(const char* n, Op& op) {
  static constexpr Op kTable[2][2][2] = {
      // [push][send][worker]
      {{Op::kPullRecvServer, Op::kPullRecvWorker}, {Op::kPullSendServer, Op::kPullSendWorker}},
      {{Op::kPushRecvServer, Op::kPushRecvWorker}, {Op::kPushSendServer, Op::kPushSendWorker}}};
  op = kTable[n[2] == 's'][n[5] == 'S'][n[10] == 'W'];
  return std::memcmp(op_name(op).data(), n, 16) == 0;
}

}  // namespace

bool DataFileReader::parse_fast(std::string_view line, ParsedRow& row) {
  if (!d_.identified) return false;  // the first row sets the node: the checked path does it
  const char* p = line.data();
  const char* const e = p + line.size();
  // The capture writes one or two tabs between fields: step over those without a loop.
  const auto skip = [&]() DLCNET_HOT_LAMBDA {
    p += *p == '\t' ? 1 : 0;
    p += *p == '\t' ? 1 : 0;
    while (blank(*p)) ++p;
  };
  const auto field = [&](int64_t& v) DLCNET_HOT_LAMBDA {
    skip();
    return integer(p, v) && (p == e || blank(*p));
  };

  int64_t src = 0, dst = 0, length = 0, dep_pp = 0;
  if (!field(row.id) || !field(src) || !field(dst) || !field(length) || !field(dep_pp) ||
      length < 0 || length > UINT32_MAX) {
    return false;
  }
  // "OP:=", blanks, a 16-character data operation, a blank.
  skip();
  if (e - p < 5 || std::memcmp(p, "OP:=", 4) != 0 || !blank(p[4])) return false;
  p += 4;
  skip();
  Op op{};
  if (e - p < 17 || !blank(p[16]) || !data_op(p, op)) return false;
  p += 16;
  if (op_role(op) != d_.node.role) return false;
  const bool sends = op_sends(op);
  if ((sends ? src : dst) != d_.node.rank) return false;
  const int64_t other = sends ? dst : src;
  const int64_t peers = peer_letter_ == 's' ? S_ : W_;
  const int64_t peer_base = peer_letter_ == 's' ? W_ : 0;

  // OP_ID: key-opnum-<peer letter>N, the peer being `other`.
  skip();
  int64_t key = 0, opnum = 0;
  uint64_t n = 0;
  if (!integer(p, key) || *p != '-') return false;
  ++p;
  if (!integer(p, opnum) || *p != '-') return false;
  ++p;
  if (*p != peer_letter_) return false;
  ++p;
  if (!digits(p, n) || !(p == e || blank(*p)) || !fits32(key) || !fits32(opnum) ||
      static_cast<int64_t>(n) >= peers || peer_base + static_cast<int64_t>(n) != other) {
    return false;
  }

  int64_t dep_type = 0, dtime = 0, sec = 0, usec = 0;
  if (!field(dep_type) || (dep_type != 0 && dep_type != static_cast<int64_t>(op_dep_type(op))) ||
      !field(dtime) || dtime < -(int64_t{1} << 53) || dtime > (int64_t{1} << 53) || !field(sec) ||
      sec < 0 || sec > 9'000'000'000 || !field(usec) || usec < 0 || usec > 999'999'999) {
    return false;
  }

  // IDdep: the rest of the line, "-1", one entry, or a list in parentheses.
  skip();
  const char* end = e;
  while (end != p && blank(end[-1])) --end;
  if (p == end) return false;
  row.nrefs = 0;
  if (end - p == 2 && p[0] == '-' && p[1] == '1') {
    if (dep_type != 0) return false;
  } else {
    if (dep_type == 0) return false;
    const bool list = *p == '(';
    if (list) {
      if (end[-1] != ')') return false;
      ++p;
      --end;  // ')' now stops the scans like the line end does
    }
    for (;;) {
      skip();
      if (p == end) break;
      int64_t a = 0, b = 0;
      uint64_t m = 0;
      RawRef ref;
      ref.list_entry = list ? 1 : 0;
      if (!integer(p, a) || *p != '-') return false;
      ++p;
      if (*p == peer_letter_) {
        ref.key = static_cast<int32_t>(key);  // "opnum-sN": the record's own key
        b = a;
      } else {
        if (!integer(p, b) || *p != '-' || !fits32(a)) return false;
        ++p;
        ref.key = static_cast<int32_t>(a);
      }
      if (*p != peer_letter_) return false;
      ++p;
      if (!digits(p, m) || !fits32(b) || static_cast<int64_t>(m) >= peers) return false;
      ref.opnum = static_cast<int32_t>(b);
      ref.peer = static_cast<uint16_t>(peer_base + static_cast<int64_t>(m));
      row.add_ref(ref);
      skip();
      if (p == end) break;
      if (!list || *p != ',') return false;
      ++p;
    }
    if (row.nrefs == 0) return false;
  }

  Record& rec = row.rec;
  rec = Record{};
  rec.time_ns = sec * 1'000'000'000 + usec * 1000;
  rec.dtime_ns = dtime * 1000;
  rec.length = static_cast<uint32_t>(length);
  rec.key = static_cast<int32_t>(key);
  rec.opnum = static_cast<int32_t>(opnum);
  rec.line = line_;
  rec.peer = static_cast<uint16_t>(other);
  rec.op = op;
  rec.set_flag(Record::kSendFlag, sends);
  rec.set_flag(Record::kInitFlag, dep_pp == -15);
  rec.set_dep_type(static_cast<DepType>(dep_type));
  return true;
}

}  // namespace dlcnet::trace

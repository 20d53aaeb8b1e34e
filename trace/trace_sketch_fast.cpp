// The hot path of the loader: a well-formed data row of a file whose node is known. Any
// surprise returns false and the checked parser (trace_sketch_rows.cpp) takes the row, so this
// file has no diagnostics and must accept nothing the checked parser rejects.
//
// The line's tokens are found at once (trace_fast_text.hpp), then each field is read from its
// token. It relies on LineReader's guarantees: kLinePadding readable bytes after every line,
// the first of them '\n' or '\r', so a scan for digits stops at the line end by itself.
#include "trace/trace_fast_text.hpp"
#include "trace/trace_sketch_reader.hpp"

namespace dlcnet::trace {
namespace {

using fast::Tokens;

DLCNET_FAST bool fits32(int64_t v) {
  return v >= INT32_MIN && v <= INT32_MAX;
}

// 1 to 15 digits at p, stopping at the first non-digit (OP_ID and IDdep parts, where the
// token's own layout says where a number ends). One- and two-digit numbers take a shortcut.
DLCNET_FAST bool digits(const char*& p, uint64_t& v) {
  const auto d0 = static_cast<unsigned char>(p[0] - '0');
  const auto d1 = static_cast<unsigned char>(p[1] - '0');
  if (d0 > 9) return false;
  if (d1 > 9) {
    v = d0;
    p += 1;
    return true;
  }
  uint64_t w = fast::load8(p);
  const size_t n = fast::digit_run(w);
  v = fast::digits_value(w, n);
  p += n;
  if (n == 8) {
    w = fast::load8(p);
    const size_t m = fast::digit_run(w);
    if (m == 8) return false;
    if (m != 0) {
      v = v * fast::kPow10[m] + fast::digits_value(w, m);
      p += m;
    }
  }
  return true;
}

DLCNET_FAST bool integer(const char*& p, int64_t& out) {
  const bool neg = *p == '-';
  const char* q = p + (neg ? 1 : 0);
  uint64_t v = 0;
  if (!digits(q, v)) return false;
  out = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  p = q;
  return true;
}

// The eight data operations are all 16 characters: [Push|Pull]_[Send|Recv]_[Worker|Server].
DLCNET_FAST bool data_op(const char* n, Op& op) {
  static constexpr Op kTable[2][2][2] = {
      // [push][send][worker]
      {{Op::kPullRecvServer, Op::kPullRecvWorker}, {Op::kPullSendServer, Op::kPullSendWorker}},
      {{Op::kPushRecvServer, Op::kPushRecvWorker}, {Op::kPushSendServer, Op::kPushSendWorker}}};
  op = kTable[n[2] == 's'][n[5] == 'S'][n[10] == 'W'];
  return std::memcmp(op_name(op).data(), n, 16) == 0;
}

// Data rows: ID src dst length Dep_PP "OP:=" name OP_ID dep_Type dTime time_sec time_usec
// and IDdep as the remaining tokens.
enum Field : size_t {
  kId,
  kSrc,
  kDst,
  kLength,
  kDepPP,
  kOpMark,
  kOpName,
  kOpId,
  kDepType,
  kDTime,
  kSec,
  kUsec,
  kIdDep
};

}  // namespace

// time_sec at p: the previous row's value when the text is the same (a 16-byte compare),
// else parsed and remembered.
bool DataFileReader::same_sec(const char* p, const char* line_end, int64_t& sec) {
  const uint64_t w1 = fast::load8(p);
  const uint64_t w2 = fast::load8(p + 8);
  if (sec_known_ &&
      (((w1 ^ sec_text_[0]) & sec_mask_[0]) | ((w2 ^ sec_text_[1]) & sec_mask_[1])) == 0) {
    sec = sec_value_;
    return true;
  }
  const char* q = p;
  if (!fast::token_number(q, line_end, sec)) return false;
  const auto k = static_cast<size_t>(q - p) + 1;  // the token and the blank after it
  sec_known_ = q != line_end && k <= 16;
  if (sec_known_) {
    sec_mask_[0] = k >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * k)) - 1;
    sec_mask_[1] = k <= 8 ? 0 : k >= 16 ? ~uint64_t{0} : (uint64_t{1} << (8 * (k - 8))) - 1;
    sec_text_[0] = w1 & sec_mask_[0];
    sec_text_[1] = w2 & sec_mask_[1];
    sec_value_ = sec;
  }
  return true;
}

bool DataFileReader::parse_fast(std::string_view line, ParsedRow& row) {
  if (!d_.identified) return false;  // the first row sets the node: the checked path does it
  const char* const base = line.data();
  const char* const line_end = base + line.size();
  Tokens t;
  if (!fast::tokenize(base, line.size(), t, kIdDep + 1) || t.count <= kIdDep) return false;
  const auto at = [&](size_t f) { return base + t.begin[f]; };
  // 0 or 1, not bool: the results are and-ed without branches (clang rejects '&' on bools).
  const auto number = [&](size_t f, int64_t& v) DLCNET_FAST_LAMBDA {
    const char* p = at(f);
    return static_cast<unsigned>(fast::token_number(p, line_end, v));
  };

  int64_t src = 0, dst = 0, length = 0, dep_pp = 0, dep_type = 0, dtime = 0, sec = 0, usec = 0;
  // Independent of each other: the CPU overlaps them.
  bool ok = (number(kId, row.id) & number(kSrc, src) & number(kDst, dst) & number(kLength, length) &
             number(kDepPP, dep_pp) & number(kDepType, dep_type) & number(kDTime, dtime) &
             static_cast<unsigned>(same_sec(at(kSec), line_end, sec)) & number(kUsec, usec)) != 0;
  ok = ok && length >= 0 && length <= UINT32_MAX && dtime >= -(int64_t{1} << 53) &&
       dtime <= (int64_t{1} << 53) && sec >= 0 && sec <= 9'000'000'000 && usec >= 0 &&
       usec <= 999'999'999;
  // "OP:=" and the 16-character operation, each a whole token.
  const char* mark = at(kOpMark);
  const char* name = at(kOpName);
  Op op{};
  if (!ok || std::memcmp(mark, "OP:=", 4) != 0 || !fast::is_blank(mark[4]) ||
      name + 16 >= line_end || !fast::is_blank(name[16]) || !data_op(name, op) ||
      op_role(op) != d_.node.role) {
    return false;
  }
  const bool sends = op_sends(op);
  if ((sends ? src : dst) != d_.node.rank) return false;
  if (dep_type != 0 && dep_type != static_cast<int64_t>(op_dep_type(op))) return false;
  const int64_t other = sends ? dst : src;
  const int64_t peers = peer_letter_ == 's' ? S_ : W_;
  const int64_t peer_base = peer_letter_ == 's' ? W_ : 0;

  // OP_ID: key-opnum-<peer letter>N, the peer being `other`.
  const char* p = at(kOpId);
  int64_t key = 0, opnum = 0;
  uint64_t n = 0;
  if (!integer(p, key) || *p != '-') return false;
  ++p;
  if (!integer(p, opnum) || *p != '-') return false;
  ++p;
  if (*p != peer_letter_) return false;
  ++p;
  if (!digits(p, n) || !fast::is_blank(*p) || !fits32(key) || !fits32(opnum) ||
      static_cast<int64_t>(n) >= peers || peer_base + static_cast<int64_t>(n) != other) {
    return false;
  }

  // IDdep: the rest of the line, "-1", one entry, or a list in parentheses.
  p = at(kIdDep);
  const char* end = line_end;
  while (fast::is_blank(end[-1])) --end;  // stops at the IDdep token
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
      while (fast::is_blank(*p) && p != end) ++p;
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
      while (fast::is_blank(*p) && p != end) ++p;
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

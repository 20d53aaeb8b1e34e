// The fast row parser and the checked one must agree: numbers of every length and sign, rows
// the fast path hands over (odd spacing, very long numbers), a file without a final newline.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/trace/trace_test_util.hpp"
#include "trace/trace_fast_text.hpp"

namespace dlcnet::trace {
namespace {

// A one-worker one-server header.
std::string header() {
  std::string h = test::read_file(test::data("reject/cycle.txt"));
  return h.substr(0, h.find("\n0\t") + 1);
}

std::string row(int64_t id, int64_t length, int64_t opnum, int64_t dtime, int64_t sec, int64_t usec,
                const std::string& sep = "\t\t") {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%lld\t0\t1\t%lld%s1%sOP:= Push_Send_Worker%s7-%lld-s0%s0%s%lld%s%lld%s%lld%s-1\n",
                static_cast<long long>(id), static_cast<long long>(length), sep.c_str(),
                sep.c_str(), sep.c_str(), static_cast<long long>(opnum), sep.c_str(), sep.c_str(),
                static_cast<long long>(dtime), sep.c_str(), static_cast<long long>(sec),
                sep.c_str(), static_cast<long long>(usec), sep.c_str());
  return buf;
}

TEST(Parser, NumbersOfEveryLength) {
  test::TempDir dir;
  std::string text = header();
  // Lengths 1 to 10 digits, opnums 4i (worker 0's numbering), dTime up to 15 digits and
  // negative, time_sec 10 digits, time_usec up to 6.
  struct Want {
    int64_t length, opnum, dtime, sec, usec;
  };
  std::vector<Want> want;
  uint64_t len = 7;  // unsigned: it wraps (signed, it overflowed: UBSan)
  int64_t dt = -3;
  for (int i = 0; i < 40; ++i) {
    want.push_back(
        {static_cast<int64_t>(len % 4294967296), 4 * i, dt, 1500000000 + i, (i * 37) % 1000000});
    len = len * 7 + 3;
    dt = dt * -9 - 1;
    if (dt > 999'999'999'999'999 || dt < -999'999'999'999'999) dt = 5;
  }
  for (size_t i = 0; i < want.size(); ++i) {
    const Want& w = want[i];
    text += row(static_cast<int64_t>(i), w.length, w.opnum, w.dtime, w.sec, w.usec);
  }
  test::write_file(dir / "t.txt", text);
  const LoadResult res = test::load(dir / "t.txt");
  ASSERT_TRUE(res.ok()) << res.diagnostics.report();
  const auto& recs = res.job.nodes[0].records;
  ASSERT_EQ(recs.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(recs[i].length, static_cast<uint32_t>(want[i].length)) << i;
    EXPECT_EQ(recs[i].opnum, want[i].opnum) << i;
    EXPECT_EQ(recs[i].key, 7) << i;
    EXPECT_EQ(recs[i].dtime_ns, want[i].dtime * 1000) << i;
    EXPECT_EQ(recs[i].time_ns, want[i].sec * 1'000'000'000 + want[i].usec * 1000) << i;
    EXPECT_EQ(recs[i].iteration, static_cast<int32_t>(i)) << i;
  }
}

// Rows the fast path declines and the checked parser accepts: the same values.
TEST(Parser, CheckedPathAgrees) {
  test::TempDir dir;
  std::string text = header();
  text += row(0, 5, 0, 1, 1500000000, 1);
  text += row(1, 5, 4, 2, 1500000000, 2, " ");     // single spaces
  text += row(2, 5, 8, 3, 1500000000, 3, " \t ");  // mixed blanks
  text +=
      "3\t0\t1\t+5\t\t1\t\tOP:=Push_Send_Worker\t\t7-12-s0\t\t0\t\t4\t\t1500000000\t\t4\t\t-1\n";
  text += row(1234567890123456789, 5, 16, 5, 1500000000, 5);  // 19-digit ID
  test::write_file(dir / "t.txt", text);
  const LoadResult res = test::load(dir / "t.txt");
  ASSERT_TRUE(res.ok()) << res.diagnostics.report();
  const auto& recs = res.job.nodes[0].records;
  ASSERT_EQ(recs.size(), 5u);
  for (size_t i = 0; i < recs.size(); ++i) {
    EXPECT_EQ(recs[i].length, 5u);
    EXPECT_EQ(recs[i].opnum, static_cast<int32_t>(4 * i));
    EXPECT_EQ(recs[i].dtime_ns, static_cast<int64_t>(i + 1) * 1000);
    EXPECT_EQ(recs[i].time_ns, 1'500'000'000'000'000'000 + static_cast<int64_t>(i + 1) * 1000);
  }
}

// The fast path reuses the previous row's time_sec when its text is the same: texts that
// share a prefix, differ in length or in the blank after them must still be read apart.
TEST(Parser, RepeatedTimeSecondsReadApart) {
  test::TempDir dir;
  std::string text = header();
  const std::vector<std::pair<int64_t, std::string>> secs = {
      {1500000000, "\t\t"}, {1500000000, "\t\t"}, {150000000, "\t\t"},  {1500000000, " "},
      {1500000000, " "},    {9000000000, "\t"},   {1500000001, "\t\t"}, {1, "\t"},
      {12, "\t"},           {1, " \t"},           {900000000, "\t"},    {1500000001, "\t\t"}};
  for (size_t i = 0; i < secs.size(); ++i) {
    text += row(static_cast<int64_t>(i), 5, 4 * static_cast<int64_t>(i), 1, secs[i].first,
                static_cast<int64_t>(i), secs[i].second);
  }
  test::write_file(dir / "t.txt", text);
  const LoadResult res = test::load(dir / "t.txt");
  const auto& recs = res.job.nodes[0].records;
  ASSERT_EQ(recs.size(), secs.size()) << res.diagnostics.report();
  for (size_t i = 0; i < secs.size(); ++i) {
    EXPECT_EQ(recs[i].time_ns, secs[i].first * 1'000'000'000 + static_cast<int64_t>(i) * 1000) << i;
  }
}

TEST(Parser, LastLineWithoutNewlineAndCarriageReturns) {
  test::TempDir dir;
  std::string text = header();
  text += row(0, 5, 0, 1, 1500000000, 1);
  std::string last = row(1, 77, 4, 2, 1500000000, 123456);
  last.pop_back();  // no newline at the end of the file
  text += last;
  test::write_file(dir / "a.txt", text);
  LoadResult res = test::load(dir / "a.txt");
  ASSERT_TRUE(res.ok()) << res.diagnostics.report();
  ASSERT_EQ(res.job.nodes[0].records.size(), 2u);
  EXPECT_EQ(res.job.nodes[0].records[1].time_ns % 1'000'000'000, 123'456'000);

  std::string crlf;
  for (char c : text) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  test::write_file(dir / "b.txt", crlf + "\r");
  res = test::load(dir / "b.txt");
  ASSERT_TRUE(res.ok()) << res.diagnostics.report();
  ASSERT_EQ(res.job.nodes[0].records.size(), 2u);
  EXPECT_EQ(res.job.nodes[0].records[1].length, 77u);
}

TEST(Parser, NumbersTooLargeAreErrorsNotWrapAround) {
  test::TempDir dir;
  std::string text = header();
  text +=
      "0\t0\t1\t99999999999\t\t1\t\tOP:= Push_Send_Worker\t\t7-0-s0\t\t0\t\t0\t\t1500000000"
      "\t\t0\t\t-1\n";
  text +=
      "1\t0\t1\t5\t\t1\t\tOP:= Push_Send_Worker\t\t7-99999999999-s0\t\t0\t\t0\t\t"
      "1500000000\t\t0\t\t-1\n";
  test::write_file(dir / "t.txt", text);
  const LoadResult res = test::load(dir / "t.txt");
  EXPECT_EQ(res.diagnostics.errors(), 2u) << res.diagnostics.report();
  EXPECT_THAT(test::messages(res.diagnostics, Problem::kBadNumber)[0],
              ::testing::HasSubstr("t.txt:15: error: field 'length'"));
  EXPECT_THAT(test::messages(res.diagnostics, Problem::kBadOpId)[0],
              ::testing::HasSubstr("t.txt:16: error: field 'OP_ID'"));
}

}  // namespace
}  // namespace dlcnet::trace

namespace dlcnet::trace {
namespace {

// The word-at-a-time primitives against plain references, on padded buffers as LineReader
// gives them.
TEST(FastText, NumbersAgainstToString) {
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const uint64_t v =
        x % fast::kPow10[(i % 8) + 1] * (i % 3 == 0 ? 100000000 : 1) + (i % 5 == 0 ? 0 : x % 7);
    std::string s = std::to_string(v) + "\t123";
    s.resize(s.size() + 64, '9');  // padding that must not be read as digits
    uint64_t got = 0;
    ASSERT_TRUE(fast::unsigned_of(s.data(), std::to_string(v).size(), got)) << v;
    EXPECT_EQ(got, v);
    const char* p = s.data();
    int64_t sv = 0;
    if (std::to_string(v).size() > 15) {  // left to the checked parser
      EXPECT_FALSE(fast::token_number(p, s.data() + s.size(), sv));
      continue;
    }
    ASSERT_TRUE(fast::token_number(p, s.data() + s.size(), sv)) << v;
    EXPECT_EQ(static_cast<uint64_t>(sv), v);
    EXPECT_EQ(*p, '\t');
  }
  std::string bad = "12a4\t";
  bad.resize(80, ' ');
  uint64_t v = 0;
  EXPECT_FALSE(fast::unsigned_of(bad.data(), 4, v));
  const char* p = bad.data();
  int64_t sv = 0;
  EXPECT_FALSE(fast::token_number(p, bad.data() + 5, sv));
  std::string neg = "-000042 ";
  neg.resize(80, ' ');
  p = neg.data();
  ASSERT_TRUE(fast::token_number(p, neg.data() + 7, sv));
  EXPECT_EQ(sv, -42);
}

TEST(FastText, TokensAgainstAReference) {
  uint64_t x = 12345;
  const std::string alphabet = "ab1-(,) \t\t  ";
  for (int round = 0; round < 2000; ++round) {
    std::string line;
    const size_t len = round % 300;
    for (size_t i = 0; i < len; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      line += alphabet[(x >> 33) % alphabet.size()];
    }
    std::vector<size_t> want;
    for (size_t i = 0; i < line.size(); ++i) {
      const bool blank = line[i] == ' ' || line[i] == '\t';
      const bool prev = i > 0 && line[i - 1] != ' ' && line[i - 1] != '\t';
      if (!blank && !prev) want.push_back(i);
    }
    std::string padded = line;
    padded.resize(line.size() + 64, 'z');  // non-blank padding must not make tokens
    fast::Tokens t;
    ASSERT_TRUE(fast::tokenize(padded.data(), line.size(), t));
    ASSERT_EQ(t.count, want.size()) << "'" << line << "'";
    for (size_t k = 0; k < want.size() && k < fast::Tokens::kMax; ++k) {
      EXPECT_EQ(t.begin[k], want[k]);
    }
  }
}

}  // namespace
}  // namespace dlcnet::trace

// The calibration from dlc-bench lat and bw reports (model/bench_calibration.hpp), by hand.
#include "model/bench_calibration.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace dlcnet::model {
namespace {

// lat: 64 B fastest 10 us, 64 KiB fastest 700 us; bw: 64 KiB at 100 MB/s, 1 MiB at 125 MB/s.
const nlohmann::json kLat = nlohmann::json::parse(R"({"test": {"kind": "lat"}, "results": [
  {"bytes": 65536, "latency_s": {"min": 700e-6, "p50": 900e-6}},
  {"bytes": 64, "latency_s": {"min": 10e-6, "p50": 12e-6}}]})");
const nlohmann::json kBw = nlohmann::json::parse(R"({"test": {"kind": "bw"}, "results": [
  {"bytes": 65536, "bandwidth": {"average_bytes_per_s": 100e6}},
  {"bytes": 1048576, "bandwidth": {"average_bytes_per_s": 125e6}}]})");

TEST(ModelBenchCalibration, FromLatAndBwReports) {
  const Calibration c = calibration_from_bench({{"lat.json", &kLat}, {"bw.json", &kBw}});
  EXPECT_DOUBLE_EQ(c.link_rate_Bps, 125e6);   // the best rate
  EXPECT_DOUBLE_EQ(c.base_latency_s, 10e-6);  // the smallest size's fastest
  EXPECT_EQ(c.header_bytes, 0u);              // a goodput rate
  ASSERT_EQ(c.overhead_by_size.size(), 2u);
  EXPECT_EQ(c.overhead_by_size[0].min_bytes, 64u);
  // 64 B: 10 - 10 - 64 / 125e6 s < 0: none. 64 KiB: 700 us - 10 us - 65536 / 125e6 s.
  EXPECT_DOUBLE_EQ(c.overhead_by_size[0].overhead_s, 0);
  EXPECT_EQ(c.overhead_by_size[1].min_bytes, 65536u);
  EXPECT_NEAR(c.overhead_by_size[1].overhead_s, 700e-6 - 10e-6 - 65536 / 125e6, 1e-15);
}

std::string error_of(const std::vector<BenchReport>& r) {
  try {
    calibration_from_bench(r);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ModelBenchCalibration, ErrorsNameTheFileAndKey) {
  EXPECT_NE(error_of({{"lat.json", &kLat}}).find("no dlc-bench bw report"), std::string::npos);
  EXPECT_NE(error_of({{"bw.json", &kBw}}).find("no dlc-bench lat report"), std::string::npos);
  const nlohmann::json other = nlohmann::json::parse(R"({"spec": {}})");
  EXPECT_NE(error_of({{"x.json", &other}}).find("x.json: missing key \"test\""), std::string::npos);
  const nlohmann::json bad = nlohmann::json::parse(
      R"({"test": {"kind": "lat"}, "results": [{"bytes": 64, "latency_s": {"min": -1}}]})");
  EXPECT_NE(error_of({{"b.json", &bad}, {"bw.json", &kBw}})
                .find("b.json: results[0].latency_s: \"min\" = -1"),
            std::string::npos);
  const nlohmann::json ring =
      nlohmann::json::parse(R"({"test": {"kind": "ring"}, "results": [{}]})");
  EXPECT_NE(error_of({{"r.json", &ring}}).find("a lat or bw report expected"), std::string::npos);
  // No lat report at all: every input named (issue 31: a refusal names the file).
  EXPECT_NE(error_of({{"b1.json", &kBw}, {"b2.json", &kBw}}).find("among b1.json, b2.json"),
            std::string::npos);
  // A size past uint64 (undefined as a conversion: UBSan's report before the fix) or not whole.
  for (const char* bytes : {"1e300", "18446744073709551616", "1.5"}) {
    const nlohmann::json big =
        nlohmann::json::parse(std::string(R"({"test": {"kind": "lat"}, "results": [{"bytes": )") +
                              bytes + R"(, "latency_s": {"min": 1e-6}}]})");
    EXPECT_NE(error_of({{"big.json", &big}, {"bw.json", &kBw}})
                  .find("big.json: results[0]: \"bytes\" = "),
              std::string::npos)
        << bytes;
  }
}

TEST(ModelBenchCalibration, SteadyRateOverAverage) {
  // A stream whose sender's buffers ran ahead of the wire at the start: its average is above
  // the rate its second half ran at, which is the path's.
  const nlohmann::json bw = nlohmann::json::parse(R"({"test": {"kind": "bw"}, "results": [
    {"bytes": 65536, "bandwidth": {"average_bytes_per_s": 12.6e6, "steady_bytes_per_s": 11.9e6}},
    {"bytes": 1048576, "bandwidth": {"average_bytes_per_s": 12.8e6,
                                     "steady_bytes_per_s": 11.95e6}}]})");
  const Calibration c = calibration_from_bench({{"lat.json", &kLat}, {"bw.json", &bw}});
  EXPECT_DOUBLE_EQ(c.link_rate_Bps, 11.95e6);
  const nlohmann::json bad = nlohmann::json::parse(R"({"test": {"kind": "bw"}, "results": [
    {"bytes": 65536, "bandwidth": {"average_bytes_per_s": 12.6e6, "steady_bytes_per_s": 0}}]})");
  EXPECT_NE(error_of({{"lat.json", &kLat}, {"s.json", &bad}})
                .find("s.json: results[0].bandwidth: \"steady_bytes_per_s\" = 0"),
            std::string::npos);
}

}  // namespace
}  // namespace dlcnet::model

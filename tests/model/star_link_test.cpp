// The link rate of a calibration from a bw report taken on a namespace star
// (model/star_link.hpp, model/bench_calibration.hpp's LinkRateFrom), by hand.
#include "model/star_link.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "model/bench_calibration.hpp"

namespace dlcnet::model {
namespace {

const nlohmann::json kLat = nlohmann::json::parse(R"({"test": {"kind": "lat"}, "results": [
  {"bytes": 64, "latency_s": {"min": 10e-6}},
  {"bytes": 65536, "latency_s": {"min": 6e-3}}]})");

// A bw run on a 100 Mbit/s star whose steady rate (93.7 Mbit/s of payload) is below what the
// port carries in full segments (100e6 / 8 x 1448 / 1514 = 11.955 MB/s).
nlohmann::json bw_on_star(const char* rate, const char* mtu) {
  return nlohmann::json::parse(std::string(R"({"test": {"kind": "bw"}, "results": [
    {"bytes": 65536, "bandwidth": {"steady_bytes_per_s": 11.7125e6}}],
    "context": {"tcp_stack": {"interfaces": [{"name": "h1", "mtu": )") +
                               mtu + R"(}]}, "star": {"tbf": {"rate": ")" + rate +
                               R"(", "burst": "32kb", "limit": "8mb"}}}})");
}

std::string error_of(const std::vector<BenchReport>& r, LinkRateFrom from) {
  try {
    calibration_from_bench(r, from);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ModelStarLink, TheStarsFramesAndSegments) {
  const nlohmann::json bw = bw_on_star("100mbit", "1500");
  const std::optional<StarLink> s = star_link_of(bw, "bw.json");
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->rate_Bps, 12.5e6);
  EXPECT_EQ(s->payload_bytes, 1448u);
  EXPECT_EQ(s->header_bytes, 66u);
  EXPECT_NEAR(s->payload_Bps(), 12.5e6 * 1448 / 1514, 1e-6);
  EXPECT_DOUBLE_EQ(s->bucket_bytes, 32768);  // tc's "32kb"
  const nlohmann::json plain = nlohmann::json::parse(R"({"context": {"star": null}})");
  EXPECT_FALSE(star_link_of(plain, "p.json"));
}

TEST(ModelStarLink, AutomaticTakesTheStarBwTakesTheRun) {
  const nlohmann::json bw = bw_on_star("100mbit", "1500");
  nlohmann::json chosen;
  const Calibration star = calibration_from_bench({{"lat.json", &kLat}, {"bw.json", &bw}},
                                                  LinkRateFrom::automatic, &chosen);
  EXPECT_DOUBLE_EQ(star.link_rate_Bps, 12.5e6);  // frames
  EXPECT_EQ(star.payload_bytes, 1448u);
  EXPECT_EQ(star.header_bytes, 66u);
  EXPECT_DOUBLE_EQ(star.bucket_bytes, 32768);  // the tbf's burst, at a veth's speed
  EXPECT_DOUBLE_EQ(star.burst_rate_Bps, 5e9);
  // 1 MiB: 725 frames of 1514 B (the last shorter), 8.78 % more than its payload.
  EXPECT_NEAR(star.wire_bytes(1048576) / star.link_rate_Bps, (1048576 + 725 * 66) / 12.5e6, 1e-12);
  // 64 KiB's overhead: its fastest time less the base latency and its frames' time.
  ASSERT_EQ(star.overhead_by_size.size(), 2u);
  EXPECT_NEAR(star.overhead_by_size[1].overhead_s, 6e-3 - 10e-6 - (65536 + 46 * 66) / 12.5e6,
              1e-12);
  EXPECT_EQ(chosen["from"], "star");
  EXPECT_DOUBLE_EQ(chosen["bw_steady_payload_Bps"].get<double>(), 11.7125e6);
  EXPECT_NEAR(chosen["bw_over_star_payload"].get<double>(), 11.7125e6 / (12.5e6 * 1448 / 1514),
              1e-12);
  const Calibration run =
      calibration_from_bench({{"lat.json", &kLat}, {"bw.json", &bw}}, LinkRateFrom::bw, &chosen);
  EXPECT_DOUBLE_EQ(run.link_rate_Bps, 11.7125e6);
  EXPECT_EQ(run.header_bytes, 0u);
  EXPECT_EQ(run.bucket_bytes, 0);
  EXPECT_EQ(chosen["from"], "bw");
  // No star: automatic is the bw run's rate; star is refused.
  const nlohmann::json off = nlohmann::json::parse(R"({"test": {"kind": "bw"}, "results": [
    {"bytes": 65536, "bandwidth": {"steady_bytes_per_s": 11.7125e6}}]})");
  EXPECT_DOUBLE_EQ(
      calibration_from_bench({{"lat.json", &kLat}, {"off.json", &off}}, LinkRateFrom::automatic)
          .link_rate_Bps,
      11.7125e6);
  EXPECT_NE(error_of({{"lat.json", &kLat}, {"off.json", &off}}, LinkRateFrom::star)
                .find("--link-rate star: no bw report among lat.json, off.json ran on a "
                      "namespace star"),
            std::string::npos);
}

TEST(ModelStarLink, AnUnreadableDescriptionIsNamed) {
  const nlohmann::json rate = bw_on_star("fast", "1500");
  EXPECT_NE(error_of({{"lat.json", &kLat}, {"b.json", &rate}}, LinkRateFrom::automatic)
                .find("b.json: context.star.tbf.rate: 'fast' is not a rate"),
            std::string::npos);
  const nlohmann::json huge = bw_on_star("1e308tbit", "1500");
  EXPECT_NE(error_of({{"lat.json", &kLat}, {"b.json", &huge}}, LinkRateFrom::automatic)
                .find("b.json: context.star.tbf.rate: '1e308tbit' is not a rate"),
            std::string::npos);
  nlohmann::json burst = bw_on_star("100mbit", "1500");
  burst["context"]["star"]["tbf"].erase("burst");
  EXPECT_NE(error_of({{"lat.json", &kLat}, {"b.json", &burst}}, LinkRateFrom::automatic)
                .find("b.json: context.star.tbf.burst: missing"),
            std::string::npos);
  const nlohmann::json mtu = bw_on_star("100mbit", "70000");
  EXPECT_NE(error_of({{"lat.json", &kLat}, {"b.json", &mtu}}, LinkRateFrom::automatic)
                .find("b.json: context.tcp_stack.interfaces[0].mtu = 70000: from 576 to 65535"),
            std::string::npos);
  nlohmann::json none = bw_on_star("100mbit", "1500");
  none["context"].erase("tcp_stack");
  EXPECT_NE(error_of({{"lat.json", &kLat}, {"b.json", &none}}, LinkRateFrom::automatic)
                .find("b.json: context.tcp_stack.interfaces: missing"),
            std::string::npos);
  // The bw run alone does not read the description.
  EXPECT_EQ(error_of({{"lat.json", &kLat}, {"b.json", &none}}, LinkRateFrom::bw), "(no error)");
}

}  // namespace
}  // namespace dlcnet::model

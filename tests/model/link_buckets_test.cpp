// Token buckets on the model's links (model/link_buckets.hpp) against cases computed by hand:
// rate B = 1e9 B/s, burst V = 4e9 B/s, a bucket of D = 3e5 B on every link, S = 1e6 B.
#include "model/link_buckets.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/error.hpp"

#include "model/network.hpp"
#include "model/predict.hpp"
#include "tests/model/model_test_support.hpp"

namespace dlcnet::model {
namespace {

using namespace dlcnet::model::testing;

constexpr double kBurst = 4e9, kDepth = 3e5;

Calibration bucket_calibration() {
  Calibration c = plain_calibration();
  c.bucket_bytes = kDepth;
  c.burst_rate_Bps = kBurst;
  return c;
}

// A flow alone from a full bucket: at V until the bucket is dry, D / (V - B) = 0.1 ms, having
// sent V x 0.1 ms = 4e5 B; the other 6e5 B at B: 0.6 ms. 0.7 ms in all instead of 1 ms.
constexpr double kDry = kDepth / (kBurst - kRate);
constexpr double kAlone = kDry + (kS - kBurst * kDry) / kRate;

TEST(ModelLinkBuckets, AFlowAloneBurstsThenRunsAtTheRate) {
  const Calibration c = bucket_calibration();
  const Prediction p = predict(uniform_network(2, c), c, std::vector<Message>{msg(0, 1, kS)});
  expect_time(p.messages[0].sent_s, kAlone);
  expect_time(p.messages[0].finish_s, kAlone + kLatency);
  // A message within the burst: all at V.
  const Prediction q = predict(uniform_network(2, c), c, std::vector<Message>{msg(0, 1, 2e5)});
  expect_time(q.messages[0].sent_s, 2e5 / kBurst);
}

TEST(ModelLinkBuckets, AnIdleLinkRefillsAtItsRate) {
  // The second message starts 0.1 ms after the first is done: the bucket gained B x 0.1 ms =
  // 1e5 B, dry after 1e5 / 3e9 s, having sent 4e9 x that; the rest at B.
  const Calibration c = bucket_calibration();
  const double gap = 1e-4, second = kAlone + gap;
  const Prediction p =
      predict(uniform_network(2, c), c, std::vector<Message>{msg(0, 1, kS), msg(0, 1, kS, second)});
  const double dry = 1e5 / (kBurst - kRate);
  expect_time(p.messages[1].sent_s, second + dry + (kS - kBurst * dry) / kRate);
}

TEST(ModelLinkBuckets, FlowsIntoOneLinkShareItsBurst) {
  // Two flows into host 0 (their up links' buckets are their own): the down link offers V
  // while its bucket lasts, 2e9 each, dry after D / (V - B); then B / 2 each.
  const Calibration c = bucket_calibration();
  const Prediction p =
      predict(uniform_network(3, c), c, std::vector<Message>{msg(1, 0, kS), msg(2, 0, kS)});
  const double each = kS - kBurst / 2 * kDry;
  for (const MessageTimes& t : p.messages) expect_time(t.sent_s, kDry + each / (kRate / 2));
}

TEST(ModelLinkBuckets, NoBucketNoChange) {
  const Calibration c = plain_calibration();
  const Prediction p = predict(uniform_network(2, c), c, std::vector<Message>{msg(0, 1, kS)});
  expect_time(p.messages[0].sent_s, sb(1));
  LinkBuckets none(std::vector<double>{1e9}, std::vector<double>{0}, 4e9);
  EXPECT_FALSE(none.any());
  // A burst rate not above the link's rate is no bucket either.
  LinkBuckets slow(std::vector<double>{1e9}, std::vector<double>{1e5}, 1e9);
  EXPECT_FALSE(slow.any());
}

TEST(ModelLinkBuckets, TheCalibrationCarriesTheBucket) {
  const Calibration c = calibration_from_json(to_json(bucket_calibration()), "c.json");
  EXPECT_DOUBLE_EQ(c.bucket_bytes, kDepth);
  EXPECT_DOUBLE_EQ(c.burst_rate_Bps, kBurst);
  EXPECT_FALSE(to_json(plain_calibration()).contains("bucket"));
  const auto error_of = [](const char* bucket) -> std::string {
    try {
      calibration_from_json(
          nlohmann::json::parse(std::string(R"({"link_rate_Bps": 1e9, "base_latency_s": 1e-6, )") +
                                R"("bucket": )" + bucket + "}"),
          "b.json");
    } catch (const Error& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_NE(
      error_of(R"({"bytes": -1, "burst_rate_Bps": 4e9})").find("b.json: calibration: \"bytes\""),
      std::string::npos);
  EXPECT_NE(error_of(R"({"bytes": 1e5})").find("missing key \"burst_rate_Bps\""),
            std::string::npos);
  EXPECT_NE(error_of("[]").find("\"bucket\" is not an object"), std::string::npos);
}

}  // namespace
}  // namespace dlcnet::model

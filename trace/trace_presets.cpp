// Built-in models for dlc-trace synth, and model files. The parameter lists follow MXNet's
// example/image-classification/symbols (lenet.py; resnet.py, version 2, 50 layers, ImageNet,
// 1000 classes) in argument order, which is the order of the kvstore keys.
#include <fstream>

#include "core/error.hpp"
#include "core/units.hpp"
#include "trace/trace_synth.hpp"
#include "trace/trace_text.hpp"

namespace dlcnet::trace {
namespace {

constexpr uint64_t kFloat = 4;

ModelSpec lenet5() {
  ModelSpec m{"lenet5", {}, 73};  // 73 B: the smallest message of the published LeNet-5 trace
  auto add = [&](std::string name, uint64_t elems) { m.params.push_back({name, elems * kFloat}); };
  add("conv1_weight", 20 * 1 * 5 * 5);
  add("conv1_bias", 20);
  add("conv2_weight", 50 * 20 * 5 * 5);
  add("conv2_bias", 50);
  add("fc1_weight", 500 * 800);  // 1.6 MB: the largest message
  add("fc1_bias", 500);
  add("fc2_weight", 10 * 500);
  add("fc2_bias", 10);
  return m;
}

ModelSpec resnet50() {
  ModelSpec m{"resnet50", {}, 47};  // 47 B: the smallest message of the published trace
  auto add = [&](const std::string& name, uint64_t elems) {
    m.params.push_back({name, elems * kFloat});
  };
  auto bn = [&](const std::string& name, uint64_t channels) {
    add(name + "_gamma", channels);
    add(name + "_beta", channels);
  };
  bn("bn_data", 3);
  add("conv0_weight", 64 * 3 * 7 * 7);
  bn("bn0", 64);
  const uint64_t filters[] = {256, 512, 1024, 2048};
  const int units[] = {3, 4, 6, 3};
  uint64_t in = 64;
  for (int stage = 0; stage < 4; ++stage) {
    const uint64_t out = filters[stage];
    const uint64_t mid = out / 4;
    for (int unit = 0; unit < units[stage]; ++unit) {
      const std::string p =
          "stage" + std::to_string(stage + 1) + "_unit" + std::to_string(unit + 1);
      bn(p + "_bn1", in);
      add(p + "_conv1_weight", mid * in);
      bn(p + "_bn2", mid);
      add(p + "_conv2_weight", mid * mid * 3 * 3);  // 512x512x3x3: 9.44 MB, the largest
      bn(p + "_bn3", mid);
      add(p + "_conv3_weight", out * mid);
      if (unit == 0) add(p + "_sc_weight", out * in);
      in = out;
    }
  }
  bn("bn1", 2048);
  add("fc1_weight", 1000 * 2048);
  add("fc1_bias", 1000);
  return m;
}

}  // namespace

std::vector<std::string> preset_names() {
  return {"lenet5", "resnet50"};
}

ModelSpec preset_model(std::string_view name) {
  if (name == "lenet5" || name == "lenet") return lenet5();
  if (name == "resnet50") return resnet50();
  throw Error("unknown model '" + std::string(name) +
              "': the presets are lenet5 and resnet50 (or give --model-file / --sizes)");
}

ModelSpec read_model_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw_errno("cannot open model file " + path);
  ModelSpec m{path, {}, 64};
  std::string line;
  uint32_t ln = 0;
  while (std::getline(in, line)) {
    ++ln;
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    Tokenizer t(line);
    std::string_view a;
    std::string_view b;
    if (!t.next(a)) continue;
    const bool named = t.next(b);
    const std::string where = path + ":" + std::to_string(ln);
    m.params.push_back({named ? std::string(a) : "key" + std::to_string(m.params.size()),
                        parse_size(named ? b : a, where)});
  }
  if (m.params.empty()) throw Error(path + ": no parameter sizes in the model file");
  return m;
}

ModelSpec model_from_sizes(std::string_view list) {
  ModelSpec m{"sizes", {}, 64};
  while (!list.empty()) {
    const size_t comma = list.find(',');
    const std::string_view item = Tokenizer(list.substr(0, comma)).rest();
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (item.empty()) continue;
    m.params.push_back({"key" + std::to_string(m.params.size()), parse_size(item, "--sizes")});
  }
  if (m.params.empty()) throw Error("--sizes: no parameter sizes given");
  return m;
}

}  // namespace dlcnet::trace

// The one JSON reader of dlc-compare's inputs (calibrations, dlc-bench lat/bw and fan-in
// reports): every nlohmann exception and stream error becomes an Error naming the file, the
// line and column, and the key or index where the parser stopped, e.g.
//   cal.json:3:22: base_latency_s: number overflow parsing '1e400'
//   fan.json:1:40: qdisc.series.t_s[2]: syntax error while parsing value - invalid literal
// so that no input ends in std::terminate (an uncaught out_of_range or ios_failure).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "core/error.hpp"
#include "core/input_file.hpp"

namespace dlcnet {

// Parses `text`, the whole of `file`. Throws Error as above.
nlohmann::json parse_json(std::string_view text, const std::string& file);
// Reads what is left of `in` and parses it.
nlohmann::json read_json(InputFile& in);
// Opens `path` (InputFile: refused when a directory; `what` names what it should hold, "the
// calibration") and parses it.
nlohmann::json read_json_file(const std::string& path, const std::string& what);

// Runs `interpret(doc)`: an nlohmann exception it lets through (a type error from get<>, an
// out_of_range from at()) becomes an Error naming `file`, so that a reader that forgot a check
// still names the file instead of aborting.
template <typename F>
auto interpret_json(const std::string& file, F&& interpret) {
  try {
    return std::forward<F>(interpret)();
  } catch (const nlohmann::json::exception& e) {
    throw Error(file + ": " + e.what());
  }
}

}  // namespace dlcnet

// dlc-bench's command line, parsed and validated into plain data.
#pragma once

#include <optional>
#include <string>

#include "core/transport.hpp"
#include "patterns/bench_spec.hpp"

namespace dlcnet::bench {

struct Options {
  BenchSpec spec;
  TransportOptions transport;
  std::string transport_kind = "auto";
  std::string server;  // empty: this is the server
  uint16_t port = 18515;
  bool loopback = false;
  std::string json_path;
  std::string records_path;
  uint16_t wire_version = 0;  // hidden: speak another wire version (tests)
};

// Parses argv. Returns the options, or an exit code when the program should stop (--help: 0;
// bad usage: 2, with the message already printed on stderr naming the option).
struct ParseResult {
  std::optional<Options> options;
  int exit_code = 0;
};
ParseResult parse_options(int argc, const char* const* argv);

}  // namespace dlcnet::bench

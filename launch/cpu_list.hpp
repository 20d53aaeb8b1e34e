// --cpu auto|none|LIST, parsed: where a rank's thread is to run (launch/cpu_binding.hpp binds it).
#pragma once

#include <string>
#include <vector>

namespace dlcnet {

struct CpuRequest {
  enum class Mode { automatic, none, list };
  Mode mode = Mode::automatic;
  std::vector<unsigned> cpus;  // list: OS CPU numbers, ascending, no duplicates
  std::string text;            // as given
};

// The problem with `text` ("" when it is auto, none or a list such as 0-3,8), naming --cpu.
std::string cpu_request_problem(const std::string& text);
// Throws Error with cpu_request_problem()'s text.
CpuRequest parse_cpu_request(const std::string& text);

// "0-3,8": the compact form of an ascending CPU list.
std::string format_cpu_list(const std::vector<unsigned>& cpus);

}  // namespace dlcnet

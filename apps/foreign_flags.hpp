// Flags users bring from the tools they know, refused with the meaning they have there: the
// ring refuses nccl-tests' flags it does not share (-d is a datatype there, not a device), lat
// and bw perftest's (-c is a connection type there, not a CPU). A flag that silently meant
// something else would measure another run than the one asked for.
#pragma once

#include <CLI/CLI.hpp>
#include <initializer_list>
#include <string>

namespace dlcnet::cli {

struct ForeignFlag {
  const char* name;     // "-d"
  bool takes_value;     // in the tool it comes from
  const char* meaning;  // "nccl-tests' datatype: dlc-bench ring sums float32 only"
};

inline void refuse_foreign_flags(CLI::App& app, const std::string& group,
                                 std::initializer_list<ForeignFlag> flags) {
  for (const ForeignFlag& f : flags) {
    const std::string name = f.name, what = std::string("refused: ") + f.meaning;
    auto refuse = [name, what](const auto&) { throw CLI::ValidationError(name, what); };
    CLI::Option* o = f.takes_value ? app.add_option_function<std::string>(name, refuse, what)
                                   : app.add_flag_function(name, refuse, what);
    o->group(group);
  }
}

}  // namespace dlcnet::cli

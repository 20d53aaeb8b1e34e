// The --version of every dlcnet tool: one text (project version, git commit, the transport
// libraries it was built against) and one flag, -V/--version, on a CLI11 app and its
// subcommands.
#pragma once

#include <string>
#include <string_view>

namespace CLI {
class App;
}

namespace dlcnet {

// "dlc-bench (dlcnet) 0.1.0", then the git commit when it was known at configure time, the
// UCX and libibverbs versions the build compiled against (pkg-config's), and the copyright
// and licence line.
std::string version_text(std::string_view tool);

// Adds -V/--version, printing version_text(tool), to `app` and to every subcommand it has
// now (so call it after adding them). `tool` is the program ("dlc-trace"), not the subcommand.
void add_version_flag(CLI::App& app, std::string_view tool);

}  // namespace dlcnet

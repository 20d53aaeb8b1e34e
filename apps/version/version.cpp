#include "apps/version/version.hpp"

#include <CLI/CLI.hpp>

namespace dlcnet {

std::string version_text(std::string_view tool) {
  std::string text = std::string(tool) + " (dlcnet) " + DLCNET_VERSION + "\n";
  const std::string commit = DLCNET_GIT_COMMIT;
  if (!commit.empty()) text += "git commit " + commit + "\n";
  text += "built against UCX " DLCNET_BUILT_UCX_VERSION ", libibverbs " DLCNET_BUILT_IBVERBS_VERSION
          "\n";
  text += "Copyright 2026 the dlcnet authors. Licence: Apache-2.0.";
  return text;
}

void add_version_flag(CLI::App& app, std::string_view tool) {
  const std::string text = version_text(tool);
  app.set_version_flag("-V,--version", text, "print the version and exit");
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    sub->set_version_flag("-V,--version", text, "print the version and exit");
  }
}

}  // namespace dlcnet

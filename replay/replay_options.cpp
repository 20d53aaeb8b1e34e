#include "replay/replay_options.hpp"

namespace dlcnet::replay {

const char* to_string(Mode m) noexcept {
  switch (m) {
    case Mode::dag:
      return "dag";
    case Mode::timed:
      return "timed";
    case Mode::asap:
      return "asap";
  }
  return "?";
}

const char* to_string(Transfer t) noexcept {
  return t == Transfer::write ? "write" : "send";
}

std::optional<Mode> mode_from_string(std::string_view s) noexcept {
  if (s == "dag") return Mode::dag;
  if (s == "timed") return Mode::timed;
  if (s == "asap") return Mode::asap;
  return std::nullopt;
}

std::optional<Transfer> transfer_from_string(std::string_view s) noexcept {
  if (s == "send") return Transfer::send;
  if (s == "write") return Transfer::write;
  return std::nullopt;
}

}  // namespace dlcnet::replay

// Errors raised during set-up. The datapath never throws; it returns Status.
#pragma once

#include <stdexcept>
#include <string>

namespace dlcnet {

// Every failure that reaches a user: the message names the object (device, file, rank), the
// call or field, and the cause.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A peer or a byte stream that is not what we expect (foreign bytes, another version).
class ProtocolError : public Error {
 public:
  using Error::Error;
};

// A wait that ran out of time.
class TimeoutError : public Error {
 public:
  using Error::Error;
};

// "Errno: N, text" for errno value `err`.
std::string errno_text(int err);

// Throws Error("<what>: <strerror(errno)>") with the current errno.
[[noreturn]] void throw_errno(const std::string& what);

}  // namespace dlcnet

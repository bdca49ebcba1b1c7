// Internal helpers shared by the decoders: request checks and error messages. Every message
// starts with the encoding's name ("PLAIN: ...") so an error says which decoder refused what.
#pragma once

#include <cstdint>
#include <string>

#include "pqsift/status.h"

namespace pqsift::encoding {

// OK when n values may be taken from a page with `left` values left; InvalidArgument for a
// negative n, Corruption for n > left.
Status CheckRequest(const char* encoding, int64_t n, int64_t left);

// Corruption("<encoding>: <what>").
Status Corrupt(const char* encoding, const std::string& what);

}  // namespace pqsift::encoding

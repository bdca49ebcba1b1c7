// The metadata encoder (src/format/metadata_encoder.h) under the names the tests use.
#pragma once

#include "format/metadata_encoder.h"

namespace pqsift::testing {

using format::EncodeFooter;
using format::EncodeOptions;
using format::MetadataEncoder;

}  // namespace pqsift::testing

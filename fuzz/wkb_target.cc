// Target "wkb": the WKB walk and its two readers (src/geo): the input is one WKB value. A value
// that walks must render as WKT, summarize to an extent, and survive WKT -> WKB -> WKT
// (geo/wkt.h) as the same text; a value that does not walk must fail in every reader alike.
// Anything else traps.
#include <string>

#include "fuzz_targets.h"
#include "geo/extent.h"
#include "geo/wkb.h"
#include "geo/wkt.h"

namespace pqsift::fuzz {

void FuzzWkb(std::span<const uint8_t> input) {
  std::string wkt;
  const Status text = geo::AppendWkt(input, wkt);
  const bool summarized = geo::Summarize(input, false).ok();
  if (text.ok() != summarized) __builtin_trap();
  if (!text.ok()) return;
  std::string wkb;
  if (!geo::AppendWkbFromWkt(wkt, wkb).ok()) __builtin_trap();
  std::string again;
  const auto* bytes = reinterpret_cast<const uint8_t*>(wkb.data());
  if (!geo::AppendWkt({bytes, wkb.size()}, again).ok() || again != wkt) __builtin_trap();
}

}  // namespace pqsift::fuzz

// WKB to WKT (wkb.h).
#include "geo/wkb.h"

#include <vector>

#include "common/value_format.h"

namespace pqsift::geo {

const char* KindName(GeometryKind kind) {
  switch (kind) {
    case GeometryKind::kPoint: return "POINT";
    case GeometryKind::kLineString: return "LINESTRING";
    case GeometryKind::kPolygon: return "POLYGON";
    case GeometryKind::kMultiPoint: return "MULTIPOINT";
    case GeometryKind::kMultiLineString: return "MULTILINESTRING";
    case GeometryKind::kMultiPolygon: return "MULTIPOLYGON";
    case GeometryKind::kGeometryCollection: return "GEOMETRYCOLLECTION";
  }
  return "GEOMETRY";
}

std::string TypeCodeName(int32_t code) {
  const int32_t base = code % 1000;
  const int32_t dims = code / 1000;
  if (code < 0 || base < 1 || base > 7 || dims > 3) return "UNKNOWN(" + std::to_string(code) + ")";
  static constexpr const char* kSuffix[] = {"", " Z", " M", " ZM"};
  return std::string(KindName(static_cast<GeometryKind>(base))) + kSuffix[dims];
}

namespace {

// Writes WKT as the walk goes; a frame per open geometry says whether its parts are named
// (only inside a GEOMETRYCOLLECTION or at the top) and how many items it has written, for the
// separators.
class WktWriter {
 public:
  explicit WktWriter(std::string& out) : out_(out) {}

  void Begin(GeometryKind kind, Dims dims, uint32_t count) {
    const bool named = frames_.empty() || frames_.back().kind == GeometryKind::kGeometryCollection;
    if (!frames_.empty() && frames_.back().items++ > 0) out_ += ", ";
    if (named) {
      out_ += KindName(kind);
      if (dims.z && dims.m) {
        out_ += " ZM";
      } else if (dims.z) {
        out_ += " Z";
      } else if (dims.m) {
        out_ += " M";
      }
      out_ += ' ';
    }
    const bool empty = count == 0;
    out_ += empty ? "EMPTY" : "(";
    frames_.push_back({kind, empty, 0, dims.count()});
  }
  void Ring(uint32_t n) {
    if (frames_.back().items++ > 0) out_ += ", ";
    ring_points_ = 0;
    ring_empty_ = n == 0;
    out_ += ring_empty_ ? "EMPTY" : "(";
  }
  void EndRing() {
    if (!ring_empty_) out_ += ')';
  }
  bool Point(const double* c) {
    Frame& f = frames_.back();
    // Points of a ring are counted by the ring; of a LINESTRING by its frame.
    int64_t& n = f.kind == GeometryKind::kPolygon ? ring_points_ : f.items;
    if (n++ > 0) out_ += ", ";
    for (int j = 0; j < f.coords; ++j) {
      if (j > 0) out_ += ' ';
      AppendDouble(out_, c[j]);
    }
    return true;
  }
  void End() {
    if (!frames_.back().empty) out_ += ')';
    frames_.pop_back();
  }

 private:
  struct Frame {
    GeometryKind kind;
    bool empty;
    int64_t items;
    int coords;
  };
  std::string& out_;
  std::vector<Frame> frames_;
  int64_t ring_points_ = 0;
  bool ring_empty_ = false;
};

}  // namespace

Status AppendWkt(std::span<const uint8_t> wkb, std::string& out) {
  WktWriter writer(out);
  return WalkWkb(wkb, writer);
}

}  // namespace pqsift::geo

// Well-Known Binary (OGC Simple Features, ISO variant, as Geospatial.md requires), read by one
// bounds-checked walk that reports a geometry's structure to a visitor. Knows no Parquet.
//
// Accepted: both byte orders (per geometry, as the standard allows), the ISO type codes
// 1..7 + 1000 (Z) / 2000 (M) / 3000 (ZM), and the EWKB flags (0x80000000 Z, 0x40000000 M,
// 0x20000000 SRID, whose 4 bytes are skipped) that PostGIS-derived writers use. The parts of a
// MULTI* must be of its element kind and every part has its parent's dimensions. A POINT whose
// coordinates are all NaN is POINT EMPTY (the standard's convention).
//
// Hostile input: every count is checked against the bytes left before it is looped over (a
// point needs 8 bytes per dimension, a ring 4, a part 5), nesting is limited to kMaxDepth, and
// trailing bytes are an error; errors are Corruption naming the byte offset. Nothing is
// allocated. Thread-safe (no state outside the call).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "pqsift/status.h"

namespace pqsift::geo {

enum class GeometryKind : uint8_t {
  kPoint = 1,
  kLineString = 2,
  kPolygon = 3,
  kMultiPoint = 4,
  kMultiLineString = 5,
  kMultiPolygon = 6,
  kGeometryCollection = 7,
};

struct Dims {
  bool z = false;
  bool m = false;
  int count() const { return 2 + (z ? 1 : 0) + (m ? 1 : 0); }
  friend bool operator==(Dims, Dims) = default;
};

// The ISO WKB code: 1 (POINT) ... 7, plus 1000 for Z, 2000 for M, 3000 for ZM.
inline int32_t IsoTypeCode(GeometryKind kind, Dims dims) {
  return static_cast<int32_t>(kind) + (dims.z ? 1000 : 0) + (dims.m ? 2000 : 0);
}

// "POINT", "LINESTRING", ... "GEOMETRYCOLLECTION".
const char* KindName(GeometryKind kind);
// An ISO type code as text: 1 "POINT", 1003 "POLYGON Z", 3007 "GEOMETRYCOLLECTION ZM";
// "UNKNOWN(n)" for any other code.
std::string TypeCodeName(int32_t code);

inline constexpr int kMaxDepth = 32;

// The visitor's calls, in the order of the WKB:
//   Begin(kind, dims, count)  a geometry: count is its points (LINESTRING), rings (POLYGON),
//                             parts (MULTI*, GEOMETRYCOLLECTION), or 1/0 for a POINT (0: EMPTY)
//   Ring(n) ... EndRing()     a polygon's ring of n points
//   Point(xyzm)               one point's coordinates, dims.count() of them (x, y, then z, m)
//   End()                     the geometry ends
// A visitor may stop the walk early by returning false from Point (the walk then reports OK
// without checking the rest).
template <typename Visitor>
class WkbWalker {
 public:
  WkbWalker(std::span<const uint8_t> wkb, Visitor& visitor) : data_(wkb), v_(visitor) {}

  Status Walk() {
    if (data_.empty()) return Status::Corruption("WKB: empty value");
    PQSIFT_RETURN_IF_ERROR(Geometry(0, 0, Dims{}));
    if (!stopped_ && pos_ != data_.size()) {
      return Fail("trailing " + std::to_string(data_.size() - pos_) + " bytes");
    }
    return Status::OK();
  }

 private:
  Status Fail(const std::string& what) const {
    return Status::Corruption("WKB at byte " + std::to_string(pos_) + ": " + what);
  }
  size_t left() const { return data_.size() - pos_; }

  bool ReadU32(uint32_t& out) {
    if (left() < 4) return false;
    std::memcpy(&out, data_.data() + pos_, 4);
    if (big_endian_) out = __builtin_bswap32(out);
    pos_ += 4;
    return true;
  }
  double ReadDouble() {  // caller checked the bytes
    uint64_t bits;
    std::memcpy(&bits, data_.data() + pos_, 8);
    if (big_endian_) bits = __builtin_bswap64(bits);
    pos_ += 8;
    return std::bit_cast<double>(bits);
  }
  Status Count(uint32_t& n, size_t min_bytes_each, const char* what) {
    if (!ReadU32(n)) return Fail(std::string("truncated ") + what + " count");
    if (min_bytes_each > 0 && n > left() / min_bytes_each) {
      return Fail(std::string(what) + " count " + std::to_string(n) + " exceeds the " +
                  std::to_string(left()) + " bytes left");
    }
    return Status::OK();
  }
  // Reads `n` points of `dims`; false when the visitor stopped.
  bool Points(uint32_t n, Dims dims) {
    double c[4] = {0, 0, 0, 0};
    const int k = dims.count();
    for (uint32_t i = 0; i < n; ++i) {
      for (int j = 0; j < k; ++j) c[j] = ReadDouble();
      if (!v_.Point(c)) return false;
    }
    return true;
  }

  // One geometry; `expect` is the kind a MULTI* parent requires (0: any) and `parent_dims` the
  // dimensions a part must have (depth > 0).
  Status Geometry(int depth, int expect, Dims parent_dims) {
    if (depth > kMaxDepth) return Fail("nesting deeper than " + std::to_string(kMaxDepth));
    if (left() < 5) return Fail("truncated geometry header");
    const uint8_t order = data_[pos_];
    if (order > 1) return Fail("byte order " + std::to_string(order) + " (expected 0 or 1)");
    big_endian_ = order == 0;
    ++pos_;
    uint32_t code = 0;
    ReadU32(code);
    Dims dims;
    dims.z = (code & 0x80000000u) != 0;
    dims.m = (code & 0x40000000u) != 0;
    const bool srid = (code & 0x20000000u) != 0;
    uint32_t base = code & 0x0fffffffu;
    const uint32_t thousands = base / 1000;
    if (thousands > 3 || ((dims.z || dims.m) && thousands != 0)) {
      return Fail("geometry type " + std::to_string(code));
    }
    dims.z = dims.z || thousands == 1 || thousands == 3;
    dims.m = dims.m || thousands == 2 || thousands == 3;
    base %= 1000;
    if (base < 1 || base > 7) return Fail("geometry type " + std::to_string(code));
    const auto kind = static_cast<GeometryKind>(base);
    if (srid) {
      if (left() < 4) return Fail("truncated SRID");
      pos_ += 4;
    }
    if (expect != 0 && static_cast<int>(base) != expect) {
      return Fail(std::string("a ") + KindName(kind) + " inside a MULTI of another kind");
    }
    if (depth > 0 && dims != parent_dims) return Fail("a part with other dimensions");
    const size_t point_bytes = 8 * static_cast<size_t>(dims.count());
    switch (kind) {
      case GeometryKind::kPoint: {
        if (left() < point_bytes) return Fail("truncated point");
        bool empty = true;
        for (int j = 0; j < dims.count(); ++j) {
          uint64_t bits;
          std::memcpy(&bits, data_.data() + pos_ + 8 * static_cast<size_t>(j), 8);
          if (big_endian_) bits = __builtin_bswap64(bits);
          empty = empty && std::isnan(std::bit_cast<double>(bits));
        }
        v_.Begin(kind, dims, empty ? 0 : 1);
        if (empty) {
          pos_ += point_bytes;
        } else if (!Points(1, dims)) {
          return Stop();
        }
        v_.End();
        return Status::OK();
      }
      case GeometryKind::kLineString: {
        uint32_t n = 0;
        PQSIFT_RETURN_IF_ERROR(Count(n, point_bytes, "point"));
        v_.Begin(kind, dims, n);
        if (!Points(n, dims)) return Stop();
        v_.End();
        return Status::OK();
      }
      case GeometryKind::kPolygon: {
        uint32_t rings = 0;
        PQSIFT_RETURN_IF_ERROR(Count(rings, 4, "ring"));
        v_.Begin(kind, dims, rings);
        const bool order_be = big_endian_;
        for (uint32_t r = 0; r < rings; ++r) {
          big_endian_ = order_be;
          uint32_t n = 0;
          PQSIFT_RETURN_IF_ERROR(Count(n, point_bytes, "point"));
          v_.Ring(n);
          if (!Points(n, dims)) return Stop();
          v_.EndRing();
        }
        v_.End();
        return Status::OK();
      }
      default: {
        uint32_t parts = 0;
        PQSIFT_RETURN_IF_ERROR(Count(parts, 5, "part"));
        v_.Begin(kind, dims, parts);
        int part_kind = kind == GeometryKind::kGeometryCollection ? 0 : static_cast<int>(base) - 3;
        for (uint32_t p = 0; p < parts; ++p) {
          PQSIFT_RETURN_IF_ERROR(Geometry(depth + 1, part_kind, dims));
          if (stopped_) return Status::OK();
        }
        v_.End();
        return Status::OK();
      }
    }
  }
  Status Stop() {
    stopped_ = true;
    return Status::OK();
  }

  std::span<const uint8_t> data_;
  Visitor& v_;
  size_t pos_ = 0;
  bool big_endian_ = false;
  bool stopped_ = false;
};

template <typename Visitor>
Status WalkWkb(std::span<const uint8_t> wkb, Visitor& visitor) {
  return WkbWalker<Visitor>(wkb, visitor).Walk();
}

// The geometry as WKT (`POINT (30 10)`, `LINESTRING Z (...)`, `POLYGON EMPTY`, parts of a
// MULTI* without their type name, coordinates in their shortest round-trip form), appended to
// `out`. On error `out` may hold a partial text.
Status AppendWkt(std::span<const uint8_t> wkb, std::string& out);

}  // namespace pqsift::geo

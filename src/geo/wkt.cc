// WKT to WKB (wkt.h): a recursive descent over the text, writing WKB as it goes and patching
// each count once its elements are known.
#include "geo/wkt.h"

#include <bit>
#include <cctype>
#include <charconv>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "geo/wkb.h"

namespace pqsift::geo {
namespace {

class WktParser {
 public:
  WktParser(std::string_view text, std::string& out) : s_(text), out_(out) {}

  Status Parse() {
    Skip();
    if (StartsWithWord("SRID=")) {
      size_t semi = s_.find(';', pos_);
      if (semi == std::string_view::npos) return Fail("an SRID= prefix without ';'");
      pos_ = semi + 1;
    }
    PQSIFT_RETURN_IF_ERROR(Geometry(0));
    Skip();
    if (pos_ != s_.size()) return Fail("unexpected text after the geometry");
    return Status::OK();
  }

 private:
  Status Fail(const std::string& what) const {
    return Status::InvalidArgument("WKT at character " + std::to_string(pos_) + ": " + what);
  }
  void Skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool StartsWithWord(std::string_view w) const {
    if (s_.size() - pos_ < w.size()) return false;
    for (size_t i = 0; i < w.size(); ++i) {
      if (std::toupper(static_cast<unsigned char>(s_[pos_ + i])) != w[i]) return false;
    }
    return true;
  }
  std::string Word() {
    Skip();
    std::string w;
    while (pos_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[pos_]))) {
      w += static_cast<char>(std::toupper(static_cast<unsigned char>(s_[pos_++])));
    }
    return w;
  }
  bool Accept(char c) {
    Skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  Status Expect(char c) {
    if (!Accept(c)) return Fail(std::string("expected '") + c + "'");
    return Status::OK();
  }
  bool AcceptEmpty() {
    Skip();
    size_t save = pos_;
    if (Word() == "EMPTY") return true;
    pos_ = save;
    return false;
  }

  void PutU32(uint32_t v) { out_.append(reinterpret_cast<const char*>(&v), 4); }
  void PutDouble(double v) { out_.append(reinterpret_cast<const char*>(&v), 8); }
  void PatchU32(size_t at, uint32_t v) { std::memcpy(out_.data() + at, &v, 4); }
  void Header(GeometryKind kind) {
    out_ += '\x01';  // little-endian (pqsift builds on little-endian machines only)
    PutU32(static_cast<uint32_t>(IsoTypeCode(kind, dims_)));
  }

  Status Number(double& v) {
    Skip();
    const char* b = s_.data() + pos_;
    const char* e = s_.data() + s_.size();
    if (b < e && *b == '+') ++b;
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec != std::errc()) return Fail("expected a number");
    pos_ = static_cast<size_t>(p - s_.data());
    return Status::OK();
  }
  // One coordinate tuple; the first of the top-level geometry fixes the dimensions when no tag
  // did.
  Status Coordinates() {
    double c[4] = {0, 0, 0, 0};
    int n = 0;
    for (; n < 4; ++n) {
      Skip();
      if (pos_ >= s_.size() || s_[pos_] == ',' || s_[pos_] == ')') break;
      PQSIFT_RETURN_IF_ERROR(Number(c[n]));
    }
    if (!dims_known_) {
      if (n < 2) return Fail("a point needs at least two coordinates");
      dims_.z = n >= 3;
      dims_.m = n == 4;
      dims_known_ = true;
      PatchDims();
    }
    if (n != dims_.count()) {
      return Fail("a point with " + std::to_string(n) + " coordinates where " +
                  std::to_string(dims_.count()) + " are expected");
    }
    for (int j = 0; j < n; ++j) PutDouble(c[j]);
    return Status::OK();
  }
  // Type codes written before the dimensions were known are fixed up once they are.
  void PatchDims() {
    for (auto [at, kind] : pending_headers_) {
      PatchU32(at, static_cast<uint32_t>(IsoTypeCode(kind, dims_)));
    }
    pending_headers_.clear();
  }
  void HeaderTracked(GeometryKind kind) {
    Header(kind);
    if (!dims_known_) pending_headers_.push_back({out_.size() - 4, kind});
  }

  // '(' tuple {',' tuple} ')' -> count + points
  Status PointList() {
    const size_t count_at = out_.size();
    PutU32(0);
    uint32_t n = 0;
    PQSIFT_RETURN_IF_ERROR(Expect('('));
    do {
      PQSIFT_RETURN_IF_ERROR(Coordinates());
      ++n;
    } while (Accept(','));
    PQSIFT_RETURN_IF_ERROR(Expect(')'));
    PatchU32(count_at, n);
    return Status::OK();
  }
  Status EmptyPoint() {
    for (int j = 0; j < dims_.count(); ++j) PutDouble(std::numeric_limits<double>::quiet_NaN());
    return Status::OK();
  }
  // The body of `kind` after its header: EMPTY handled by the caller.
  Status Body(GeometryKind kind, int depth) {
    switch (kind) {
      case GeometryKind::kPoint: {
        PQSIFT_RETURN_IF_ERROR(Expect('('));
        PQSIFT_RETURN_IF_ERROR(Coordinates());
        return Expect(')');
      }
      case GeometryKind::kLineString: return PointList();
      case GeometryKind::kPolygon: {
        const size_t count_at = out_.size();
        PutU32(0);
        uint32_t n = 0;
        PQSIFT_RETURN_IF_ERROR(Expect('('));
        do {
          if (AcceptEmpty()) {
            PutU32(0);
          } else {
            PQSIFT_RETURN_IF_ERROR(PointList());
          }
          ++n;
        } while (Accept(','));
        PQSIFT_RETURN_IF_ERROR(Expect(')'));
        PatchU32(count_at, n);
        return Status::OK();
      }
      default: {
        const size_t count_at = out_.size();
        PutU32(0);
        uint32_t n = 0;
        PQSIFT_RETURN_IF_ERROR(Expect('('));
        do {
          if (kind == GeometryKind::kGeometryCollection) {
            PQSIFT_RETURN_IF_ERROR(Geometry(depth + 1));
          } else {
            const auto part = static_cast<GeometryKind>(static_cast<int>(kind) - 3);
            PQSIFT_RETURN_IF_ERROR(Part(part, depth + 1));
          }
          ++n;
        } while (Accept(','));
        PQSIFT_RETURN_IF_ERROR(Expect(')'));
        PatchU32(count_at, n);
        return Status::OK();
      }
    }
  }
  // A part of a MULTI*: no type name; a MULTIPOINT's point may lack its parentheses.
  Status Part(GeometryKind kind, int depth) {
    if (depth > kMaxDepth) return Fail("nesting too deep");
    HeaderTracked(kind);
    if (AcceptEmpty()) return EmptyBody(kind);
    if (kind == GeometryKind::kPoint) {
      Skip();
      if (pos_ < s_.size() && s_[pos_] != '(') return Coordinates();
    }
    return Body(kind, depth);
  }
  Status EmptyBody(GeometryKind kind) {
    if (!dims_known_) {  // nothing tagged and no point yet: XY, as AppendWkt writes it
      dims_known_ = true;
      PatchDims();
    }
    if (kind == GeometryKind::kPoint) return EmptyPoint();
    PutU32(0);
    return Status::OK();
  }
  Status Geometry(int depth) {
    if (depth > kMaxDepth) return Fail("nesting too deep");
    const std::string name = Word();
    static constexpr std::string_view kNames[] = {
        "POINT",           "LINESTRING",   "POLYGON",           "MULTIPOINT",
        "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"};
    int k = 0;
    while (k < 7 && kNames[k] != name) ++k;
    if (k == 7) return Fail(name.empty() ? "expected a geometry type" : "unknown type " + name);
    const auto kind = static_cast<GeometryKind>(k + 1);
    // The dimension tag: Z, M or ZM, a word of its own.
    size_t save = pos_;
    std::string tag = Word();
    Dims tagged;
    bool has_tag = tag == "Z" || tag == "M" || tag == "ZM";
    if (has_tag) {
      tagged.z = tag != "M";
      tagged.m = tag != "Z";
    } else {
      pos_ = save;
    }
    if (depth == 0) {
      if (has_tag) {
        dims_ = tagged;
        dims_known_ = true;
      } else {
        // Without a tag: EMPTY is 2D, else the first point decides.
        dims_known_ = false;
      }
    } else if (has_tag && dims_known_ && tagged != dims_) {
      return Fail("a part with other dimensions");
    } else if (has_tag && !dims_known_) {
      dims_ = tagged;
      dims_known_ = true;
      PatchDims();
    }
    const bool empty = AcceptEmpty();
    if (empty && !dims_known_) {
      dims_known_ = true;  // an untagged EMPTY is XY
      PatchDims();
    }
    HeaderTracked(kind);
    if (empty) return EmptyBody(kind);
    return Body(kind, depth);
  }

  std::string_view s_;
  std::string& out_;
  size_t pos_ = 0;
  Dims dims_;
  bool dims_known_ = false;
  std::vector<std::pair<size_t, GeometryKind>> pending_headers_;
};

}  // namespace

Status AppendWkbFromWkt(std::string_view wkt, std::string& out) {
  static_assert(std::endian::native == std::endian::little);
  return WktParser(wkt, out).Parse();
}

}  // namespace pqsift::geo

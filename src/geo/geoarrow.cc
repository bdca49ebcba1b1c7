// geoarrow.wkb metadata (geoarrow.h).
#include "geo/geoarrow.h"

#include <cstdio>
#include <mutex>
#include <set>

namespace pqsift::geo {
namespace {

void AppendJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

// The value of "key" in a flat JSON object of strings, unescaped; nullopt when absent.
std::optional<std::string> StringMember(std::string_view json, std::string_view key) {
  const std::string needle = "\"" + std::string(key) + "\"";
  size_t at = json.find(needle);
  if (at == std::string_view::npos) return std::nullopt;
  at = json.find(':', at + needle.size());
  if (at == std::string_view::npos) return std::nullopt;
  at = json.find('"', at);
  if (at == std::string_view::npos) return std::nullopt;
  std::string out;
  for (size_t i = at + 1; i < json.size(); ++i) {
    if (json[i] == '"') return out;
    if (json[i] == '\\' && i + 1 < json.size()) {
      ++i;
      if (json[i] == 'u') return std::nullopt;  // not written by GeoArrowMetadata for text
    }
    out += json[i];
  }
  return std::nullopt;
}

}  // namespace

std::string GeoArrowMetadata(std::string_view crs, std::optional<int32_t> edge_algorithm) {
  std::string out = "{\"crs\":";
  if (crs.empty() || crs == "OGC:CRS84") {
    out += "\"OGC:CRS84\",\"crs_type\":\"authority_code\"";
  } else if (crs.starts_with("srid:")) {
    AppendJsonString(out, crs.substr(5));
    out += ",\"crs_type\":\"srid\"";
  } else {
    AppendJsonString(out, crs);
  }
  if (edge_algorithm) {
    static constexpr const char* kEdges[] = {"spherical", "vincenty", "thomas", "andoyer",
                                             "karney"};
    const int32_t a = *edge_algorithm;
    out += ",\"edges\":";
    AppendJsonString(out, a >= 0 && a < 5 ? kEdges[a] : "spherical");
  }
  out += '}';
  return out;
}

std::string_view InternCrs(std::string_view crs) {
  if (crs.empty()) return {};
  static std::mutex mutex;
  static std::set<std::string, std::less<>> strings;
  std::lock_guard lock(mutex);
  auto it = strings.find(crs);
  if (it == strings.end()) it = strings.emplace(crs).first;
  return *it;
}

bool HasCurvedEdges(std::string_view metadata) {
  std::optional<std::string> edges = StringMember(metadata, "edges");
  return edges && *edges != "planar";
}

std::string ParquetCrsFromGeoArrow(std::string_view metadata) {
  std::optional<std::string> crs = StringMember(metadata, "crs");
  if (!crs || *crs == "OGC:CRS84") return {};
  std::optional<std::string> type = StringMember(metadata, "crs_type");
  if (type && *type == "srid") return "srid:" + *crs;
  return *crs;
}

}  // namespace pqsift::geo

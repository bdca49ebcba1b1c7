#include "io/s3_listing.h"

#include <charconv>
#include <ctime>

namespace pqsift::io {
namespace {

// The text of the first <tag>...</tag> inside `xml` (raw, entities not decoded).
bool Element(std::string_view xml, std::string_view tag, std::string_view* out) {
  std::string open = "<" + std::string(tag) + ">";
  std::string close = "</" + std::string(tag) + ">";
  size_t start = xml.find(open);
  if (start == std::string_view::npos) return false;
  start += open.size();
  size_t end = xml.find(close, start);
  if (end == std::string_view::npos) return false;
  *out = xml.substr(start, end - start);
  return true;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

bool Decode(std::string_view in, std::string* out) {
  out->clear();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '&') {
      out->push_back(in[i]);
      continue;
    }
    size_t semi = in.find(';', i);
    if (semi == std::string_view::npos || semi - i > 12) return false;
    std::string_view entity = in.substr(i + 1, semi - i - 1);
    if (entity == "amp") {
      out->push_back('&');
    } else if (entity == "lt") {
      out->push_back('<');
    } else if (entity == "gt") {
      out->push_back('>');
    } else if (entity == "quot") {
      out->push_back('"');
    } else if (entity == "apos") {
      out->push_back('\'');
    } else if (entity.size() > 1 && entity[0] == '#') {
      bool hex = entity[1] == 'x' || entity[1] == 'X';
      std::string_view digits = entity.substr(hex ? 2 : 1);
      uint32_t cp = 0;
      auto [end, ec] =
          std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
      if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() ||
          cp > 0x10FFFF || cp == 0) {
        return false;
      }
      AppendUtf8(cp, out);
    } else {
      return false;
    }
    i = semi;
  }
  return true;
}

}  // namespace

int64_t ParseIsoTime(std::string_view text) {
  std::tm tm{};
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  // "YYYY-MM-DDTHH:MM:SS", each field at its place.
  auto field = [&](size_t at, size_t width, int* out) {
    const char* end = text.data() + at + width;
    auto [stop, ec] = std::from_chars(text.data() + at, end, *out);
    return ec == std::errc() && stop == end;
  };
  if (text.size() < 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':') {
    return 0;
  }
  if (!field(0, 4, &y) || !field(5, 2, &mo) || !field(8, 2, &d) || !field(11, 2, &h) ||
      !field(14, 2, &mi) || !field(17, 2, &s)) {
    return 0;
  }
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  int64_t nanos = 0;
  if (text.size() > 20 && text[19] == '.') {
    int64_t scale = 100'000'000;
    for (size_t i = 20;
         i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && scale > 0;
         ++i, scale /= 10) {
      nanos += (text[i] - '0') * scale;
    }
  }
  return static_cast<int64_t>(timegm(&tm)) * 1'000'000'000 + nanos;
}

std::string UriEncode(std::string_view s, bool keep_slash) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_' || c == '.' || c == '~' || (keep_slash && c == '/');
    if (unreserved) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

Result<S3ListPage> ParseListObjectsV2(std::string_view xml, std::string_view where) {
  auto bad = [&](const std::string& what) {
    return Status::Corruption(std::string(where) + ": malformed ListObjectsV2 response: " + what);
  };
  if (xml.find("<ListBucketResult") == std::string_view::npos) {
    return bad("no ListBucketResult");
  }
  S3ListPage page;
  size_t pos = 0;
  for (;;) {
    size_t start = xml.find("<Contents>", pos);
    if (start == std::string_view::npos) break;
    size_t end = xml.find("</Contents>", start);
    if (end == std::string_view::npos) return bad("unterminated Contents");
    std::string_view item = xml.substr(start, end - start);
    pos = end + 11;
    S3Object o;
    std::string_view key, size, etag, modified;
    if (!Element(item, "Key", &key) || !Decode(key, &o.key) || o.key.empty()) {
      return bad("an object without a readable Key");
    }
    if (!Element(item, "Size", &size)) return bad("no Size for " + o.key);
    auto [send, sec] = std::from_chars(size.data(), size.data() + size.size(), o.size);
    if (size.empty() || sec != std::errc() || send != size.data() + size.size()) {
      return bad("Size '" + std::string(size.substr(0, 32)) + "' of " + o.key);
    }
    if (Element(item, "ETag", &etag) && !Decode(etag, &o.etag)) return bad("ETag of " + o.key);
    if (Element(item, "LastModified", &modified)) o.mtime_ns = ParseIsoTime(modified);
    page.objects.push_back(std::move(o));
  }
  // The flags outside the objects: look after the last Contents (or anywhere when none).
  std::string_view rest = xml;
  std::string_view truncated;
  if (Element(rest, "IsTruncated", &truncated)) page.truncated = truncated == "true";
  std::string_view token;
  if (page.truncated) {
    if (!Element(rest, "NextContinuationToken", &token) || !Decode(token, &page.next_token) ||
        page.next_token.empty()) {
      return bad("truncated without a NextContinuationToken");
    }
  }
  return page;
}

}  // namespace pqsift::io

#include "format/page_index.h"

#include <string>

#include "format/thrift_decoder.h"

namespace pqsift::format {
namespace {

using thrift::CType;
using thrift::FieldHeader;

// Page indexes can be large (one entry per page); allow generous but bounded decoding.
size_t BudgetFor(std::span<const uint8_t> bytes) { return bytes.size() * 64 + (1u << 16); }

void DecodePageLocation(ThriftDecoder& d, PageLocation& out) {
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.reader.ReadField(f, out.offset)) req.Set(0);
        return true;
      case 2:
        if (d.reader.ReadField(f, out.compressed_page_size)) req.Set(1);
        return true;
      case 3:
        if (d.reader.ReadField(f, out.first_row_index)) req.Set(2);
        return true;
      default: return false;
    }
  });
  if (d.reader.ok())
    req.Check(d, "PageLocation", {"offset", "compressed_page_size", "first_row_index"});
}

// `out` is a std::vector<int64_t> or an optional one (set only when the field is a list).
template <typename Out>
void DecodeI64List(ThriftDecoder& d, const FieldHeader& f, Out& out) {
  d.ReadListInto(f, CType::kI64, out, [&](int64_t& v) { v = d.reader.ReadVarintElement(); });
}

}  // namespace

Status DecodeOffsetIndex(std::span<const uint8_t> bytes, OffsetIndex& out) {
  ThriftDecoder d(bytes, BudgetFor(bytes));
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.ReadListInto(f, CType::kStruct, out.page_locations,
                           [&](PageLocation& p) { DecodePageLocation(d, p); })) {
          req.Set(0);
        }
        return true;
      case 2: DecodeI64List(d, f, out.unencoded_byte_array_data_bytes); return true;
      default: return false;
    }
  });
  if (d.reader.ok()) req.Check(d, "OffsetIndex", {"page_locations"});
  if (!d.reader.ok()) return Status::Corruption("malformed offset index: " + d.reader.error());
  for (size_t i = 0; i < out.page_locations.size(); ++i) {
    const PageLocation& p = out.page_locations[i];
    if (p.offset < 0 || p.compressed_page_size < 0 || p.first_row_index < 0 ||
        (i > 0 && p.first_row_index <= out.page_locations[i - 1].first_row_index)) {
      return Status::Corruption("offset index: page " + std::to_string(i) +
                                " has a negative location or a first_row_index that does not "
                                "increase");
    }
  }
  return Status::OK();
}

Status DecodeColumnIndex(std::span<const uint8_t> bytes, ColumnIndex& out) {
  ThriftDecoder d(bytes, BudgetFor(bytes));
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1: {
        if (!d.reader.AcceptField(f, CType::kList)) return true;
        thrift::ListHeader h = d.reader.ReadListHeader(f, CType::kBoolTrue);
        out.null_pages.reserve(h.size);
        for (uint32_t i = 0; i < h.size && d.reader.ok(); ++i) {
          out.null_pages.push_back(d.reader.ReadBoolElement());
        }
        req.Set(0);
        return true;
      }
      case 2:
      case 3:
        if (d.ReadListInto(f, CType::kBinary, f.id == 2 ? out.min_values : out.max_values,
                           [&](std::string_view& s) { s = d.reader.ReadBinaryElement(); })) {
          req.Set(f.id - 1);
        }
        return true;
      case 4:
        if (d.reader.ReadField(f, out.boundary_order)) req.Set(3);
        return true;
      case 5: DecodeI64List(d, f, out.null_counts); return true;
      case 6: DecodeI64List(d, f, out.repetition_level_histograms); return true;
      case 7: DecodeI64List(d, f, out.definition_level_histograms); return true;
      case 8: DecodeI64List(d, f, out.nan_counts); return true;
      default: return false;
    }
  });
  if (d.reader.ok()) {
    req.Check(d, "ColumnIndex", {"null_pages", "min_values", "max_values", "boundary_order"});
  }
  if (!d.reader.ok()) return Status::Corruption("malformed column index: " + d.reader.error());
  size_t pages = out.null_pages.size();
  bool consistent = out.min_values.size() == pages && out.max_values.size() == pages &&
                    (!out.null_counts || out.null_counts->size() == pages) &&
                    (!out.nan_counts || out.nan_counts->size() == pages);
  if (!consistent) {
    return Status::Corruption("column index: its lists disagree on the number of pages");
  }
  return Status::OK();
}

}  // namespace pqsift::format

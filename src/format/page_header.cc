#include "format/page_header.h"

#include <string>

#include "format/file_metadata_decoder.h"
#include "format/thrift_decoder.h"

namespace pqsift::format {
namespace {

using thrift::CType;
using thrift::FieldHeader;

void DecodeOptionalStatistics(ThriftDecoder& d, const FieldHeader& f,
                              std::optional<Statistics>& out) {
  if (d.reader.AcceptField(f, CType::kStruct)) DecodeStatistics(d, out.emplace());
}

void DecodeDataPageHeader(ThriftDecoder& d, DataPageHeader& out) {
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.reader.ReadField(f, out.num_values)) req.Set(0);
        return true;
      case 2:
        if (d.reader.ReadField(f, out.encoding)) req.Set(1);
        return true;
      case 3:
        if (d.reader.ReadField(f, out.definition_level_encoding)) req.Set(2);
        return true;
      case 4:
        if (d.reader.ReadField(f, out.repetition_level_encoding)) req.Set(3);
        return true;
      case 5: DecodeOptionalStatistics(d, f, out.statistics); return true;
      default: return false;
    }
  });
  if (d.reader.ok()) {
    req.Check(d, "DataPageHeader",
              {"num_values", "encoding", "definition_level_encoding", "repetition_level_encoding"});
  }
}

void DecodeDataPageHeaderV2(ThriftDecoder& d, DataPageHeaderV2& out) {
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.reader.ReadField(f, out.num_values)) req.Set(0);
        return true;
      case 2:
        if (d.reader.ReadField(f, out.num_nulls)) req.Set(1);
        return true;
      case 3:
        if (d.reader.ReadField(f, out.num_rows)) req.Set(2);
        return true;
      case 4:
        if (d.reader.ReadField(f, out.encoding)) req.Set(3);
        return true;
      case 5:
        if (d.reader.ReadField(f, out.definition_levels_byte_length)) req.Set(4);
        return true;
      case 6:
        if (d.reader.ReadField(f, out.repetition_levels_byte_length)) req.Set(5);
        return true;
      case 7: d.reader.ReadField(f, out.is_compressed); return true;
      case 8: DecodeOptionalStatistics(d, f, out.statistics); return true;
      default: return false;
    }
  });
  if (d.reader.ok()) {
    req.Check(d, "DataPageHeaderV2",
              {"num_values", "num_nulls", "num_rows", "encoding", "definition_levels_byte_length",
               "repetition_levels_byte_length"});
  }
}

void DecodeDictionaryPageHeader(ThriftDecoder& d, DictionaryPageHeader& out) {
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.reader.ReadField(f, out.num_values)) req.Set(0);
        return true;
      case 2:
        if (d.reader.ReadField(f, out.encoding)) req.Set(1);
        return true;
      case 3: d.reader.ReadField(f, out.is_sorted); return true;
      default: return false;
    }
  });
  if (d.reader.ok()) req.Check(d, "DictionaryPageHeader", {"num_values", "encoding"});
}

Status Invalid(const std::string& what) {
  return Status::Corruption("invalid page header: " + what);
}

// Meaning checks on a header whose encoding was valid.
Status ValidatePageHeader(const PageHeader& h) {
  if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0) {
    return Invalid("negative page size");
  }
  switch (h.type) {
    case PageType::kDataPage:
      if (!h.data_page_header) return Invalid("DATA_PAGE without data_page_header");
      if (h.data_page_header->num_values < 0) return Invalid("negative num_values");
      break;
    case PageType::kDataPageV2: {
      if (!h.data_page_header_v2) return Invalid("DATA_PAGE_V2 without data_page_header_v2");
      const DataPageHeaderV2& v2 = *h.data_page_header_v2;
      if (v2.num_values < 0 || v2.num_nulls < 0 || v2.num_rows < 0 ||
          v2.num_nulls > v2.num_values) {
        return Invalid("negative or inconsistent value counts in a v2 data page");
      }
      if (v2.definition_levels_byte_length < 0 || v2.repetition_levels_byte_length < 0 ||
          static_cast<int64_t>(v2.definition_levels_byte_length) +
                  v2.repetition_levels_byte_length >
              h.compressed_page_size) {
        return Invalid("v2 level lengths exceed the compressed page size");
      }
      break;
    }
    case PageType::kDictionaryPage:
      if (!h.dictionary_page_header)
        return Invalid("DICTIONARY_PAGE without dictionary_page_header");
      if (h.dictionary_page_header->num_values < 0)
        return Invalid("negative dictionary num_values");
      break;
    default: break;  // INDEX_PAGE and unknown types are skipped by readers
  }
  return Status::OK();
}

}  // namespace

Status DecodePageHeader(std::span<const uint8_t> bytes, PageHeader& out, size_t* header_size) {
  // A page header holds no lists except inside statistics; a small budget suffices.
  ThriftDecoder d(bytes, 1u << 20);
  RequiredFields req;
  thrift::ReadStruct(d.reader, [&](const FieldHeader& f) {
    switch (f.id) {
      case 1:
        if (d.reader.ReadField(f, out.type)) req.Set(0);
        return true;
      case 2:
        if (d.reader.ReadField(f, out.uncompressed_page_size)) req.Set(1);
        return true;
      case 3:
        if (d.reader.ReadField(f, out.compressed_page_size)) req.Set(2);
        return true;
      case 4: d.reader.ReadField(f, out.crc); return true;
      case 5:
        if (d.reader.AcceptField(f, CType::kStruct))
          DecodeDataPageHeader(d, out.data_page_header.emplace());
        return true;
      case 7:
        if (d.reader.AcceptField(f, CType::kStruct)) {
          DecodeDictionaryPageHeader(d, out.dictionary_page_header.emplace());
        }
        return true;
      case 8:
        if (d.reader.AcceptField(f, CType::kStruct)) {
          DecodeDataPageHeaderV2(d, out.data_page_header_v2.emplace());
        }
        return true;
      default: return false;
    }
  });
  if (d.reader.ok()) {
    req.Check(d, "PageHeader", {"type", "uncompressed_page_size", "compressed_page_size"});
  }
  if (!d.reader.ok()) return Status::Corruption("malformed page header: " + d.reader.error());
  *header_size = d.reader.position();
  return ValidatePageHeader(out);
}

}  // namespace pqsift::format

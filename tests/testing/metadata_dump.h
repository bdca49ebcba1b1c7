// Every field of the decoded metadata structs as text, one "name=value" per line, so tests can
// compare whole structs (and see the difference in a failure message).
#pragma once

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "format/page_header.h"
#include "format/page_index.h"
#include "pqsift/metadata.h"

namespace pqsift::testing {

class Dumper {
 public:
  std::string str() const { return out_.str(); }

  void Field(std::string_view name, std::string_view v) {
    Line(name) << '"' << Escape(v) << "\"\n";
  }
  void Field(std::string_view name, bool v) { Line(name) << (v ? "true\n" : "false\n"); }
  template <typename T>
  requires std::is_arithmetic_v<T>
  void Field(std::string_view name, T v) { Line(name) << static_cast<int64_t>(v) << '\n'; }
  template <typename T>
  requires std::is_enum_v<T>
  void Field(std::string_view name, T v) { Line(name) << static_cast<int64_t>(v) << '\n'; }
  template <typename T>
  void Field(std::string_view name, const std::optional<T>& v) {
    if (v) {
      Field(name, *v);
    } else {
      Line(name) << "unset\n";
    }
  }
  template <typename T>
  void Field(std::string_view name, const std::vector<T>& v) {
    Line(name) << "[" << v.size() << "]\n";
    for (size_t i = 0; i < v.size(); ++i) {
      Push(std::string(name) + "[" + std::to_string(i) + "]");
      Dump(*this, v[i]);
      Pop();
    }
  }
  void Field(std::string_view name, const std::vector<bool>& v) {
    Line(name) << "[" << v.size() << "]\n";
    for (size_t i = 0; i < v.size(); ++i) Field(std::to_string(i), static_cast<bool>(v[i]));
  }

  void Push(std::string prefix) { prefix_.push_back(std::move(prefix)); }
  void Pop() { prefix_.pop_back(); }

 private:
  std::ostream& Line(std::string_view name) {
    for (const std::string& p : prefix_) out_ << p << '.';
    out_ << name << '=';
    return out_;
  }
  static std::string Escape(std::string_view s) {
    std::string out;
    for (unsigned char c : s) {
      if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"') {
        out += static_cast<char>(c);
      } else {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        out += buf;
      }
    }
    return out;
  }

  std::ostringstream out_;
  std::vector<std::string> prefix_;
};

// Values inside vectors (elements) and nested structs. Scalars print as a field named "v".
inline void Dump(Dumper& d, int64_t v) { d.Field("v", v); }
inline void Dump(Dumper& d, std::string_view v) { d.Field("v", v); }
inline void Dump(Dumper& d, Encoding v) { d.Field("v", v); }
inline void Dump(Dumper& d, ColumnOrder v) { d.Field("v", v); }

inline void Dump(Dumper& d, const LogicalType& t) {
  d.Field("kind", t.kind);
  d.Field("scale", t.scale);
  d.Field("precision", t.precision);
  d.Field("unit", t.unit);
  d.Field("is_adjusted_to_utc", t.is_adjusted_to_utc);
  d.Field("bit_width", t.bit_width);
  d.Field("is_signed", t.is_signed);
  d.Field("unrecognized_id", t.unrecognized_id);
}

inline void Dump(Dumper& d, const KeyValue& kv) {
  d.Field("key", kv.key);
  d.Field("value", kv.value);
}

inline void Dump(Dumper& d, const Statistics& s) {
  d.Field("max", s.max);
  d.Field("min", s.min);
  d.Field("null_count", s.null_count);
  d.Field("distinct_count", s.distinct_count);
  d.Field("max_value", s.max_value);
  d.Field("min_value", s.min_value);
  d.Field("is_max_value_exact", s.is_max_value_exact);
  d.Field("is_min_value_exact", s.is_min_value_exact);
  d.Field("nan_count", s.nan_count);
}

inline void Dump(Dumper& d, const PageEncodingStats& s) {
  d.Field("page_type", s.page_type);
  d.Field("encoding", s.encoding);
  d.Field("count", s.count);
}

inline void Dump(Dumper& d, const SortingColumn& s) {
  d.Field("column_idx", s.column_idx);
  d.Field("descending", s.descending);
  d.Field("nulls_first", s.nulls_first);
}

template <typename T>
void DumpNested(Dumper& d, std::string_view name, const std::optional<T>& v) {
  if (!v) {
    d.Field(name, std::optional<int>());
    return;
  }
  d.Push(std::string(name));
  Dump(d, *v);
  d.Pop();
}

inline void Dump(Dumper& d, const SizeStatistics& s) {
  d.Field("unencoded_byte_array_data_bytes", s.unencoded_byte_array_data_bytes);
  d.Field("repetition_level_histogram", s.repetition_level_histogram);
  d.Field("definition_level_histogram", s.definition_level_histogram);
}

inline void Dump(Dumper& d, const ColumnMetaData& m) {
  d.Field("type", m.type);
  d.Field("encodings", m.encodings);
  d.Field("path_in_schema", m.path_in_schema);
  d.Field("codec", m.codec);
  d.Field("num_values", m.num_values);
  d.Field("total_uncompressed_size", m.total_uncompressed_size);
  d.Field("total_compressed_size", m.total_compressed_size);
  d.Field("key_value_metadata", m.key_value_metadata);
  d.Field("data_page_offset", m.data_page_offset);
  d.Field("index_page_offset", m.index_page_offset);
  d.Field("dictionary_page_offset", m.dictionary_page_offset);
  DumpNested(d, "statistics", m.statistics);
  d.Field("encoding_stats", m.encoding_stats);
  d.Field("bloom_filter_offset", m.bloom_filter_offset);
  d.Field("bloom_filter_length", m.bloom_filter_length);
  DumpNested(d, "size_statistics", m.size_statistics);
}

inline void Dump(Dumper& d, const ColumnChunk& c) {
  d.Field("file_path", c.file_path);
  d.Field("file_offset", c.file_offset);
  DumpNested(d, "meta_data", c.meta_data);
  d.Field("offset_index_offset", c.offset_index_offset);
  d.Field("offset_index_length", c.offset_index_length);
  d.Field("column_index_offset", c.column_index_offset);
  d.Field("column_index_length", c.column_index_length);
  d.Field("is_encrypted", c.is_encrypted);
}

inline void Dump(Dumper& d, const RowGroup& rg) {
  d.Field("columns", rg.columns);
  d.Field("total_byte_size", rg.total_byte_size);
  d.Field("num_rows", rg.num_rows);
  d.Field("sorting_columns", rg.sorting_columns);
  d.Field("file_offset", rg.file_offset);
  d.Field("total_compressed_size", rg.total_compressed_size);
  d.Field("ordinal", rg.ordinal);
}

inline void Dump(Dumper& d, const SchemaElement& e) {
  d.Field("type", e.type);
  d.Field("type_length", e.type_length);
  d.Field("repetition_type", e.repetition_type);
  d.Field("name", e.name);
  d.Field("num_children", e.num_children);
  d.Field("converted_type", e.converted_type);
  d.Field("scale", e.scale);
  d.Field("precision", e.precision);
  d.Field("field_id", e.field_id);
  DumpNested(d, "logical_type", e.logical_type);
}

inline void Dump(Dumper& d, const FileMetaData& m) {
  d.Field("version", m.version);
  d.Field("schema", m.schema);
  d.Field("num_rows", m.num_rows);
  d.Field("row_groups", m.row_groups);
  d.Field("key_value_metadata", m.key_value_metadata);
  d.Field("created_by", m.created_by);
  d.Field("column_orders", m.column_orders);
  d.Field("has_encryption_algorithm", m.has_encryption_algorithm);
  d.Field("footer_signing_key_metadata", m.footer_signing_key_metadata);
}

inline void Dump(Dumper& d, const format::DataPageHeader& h) {
  d.Field("num_values", h.num_values);
  d.Field("encoding", h.encoding);
  d.Field("definition_level_encoding", h.definition_level_encoding);
  d.Field("repetition_level_encoding", h.repetition_level_encoding);
  DumpNested(d, "statistics", h.statistics);
}

inline void Dump(Dumper& d, const format::DataPageHeaderV2& h) {
  d.Field("num_values", h.num_values);
  d.Field("num_nulls", h.num_nulls);
  d.Field("num_rows", h.num_rows);
  d.Field("encoding", h.encoding);
  d.Field("definition_levels_byte_length", h.definition_levels_byte_length);
  d.Field("repetition_levels_byte_length", h.repetition_levels_byte_length);
  d.Field("is_compressed", h.is_compressed);
  DumpNested(d, "statistics", h.statistics);
}

inline void Dump(Dumper& d, const format::DictionaryPageHeader& h) {
  d.Field("num_values", h.num_values);
  d.Field("encoding", h.encoding);
  d.Field("is_sorted", h.is_sorted);
}

inline void Dump(Dumper& d, const format::PageHeader& h) {
  d.Field("type", h.type);
  d.Field("uncompressed_page_size", h.uncompressed_page_size);
  d.Field("compressed_page_size", h.compressed_page_size);
  d.Field("crc", h.crc);
  DumpNested(d, "data_page_header", h.data_page_header);
  DumpNested(d, "dictionary_page_header", h.dictionary_page_header);
  DumpNested(d, "data_page_header_v2", h.data_page_header_v2);
}

inline void Dump(Dumper& d, const format::PageLocation& p) {
  d.Field("offset", p.offset);
  d.Field("compressed_page_size", p.compressed_page_size);
  d.Field("first_row_index", p.first_row_index);
}

inline void Dump(Dumper& d, const format::OffsetIndex& oi) {
  d.Field("page_locations", oi.page_locations);
  d.Field("unencoded_byte_array_data_bytes", oi.unencoded_byte_array_data_bytes);
}

inline void Dump(Dumper& d, const format::ColumnIndex& ci) {
  d.Field("null_pages", ci.null_pages);
  d.Field("min_values", ci.min_values);
  d.Field("max_values", ci.max_values);
  d.Field("boundary_order", ci.boundary_order);
  d.Field("null_counts", ci.null_counts);
  d.Field("repetition_level_histograms", ci.repetition_level_histograms);
  d.Field("definition_level_histograms", ci.definition_level_histograms);
  d.Field("nan_counts", ci.nan_counts);
}

// The whole struct as text.
template <typename T>
std::string DumpToString(const T& v) {
  Dumper d;
  Dump(d, v);
  return d.str();
}

}  // namespace pqsift::testing
